/**
 * Body schemas of the passkey and step-up routes (app/api/session/passkeys/**, app/api/session/step-up/**). Plain
 * zod, importable by the browser. The WebAuthn answers are checked here only for shape (an object with the fields
 * `@simplewebauthn/server` reads); their content is verified by lib/bff/webauthn.ts.
 */
import { z } from "zod";
import { Uuid } from "@treasury/contract";
import { STEP_UP_ACTIONS, STEP_UP_MAX_SUBJECTS } from "./step-up-rules";

const b64url = z
  .string()
  .min(1, { message: "is required" })
  .max(16_384)
  .regex(/^[A-Za-z0-9_-]+$/, { message: "must be base64url" });

/** A passkey's label: 1..100 characters after trimming. */
export const PasskeyName = z
  .string({ message: "is required" })
  .trim()
  .min(1, { message: "is required" })
  .max(100, { message: "must be at most 100 characters" });

const credentialShape = {
  id: b64url,
  rawId: b64url,
  type: z.literal("public-key", { message: "must be public-key" }),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
};

/** `startRegistration`'s result (RegistrationResponseJSON). */
export const RegistrationResponse = z.looseObject({
  ...credentialShape,
  response: z.looseObject({
    clientDataJSON: b64url,
    attestationObject: b64url,
    transports: z.array(z.string().max(32)).max(10).optional(),
  }),
});

/** `startAuthentication`'s result (AuthenticationResponseJSON). */
export const AuthenticationResponse = z.looseObject({
  ...credentialShape,
  response: z.looseObject({
    clientDataJSON: b64url,
    authenticatorData: b64url,
    signature: b64url,
    userHandle: b64url.optional(),
  }),
});

/** POST /api/session/passkeys/registration/verify */
export const RegistrationVerifyBody = z.object({
  challenge_id: Uuid,
  name: PasskeyName,
  response: RegistrationResponse,
});

/** PATCH /api/session/passkeys/{id} */
export const PasskeyRenameBody = z.object({ name: PasskeyName });

/** POST /api/session/step-up/options: what the assertion will cover. */
export const StepUpScopeBody = z.object({
  action: z.enum(STEP_UP_ACTIONS, { message: `must be one of ${STEP_UP_ACTIONS.join(", ")}` }),
  subjects: z
    .array(z.string().min(1).max(100), { message: "must be a list of ids" })
    .min(1, { message: "must name at least one object" })
    .max(STEP_UP_MAX_SUBJECTS, { message: `must name at most ${STEP_UP_MAX_SUBJECTS} objects` })
    .transform((s) => [...new Set(s)]),
});

/** POST /api/session/step-up/verify */
export const StepUpVerifyBody = z.object({ challenge_id: Uuid, response: AuthenticationResponse });
