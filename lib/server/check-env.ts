/**
 * Start-up check of the configuration (Node runtime only; imported by
 * `instrumentation.ts`): a bad or missing variable stops the server with a
 * message naming it, before the first request meets it.
 */
import { ConfigError, parseDashboardEnv } from "./env";

try {
  parseDashboardEnv(process.env);
} catch (err) {
  if (err instanceof ConfigError) {
    process.stderr.write(`\n${err.message}\n\nSee docs/configuration.md.\n`);
    process.exit(1);
  }
  throw err;
}
