/**
 * What the dashboard's tests take from the local Treasury API's pain.002 reader (test-only): the parser and the
 * builder of a bank's status report, so a dashboard test can check that the pain.001 it exports is matched by the
 * report the bank answers with (docs/bank-files.md#pain002-status-reports).
 */
export { batchIdFromReference, parsePain002 } from "@treasury/api/import/pain002";
export { pain002For } from "@treasury/api/test/pain002-builder";
