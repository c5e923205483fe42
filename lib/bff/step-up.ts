/**
 * Passkey step-up on the server: `requireStepUp` is the one call a decision route makes before it acts.
 *
 * How to call it (approve / reject, counterparty verify / reject, approval-policy changes):
 *
 *   await requireStepUp(ctx, { action: "approval.decide", subjects: [ctx.params.id], refusal: "approval.refused" });
 *
 * `ctx` is the route's context from `withUser` (it carries the user, the request id and the request). The browser
 * sends the proof it got from POST /api/session/step-up/verify in the `X-Step-Up` header. Under the effective
 * `DASHBOARD_STEP_UP` mode (lib/auth/step-up-rules.ts) the proof must belong to this user and session, be at most
 * 5 minutes old and cover the action and every subject. Otherwise the refusal is written to the audit log (`refusal`
 * action, outcome `refused`, `details.reason` e.g. `step_up_missing`) and a 403 `step_up_required` is thrown, whose
 * `details` say why (`reason`), what to cover (`action`, `subjects`) and where to enrol (`profile_url`).
 */
import "server-only";
import type { NextRequest } from "next/server";
import { getToken } from "next-auth/jwt";
import { AUDIT_ACTION } from "../audit-actions";
import { appendAudit } from "../db/audit";
import { findAssertion, hasPasskey } from "../db/passkeys";
import type { DashboardUser } from "../db/users";
import { BffError } from "./errors";
import { getConfig } from "../server/config";
import { dashboardDb } from "../server/db";
import { checkStepUp, STEP_UP_MESSAGES, stepUpMode, type StepUpAction, type StepUpMode } from "../auth/step-up-rules";

/** The header that carries the step-up proof (the assertion id). */
export const STEP_UP_HEADER = "x-step-up";

/** Where a user without a passkey is sent to enrol one. */
export const PROFILE_URL = "/profile";

/** The effective step-up mode of this dashboard. */
export function currentStepUpMode(): StepUpMode {
  return stepUpMode(getConfig());
}

/**
 * The id of the signed-in session of this request: the `sid` set at sign-in, or for a session signed in before
 * sessions had one, its user, session version and sign-in time (together unique enough to bind a step-up to).
 * @throws BffError 401 when the request has no session token.
 */
export async function sessionIdOf(req: NextRequest): Promise<string> {
  const token = await getToken({ req, secret: getConfig().NEXTAUTH_SECRET });
  if (!token?.sub) throw new BffError("authentication_failed", "Sign in to continue.");
  return token.sid ?? `${token.sub}:${token.sv ?? -1}:${token.authAt ?? 0}`;
}

/** What a route passes: the user and request (a `withUser` context has both) and, optionally, the request id. */
export interface StepUpContext {
  user: DashboardUser;
  request: NextRequest;
  requestId?: string;
}

/**
 * Refuses the decision unless the request carries a valid step-up for it (see the module comment).
 * @param what.action the kind of decision; `subjects` the ids acted on (all must be covered); `refusal` the audit
 *   action of a refusal (e.g. `approval.refused`); `companyId` / `objectType` for the audit entry.
 * @returns `verified` or `not_needed` (mode off, or optional for a user without a passkey)
 * @throws BffError 403 `step_up_required` (audited) when a step-up is needed and missing, stale, foreign or too narrow.
 */
export async function requireStepUp(
  ctx: StepUpContext,
  what: {
    action: StepUpAction;
    subjects: string[];
    refusal: string;
    objectType?: string;
    companyId?: string | null;
  },
): Promise<"verified" | "not_needed"> {
  const mode = currentStepUpMode();
  if (mode === "off") return "not_needed";
  const db = await dashboardDb();
  const enrolled = await hasPasskey(db, ctx.user.id);
  const proofId = ctx.request.headers.get(STEP_UP_HEADER)?.trim() ?? "";
  const proof = proofId ? await findAssertion(db, proofId) : null;
  const sessionId = proof ? await sessionIdOf(ctx.request) : "";
  const decision = checkStepUp({
    mode,
    hasPasskey: enrolled,
    proof,
    userId: ctx.user.id,
    sessionId,
    action: what.action,
    subjects: what.subjects,
    nowMs: Date.now(),
  });
  if (decision.ok) return decision.stepUp;
  await appendAudit(db, {
    userId: ctx.user.id,
    userEmail: ctx.user.email,
    action: what.refusal,
    objectType: what.objectType ?? "step_up",
    objectId: what.subjects.length === 1 ? what.subjects[0] : null,
    companyId: what.companyId ?? null,
    outcome: "refused",
    requestId: ctx.requestId ?? null,
    details: { reason: decision.reason, step_up_action: what.action, subjects: what.subjects, mode },
  });
  throw new BffError("step_up_required", STEP_UP_MESSAGES[decision.reason], {
    reason: decision.reason,
    action: what.action,
    subjects: what.subjects,
    profile_url: PROFILE_URL,
  });
}

/**
 * The step-up every approval-policy write needs (a rule or an approver group created, changed, moved or deleted):
 * `approval_policy.change` covering `subject` (the id, or `new_rule` / `new_group`), refused and audited as
 * `approval_policy.refused` on `objectType`, before anything changes.
 * @throws BffError 403 `step_up_required` as `requireStepUp`.
 */
export function requirePolicyStepUp(
  ctx: StepUpContext,
  objectType: "approval_policy" | "approver_group",
  subject: string,
): Promise<"verified" | "not_needed"> {
  return requireStepUp(ctx, {
    action: "approval_policy.change",
    subjects: [subject],
    refusal: AUDIT_ACTION.approvalPolicyRefused,
    objectType,
  });
}
