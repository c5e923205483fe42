/**
 * Failpoints: named places where a test can make the real server process die
 * with SIGKILL, to prove what survives a crash at exactly that point (the
 * idempotency and crash tests start the API as a child process with them).
 *
 * Inert in production: a failpoint fires only when BOTH
 *   - `TREASURY_API_TEST_FAILPOINTS=1`, and
 *   - `NODE_ENV` is not `production`,
 * and then only the ones named in `TREASURY_API_FAILPOINT` (comma-separated;
 * `name` fires on its first hit, `name@N` on its N-th hit). Without the first
 * two conditions `TREASURY_API_FAILPOINT` is ignored. The environment is read
 * once, when this module loads.
 *
 * Names in use:
 * - `idempotency.before-commit`: a write's handler and its stored response are
 *   written, the transaction is not committed yet;
 * - `idempotency.after-commit`: that transaction has committed, the response
 *   has not been sent;
 * - `bank.before-commit`: the bank simulator did one step of a batch (take or
 *   settle: bookings, status events, outbox rows) and has not committed it;
 * - `webhooks.after-send`: the webhook worker sent a round of deliveries and
 *   has not recorded them yet;
 * - `channels.pull.before-commit`: a bank file from a channel is imported and recorded, not committed yet;
 * - `channels.push.after-upload`: a payment file is in the bank's inbox, its outbox row is not marked sent yet.
 */

export type FailpointName =
  | "idempotency.before-commit"
  | "idempotency.after-commit"
  | "bank.before-commit"
  | "webhooks.after-send"
  | "channels.pull.before-commit"
  | "channels.push.after-upload";

/**
 * Parses `TREASURY_API_FAILPOINT` into name → hit number that fires (1-based). Unknown names are kept (and never
 * hit).
 */
export function parseFailpoints(env: Record<string, string | undefined>): Map<string, number> {
  const armed = new Map<string, number>();
  if (env.TREASURY_API_TEST_FAILPOINTS !== "1" || env.NODE_ENV === "production") return armed;
  for (const part of (env.TREASURY_API_FAILPOINT ?? "").split(",")) {
    const m = /^\s*([\w.-]+)(?:@(\d+))?\s*$/.exec(part);
    if (m?.[1]) armed.set(m[1], Math.max(1, Number(m[2] ?? "1")));
  }
  return armed;
}

const armed = parseFailpoints(process.env);
const hits = new Map<string, number>();

/**
 * Kills this process with SIGKILL (no cleanup, no flush, like `kill -9`) when
 * `name` is armed and this is the hit it waits for; otherwise does nothing.
 */
export function failpoint(name: FailpointName): void {
  const at = armed.get(name);
  if (at === undefined) return;
  const n = (hits.get(name) ?? 0) + 1;
  hits.set(name, n);
  if (n !== at) return;
  process.stderr.write(`treasury-api: failpoint ${name} hit ${n}: SIGKILL\n`);
  process.kill(process.pid, "SIGKILL");
}
