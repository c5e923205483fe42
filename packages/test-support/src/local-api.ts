/**
 * What the dashboard's tests take from the local Treasury API (test-only): the in-process server
 * (`startServer`, see docs/treasury-api.md; `startLoopbackServer` with the tests' defaults, and `clientToken`) and the demo seed's API clients (client id, secret, scopes, companies)
 * that sign in to it, `queryRows` for a test that reads the API's own database, and the folder bank a test runs as
 * the bank on the far side of a folder connection. The dashboard's code never
 * imports `@treasury/api`; its tests start the API through this module.
 */
export { startServer, type RunningServer, type ServerOptions } from "@treasury/api/server";
export { clientToken, startLoopbackServer } from "@treasury/api/test/loopback";
export * from "@treasury/api/seed/demo-clients";
export { queryRows } from "@treasury/api/db/client";
/** The simulated bank behind a folder channel (docs/bank-channels.md "The simulated bank behind a channel"). */
export { runFolderBankOnce, type FolderBank } from "@treasury/api/bank/folder-bank";
