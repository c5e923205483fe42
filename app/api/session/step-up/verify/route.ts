import type { AuthenticationResponseJSON } from "@simplewebauthn/server";
import { AUDIT_ACTION } from "@/lib/audit-actions";
import { StepUpVerifyBody } from "@/lib/auth/passkey-inputs";
import { sessionIdOf, STEP_UP_HEADER } from "@/lib/bff/step-up";
import { STEP_UP_MAX_AGE_MS } from "@/lib/auth/step-up-rules";
import { verifyStepUp } from "@/lib/bff/webauthn";
import { PASSKEY_MAX_BODY_BYTES, withUser } from "@/lib/bff/route";
import { dashboardDb } from "@/lib/server/db";

/**
 * POST /api/session/step-up/verify — `{ challenge_id, response }` (the `startAuthentication` result). Verifies it and
 * returns the proof `{ proof, header, action, subjects, verified_at, expires_at }`: send `proof` in the `X-Step-Up`
 * header of the decisions it covers, within 5 minutes, from this session. Audited as `session.step_up`. 400 when the
 * challenge is unknown, already answered (a replay), expired or of another session, or the answer does not verify.
 */
export const POST = withUser(
  {
    permission: "profile.self",
    company: "none",
    body: StepUpVerifyBody,
    maxBody: PASSKEY_MAX_BODY_BYTES,
    audit: { action: AUDIT_ACTION.stepUp, objectType: "step_up" },
  },
  async (ctx) => {
    const r = await verifyStepUp(
      { db: await dashboardDb(), user: ctx.user, sessionId: await sessionIdOf(ctx.request) },
      {
        challengeId: ctx.body.challenge_id,
        response: ctx.body.response as unknown as AuthenticationResponseJSON,
      },
    );
    ctx.audit.objectId = r.proof;
    ctx.audit.details = { step_up_action: r.action, subjects: r.subjects };
    return {
      proof: r.proof,
      header: STEP_UP_HEADER,
      action: r.action,
      subjects: r.subjects,
      verified_at: r.verifiedAt,
      expires_at: new Date(Date.parse(r.verifiedAt) + STEP_UP_MAX_AGE_MS).toISOString(),
    };
  },
);
