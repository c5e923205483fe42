/**
 * Password sign-in with its audit trail: a success is logged as `session.sign_in` / `success`; a refusal as
 * `session.sign_in` / `refused` with `details.reason` `invalid_credentials` (a wrong password, an unknown or a
 * disabled account alike: the entry has no user id and the same shape in each case, so the log does not tell
 * which accounts exist) or `locked` (tried while the account name is locked); the failure that locks an account
 * name adds a `session.lockout` entry with the lock's end. Used by the credentials provider (./options.ts).
 */
import { AUDIT_ACTION } from "../audit-actions";
import { appendAudit, auditRefusal } from "../db/audit";
import { accountName, verifyCredentials } from "../db/users";

/**
 * Checks the credentials (lib/db/users.ts `verifyCredentials`, with its throttling) and appends the audit entries.
 * @param email the account name as typed; logged lower-cased and trimmed
 * @param now epoch milliseconds (tests)
 * @returns the result of `verifyCredentials`, whose signature this shares
 */
export const signInWithAudit: typeof verifyCredentials = async (db, email, password, now = Date.now()) => {
  const account = accountName(email);
  const result = await verifyCredentials(db, email, password, now);
  if (result.ok) {
    await appendAudit(db, {
      userId: result.user.id,
      userEmail: result.user.email,
      action: AUDIT_ACTION.signIn,
      objectType: "session",
      outcome: "success",
    });
    return result;
  }
  const base = { userId: null, userEmail: account, action: AUDIT_ACTION.signIn, objectType: "session" } as const;
  if (result.reason === "throttled") {
    await auditRefusal(db, {
      ...base,
      reason: "locked",
      message: "Too many failed sign-ins for this account name; try again later.",
      details: { retry_after_seconds: result.retryAfterSeconds },
    });
    return result;
  }
  await auditRefusal(db, { ...base, reason: "invalid_credentials", details: { failures: result.failures } });
  if (result.lockedUntil) {
    await appendAudit(db, {
      userId: null,
      userEmail: account,
      action: AUDIT_ACTION.signInLockout,
      objectType: "session",
      outcome: "locked",
      details: { reason: "too_many_failures", failures: result.failures, locked_until: result.lockedUntil },
    });
  }
  return result;
};
