/**
 * The WebAuthn ceremonies of the dashboard (server side, `@simplewebauthn/server`): enrolling a passkey and a step-up
 * assertion. The relying party is the dashboard's public URL: RP ID its host name and the expected origin its origin,
 * both from `NEXTAUTH_URL` (never from request headers). Challenges are stored server-side (lib/db/passkeys.ts), bound
 * to the user and the session, single use, 5 minutes.
 *
 * Errors are `BffError`s: 400 `validation_error` for an answer that does not verify or a challenge that is unknown,
 * used or expired; 503 when `NEXTAUTH_URL` is not set.
 */
import "server-only";
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { isoBase64URL } from "@simplewebauthn/server/helpers";
import type { DashboardUser } from "../db/users";
import type { DashboardDb } from "../db/client";
import {
  addPasskey,
  consumeChallenge,
  createChallenge,
  recordAssertion,
  storedPasskeys,
  touchPasskey,
  type PasskeySummary,
} from "../db/passkeys";
import { BffError } from "./errors";
import { getConfig } from "../server/config";
import { logger } from "../server/log";
import type { StepUpAction } from "../auth/step-up-rules";

const RP_NAME = "Treasury dashboard";
const TIMEOUT_MS = 120_000;

/** RP ID and origin from `NEXTAUTH_URL`. @throws BffError 503 when it is not set. */
export function relyingParty(): { rpID: string; origin: string } {
  const url = getConfig().NEXTAUTH_URL;
  if (!url)
    throw new BffError("service_unavailable", "Passkeys need NEXTAUTH_URL (the dashboard's public URL) to be set.");
  const u = new URL(url);
  return { rpID: u.hostname, origin: u.origin };
}

/**
 * What every answer of this dashboard's ceremonies must show: the challenge it was given, this dashboard's origin and
 * relying party, and a verified user (docs/users-and-notifications.md).
 */
function expectedOf(challenge: { challenge: string }) {
  const { rpID, origin } = relyingParty();
  return {
    expectedChallenge: challenge.challenge,
    expectedOrigin: origin,
    expectedRPID: rpID,
    requireUserVerification: true,
  };
}

function refused(message: string): BffError {
  return new BffError("validation_error", message, { errors: { response: [message] } });
}

/** Who is enrolling or confirming, in which session. */
export interface Ceremony {
  db: DashboardDb;
  user: DashboardUser;
  sessionId: string;
}

/** Options for `startRegistration`, and the id of the stored challenge the answer must name. */
export async function registrationOptions(
  c: Ceremony,
): Promise<{ challengeId: string; options: PublicKeyCredentialCreationOptionsJSON }> {
  const { rpID } = relyingParty();
  const existing = await storedPasskeys(c.db, c.user.id);
  const options = await generateRegistrationOptions({
    rpName: RP_NAME,
    rpID,
    userName: c.user.email,
    userDisplayName: c.user.name,
    userID: new TextEncoder().encode(c.user.id),
    timeout: TIMEOUT_MS,
    attestationType: "none",
    excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: p.transports })),
    authenticatorSelection: { residentKey: "preferred", userVerification: "required" },
  });
  const stored = await createChallenge(c.db, {
    userId: c.user.id,
    sessionId: c.sessionId,
    purpose: "registration",
    challenge: options.challenge,
  });
  return { challengeId: stored.id, options };
}

/** Verifies the browser's registration answer and stores the passkey. @throws BffError 400 when it does not verify. */
export async function verifyRegistration(
  c: Ceremony,
  input: { challengeId: string; response: RegistrationResponseJSON; name: string },
): Promise<PasskeySummary> {
  const challenge = await consumeChallenge(c.db, {
    id: input.challengeId,
    userId: c.user.id,
    sessionId: c.sessionId,
    purpose: "registration",
  });
  if (!challenge) throw refused("This passkey request has expired or was already used. Start again.");
  const expected = expectedOf(challenge);
  let info;
  try {
    const r = await verifyRegistrationResponse({ response: input.response, ...expected });
    if (!r.verified) throw new Error("not verified");
    info = r.registrationInfo;
  } catch (err) {
    logger.info(
      { err: err instanceof Error ? err.message : String(err), userId: c.user.id },
      "passkey enrolment refused",
    );
    throw refused("The passkey could not be verified. Try again.");
  }
  try {
    return await addPasskey(c.db, {
      userId: c.user.id,
      credentialId: info.credential.id,
      publicKey: isoBase64URL.fromBuffer(info.credential.publicKey),
      counter: info.credential.counter,
      transports: info.credential.transports ?? input.response.response.transports ?? [],
      name: input.name,
    });
  } catch {
    throw new BffError("conflict", "This passkey is already enrolled.");
  }
}

/** Options for `startAuthentication` covering `scope`, and the id of the stored challenge. */
export async function stepUpOptions(
  c: Ceremony,
  scope: { action: StepUpAction; subjects: string[] },
): Promise<{ challengeId: string; options: PublicKeyCredentialRequestOptionsJSON }> {
  const { rpID } = relyingParty();
  const passkeys = await storedPasskeys(c.db, c.user.id);
  if (passkeys.length === 0)
    throw new BffError("step_up_required", "You have no passkey. Add one on your profile page.", {
      reason: "no_passkey_enrolled",
    });
  const options = await generateAuthenticationOptions({
    rpID,
    timeout: TIMEOUT_MS,
    userVerification: "required",
    allowCredentials: passkeys.map((p) => ({ id: p.credentialId, transports: p.transports })),
  });
  const stored = await createChallenge(c.db, {
    userId: c.user.id,
    sessionId: c.sessionId,
    purpose: "step_up",
    challenge: options.challenge,
    scope,
  });
  return { challengeId: stored.id, options };
}

/**
 * Verifies a step-up answer against the stored challenge and the user's passkey, and records the assertion.
 * @returns the proof (assertion id) and what it covers; the challenge is consumed whatever the outcome.
 * @throws BffError 400 when the challenge is unknown, used, expired or of another session, or the answer does not verify.
 */
export async function verifyStepUp(
  c: Ceremony,
  input: { challengeId: string; response: AuthenticationResponseJSON },
): Promise<{ proof: string; action: string; subjects: string[]; verifiedAt: string }> {
  const challenge = await consumeChallenge(c.db, {
    id: input.challengeId,
    userId: c.user.id,
    sessionId: c.sessionId,
    purpose: "step_up",
  });
  if (!challenge?.scope) throw refused("This passkey confirmation has expired or was already used. Confirm again.");
  const passkey = (await storedPasskeys(c.db, c.user.id)).find((p) => p.credentialId === input.response.id);
  if (!passkey) throw refused("This passkey is not enrolled for you.");
  const expected = expectedOf(challenge);
  let newCounter: number;
  try {
    const r = await verifyAuthenticationResponse({
      response: input.response,
      ...expected,
      credential: {
        id: passkey.credentialId,
        publicKey: isoBase64URL.toBuffer(passkey.publicKey),
        counter: passkey.counter,
        transports: passkey.transports,
      },
    });
    if (!r.verified) throw new Error("not verified");
    newCounter = r.authenticationInfo.newCounter;
  } catch (err) {
    logger.info({ err: err instanceof Error ? err.message : String(err), userId: c.user.id }, "step-up refused");
    throw refused("The passkey confirmation could not be verified. Try again.");
  }
  await touchPasskey(c.db, passkey.id, newCounter);
  const a = await recordAssertion(c.db, {
    userId: c.user.id,
    sessionId: c.sessionId,
    action: challenge.scope.action,
    subjects: challenge.scope.subjects,
    credentialId: passkey.id,
    challengeId: challenge.id,
  });
  return { proof: a.id, action: a.action, subjects: [...a.subjects], verifiedAt: a.verifiedAt };
}
