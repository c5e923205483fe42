import { StepUpScopeBody } from "@/lib/auth/passkey-inputs";
import { sessionIdOf } from "@/lib/bff/step-up";
import { stepUpOptions } from "@/lib/bff/webauthn";
import { SETTINGS_MAX_BODY_BYTES, withUser } from "@/lib/bff/route";
import { dashboardDb } from "@/lib/server/db";

/**
 * POST /api/session/step-up/options — `{ action, subjects }` (what the dialog shows: e.g. `approval.decide` and the
 * selected approval request ids). Returns `{ challenge_id, options }` for `startAuthentication`; the challenge and the
 * scope are stored for this session, single use, 5 minutes. 403 `step_up_required` when the user has no passkey.
 */
export const POST = withUser(
  { permission: "profile.self", company: "none", body: StepUpScopeBody, maxBody: SETTINGS_MAX_BODY_BYTES },
  async (ctx) => {
    const r = await stepUpOptions(
      { db: await dashboardDb(), user: ctx.user, sessionId: await sessionIdOf(ctx.request) },
      { action: ctx.body.action, subjects: ctx.body.subjects },
    );
    return { challenge_id: r.challengeId, options: r.options };
  },
);
