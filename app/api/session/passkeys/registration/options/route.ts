import { sessionIdOf } from "@/lib/bff/step-up";
import { registrationOptions } from "@/lib/bff/webauthn";
import { SETTINGS_MAX_BODY_BYTES, withUser } from "@/lib/bff/route";
import { dashboardDb } from "@/lib/server/db";

/**
 * POST /api/session/passkeys/registration/options — `{ challenge_id, options }` for `startRegistration`; the
 * challenge is stored for this session, single use, 5 minutes. The user's passkeys are excluded (no double enrolment).
 */
export const POST = withUser(
  { permission: "profile.self", company: "none", maxBody: SETTINGS_MAX_BODY_BYTES },
  async (ctx) => {
    const r = await registrationOptions({
      db: await dashboardDb(),
      user: ctx.user,
      sessionId: await sessionIdOf(ctx.request),
    });
    return { challenge_id: r.challengeId, options: r.options };
  },
);
