/* global process, URL */
/**
 * Preloaded (`node --import`) into the dashboard's processes by bench/group.ts:
 * appends one line per outgoing `fetch` (pid and URL) to BENCH_FETCH_LOG, so
 * the bench can count the upstream calls a page caused. Does nothing without
 * BENCH_FETCH_LOG.
 */
import { appendFileSync } from "node:fs";

const log = process.env.BENCH_FETCH_LOG;
if (log) {
  const original = globalThis.fetch;
  globalThis.fetch = function countedFetch(input, init) {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    appendFileSync(log, `${process.pid} ${url}\n`);
    return original.call(this, input, init);
  };
}
