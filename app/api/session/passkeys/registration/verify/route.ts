import type { RegistrationResponseJSON } from "@simplewebauthn/server";
import { AUDIT_ACTION } from "@/lib/audit-actions";
import { RegistrationVerifyBody } from "@/lib/auth/passkey-inputs";
import { sessionIdOf } from "@/lib/bff/step-up";
import { verifyRegistration } from "@/lib/bff/webauthn";
import { PASSKEY_MAX_BODY_BYTES, withUser } from "@/lib/bff/route";
import { dashboardDb } from "@/lib/server/db";

/**
 * POST /api/session/passkeys/registration/verify — `{ challenge_id, name, response }` (the `startRegistration`
 * result). Stores the passkey (201, audited as `passkey.add`); 400 when the challenge is unknown, used or expired or
 * the answer does not verify; 409 when that passkey is already enrolled.
 */
export const POST = withUser(
  {
    permission: "profile.self",
    company: "none",
    body: RegistrationVerifyBody,
    maxBody: PASSKEY_MAX_BODY_BYTES,
    status: 201,
    audit: { action: AUDIT_ACTION.passkeyAdd, objectType: "passkey" },
  },
  async (ctx) => {
    const passkey = await verifyRegistration(
      { db: await dashboardDb(), user: ctx.user, sessionId: await sessionIdOf(ctx.request) },
      {
        challengeId: ctx.body.challenge_id,
        name: ctx.body.name,
        response: ctx.body.response as unknown as RegistrationResponseJSON,
      },
    );
    ctx.audit.details = { name: passkey.name };
    return passkey;
  },
);
