/**
 * The step-up rules, pure so that they are unit-tested alone (lib/bff/step-up.ts applies them to a request).
 *
 * A step-up is a passkey assertion made shortly before a sensitive decision: approving or rejecting a payment,
 * verifying or rejecting a counterparty, changing an approval policy. It is bound to the user, to the signed-in
 * session, to the kind of decision and to the ids of the objects shown when it was made (bulk approval: every
 * selected approval request), and it stands for `STEP_UP_MAX_AGE_MS` (5 minutes) after it was verified.
 */

/** How long a verified assertion stands, in milliseconds (5 minutes; an assertion exactly this old still stands). */
export const STEP_UP_MAX_AGE_MS = 5 * 60_000;

/** How long a WebAuthn challenge may be answered, in milliseconds (5 minutes). */
export const CHALLENGE_TTL_MS = 5 * 60_000;

/** Most objects one assertion may cover (the largest bulk selection). */
export const STEP_UP_MAX_SUBJECTS = 200;

/** `DASHBOARD_STEP_UP`: `required` for everyone, `optional` for users with a passkey, `off`. */
export type StepUpMode = "required" | "optional" | "off";

/** The kinds of decision a step-up covers; an assertion for one kind never serves another. */
export const STEP_UP_ACTIONS = [
  "approval.decide",
  "counterparty.verify",
  "approval_policy.change",
  "user.manage",
] as const;
export type StepUpAction = (typeof STEP_UP_ACTIONS)[number];

/** The effective mode: the configured one, else `optional` in demo mode (no device needed), else `required`. */
export function stepUpMode(config: { DASHBOARD_STEP_UP?: StepUpMode; DASHBOARD_DEMO: boolean }): StepUpMode {
  return config.DASHBOARD_STEP_UP ?? (config.DASHBOARD_DEMO ? "optional" : "required");
}

/** A stored assertion as the rules read it. `verifiedAt` is ISO 8601. */
export interface StepUpProof {
  userId: string;
  sessionId: string;
  action: string;
  subjects: readonly string[];
  verifiedAt: string;
}

/**
 * Why a decision was refused (also the audit entry's `reason`):
 * `step_up_missing` no proof sent (or none known by that id), `no_passkey_enrolled` step-up is required and the user
 * has no passkey, `step_up_expired` older than 5 minutes, `step_up_wrong_session` made by another user or session,
 * `step_up_wrong_scope` made for another kind of decision or other objects.
 */
export type StepUpRefusal =
  "step_up_missing" | "no_passkey_enrolled" | "step_up_expired" | "step_up_wrong_session" | "step_up_wrong_scope";

export type StepUpDecision = { ok: true; stepUp: "verified" | "not_needed" } | { ok: false; reason: StepUpRefusal };

/** Whether step-up applies to this user: always when required, only with a passkey when optional, never when off. */
export function stepUpNeeded(mode: StepUpMode, hasPasskey: boolean): boolean {
  return mode === "required" || (mode === "optional" && hasPasskey);
}

/**
 * Whether step-up applies to this user for this kind of decision. As `stepUpNeeded`, except `user.manage` (an admin's
 * user writes, docs/users-and-notifications.md#users-in-the-browser): only for an admin who has a passkey, in both
 * `required` and `optional` modes, so that an admin without a device can still add users and remove a locked-out
 * user's passkeys (the recovery path); never when off.
 */
export function stepUpNeededFor(action: StepUpAction, mode: StepUpMode, hasPasskey: boolean): boolean {
  if (action === "user.manage") return mode !== "off" && hasPasskey;
  return stepUpNeeded(mode, hasPasskey);
}

/**
 * Decides whether a decision may go ahead.
 * @param input.mode the effective mode; `hasPasskey` whether the user enrolled one
 * @param input.proof the assertion the request named, or null when it named none (or an unknown one)
 * @param input.userId / sessionId who is asking, in which session
 * @param input.action / subjects what is decided on (every subject must be covered by the proof)
 * @param input.nowMs the current time in epoch milliseconds
 */
export function checkStepUp(input: {
  mode: StepUpMode;
  hasPasskey: boolean;
  proof: StepUpProof | null;
  userId: string;
  sessionId: string;
  action: StepUpAction;
  subjects: readonly string[];
  nowMs: number;
}): StepUpDecision {
  if (!stepUpNeededFor(input.action, input.mode, input.hasPasskey)) return { ok: true, stepUp: "not_needed" };
  if (!input.hasPasskey) return { ok: false, reason: "no_passkey_enrolled" };
  const p = input.proof;
  if (!p) return { ok: false, reason: "step_up_missing" };
  if (p.userId !== input.userId || p.sessionId !== input.sessionId)
    return { ok: false, reason: "step_up_wrong_session" };
  const age = input.nowMs - Date.parse(p.verifiedAt);
  if (!(age <= STEP_UP_MAX_AGE_MS)) return { ok: false, reason: "step_up_expired" };
  const covered = new Set(p.subjects);
  if (p.action !== input.action || input.subjects.length === 0 || !input.subjects.every((s) => covered.has(s)))
    return { ok: false, reason: "step_up_wrong_scope" };
  return { ok: true, stepUp: "verified" };
}

/** What the browser is told for each refusal (the 403 `step_up_required` message). */
export const STEP_UP_MESSAGES: Record<StepUpRefusal, string> = {
  step_up_missing: "Confirm with your passkey to continue.",
  no_passkey_enrolled: "This needs a passkey confirmation, and you have no passkey. Add one on your profile page.",
  step_up_expired: "Your passkey confirmation is older than 5 minutes. Confirm again.",
  step_up_wrong_session: "This passkey confirmation belongs to another session. Confirm again.",
  step_up_wrong_scope: "Your passkey confirmation does not cover this item. Confirm again.",
};

/** Whether a stored challenge may still be answered (not consumed, not expired). `expiresAt` ISO 8601. */
export function challengeUsable(c: { consumedAt: string | null; expiresAt: string }, nowMs: number): boolean {
  return c.consumedAt === null && Date.parse(c.expiresAt) > nowMs;
}
