"use client";

import { useQuery } from "@tanstack/react-query";
import { startAuthentication, WebAuthnError } from "@simplewebauthn/browser";
import type { PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/browser";
import { BffRequestError, callBff, endpointQuery } from "@/components/data/bff-fetch";
import { sessionEndpoints, type StepUpStatus } from "@/lib/bff/areas/session/endpoints";
import { stepUpNeededFor } from "@/lib/auth/step-up-rules";

/** What a step-up covers: the kind of decision and the ids the dialog shows (all selected rows of a bulk action). */
export interface StepUpScope {
  action: "approval.decide" | "counterparty.verify" | "approval_policy.change" | "user.manage";
  subjects: string[];
}

export type { StepUpStatus };

/** The step-up status of the signed-in user (cached briefly; refetched after enrolling or removing a passkey). */
export const stepUpStatusQuery = {
  ...endpointQuery(sessionEndpoints.stepUp),
  staleTime: 30_000,
};

/** GET /api/session/step-up now (no cache). */
function readStepUpStatus(): Promise<StepUpStatus> {
  return callBff(sessionEndpoints.stepUp);
}

/** The status query; `enabled` false skips the request (a dialog that needs no step-up). */
export function useStepUpStatus(enabled = true) {
  return useQuery({ ...stepUpStatusQuery, enabled });
}

/**
 * Why a passkey confirmation did not happen: `cancelled` the person dismissed the browser's prompt (or it timed out),
 * `no_passkey` step-up is required and nothing is enrolled (the dialog links to the profile page), `failed` anything
 * else (the message says what).
 */
export class StepUpError extends Error {
  readonly kind: "cancelled" | "no_passkey" | "failed";
  constructor(kind: StepUpError["kind"], message: string) {
    super(message);
    this.name = "StepUpError";
    this.kind = kind;
  }
}

/** A refusal of the server that a new confirmation can fix (`step_up_required`, except "no passkey"). */
export function isStepUpRefusal(err: unknown): boolean {
  return err instanceof BffRequestError && err.code === "step_up_required";
}

/** True when the browser's passkey prompt was dismissed, timed out or aborted (not a fault). */
export function promptDismissed(err: unknown): boolean {
  const names = [(err as Error | undefined)?.name];
  if (err instanceof WebAuthnError) {
    if (err.code === "ERROR_CEREMONY_ABORTED") return true;
    names.push((err.cause as Error | undefined)?.name);
  }
  return names.some((n) => n === "NotAllowedError" || n === "AbortError");
}

/**
 * Asks for a passkey confirmation covering `scope` when this user's decisions of that kind need one (the server's rule,
 * lib/auth/step-up-rules.ts `stepUpNeededFor`: `user.manage` only with a passkey), and returns the headers to send
 * with each decision it covers (`{ "X-Step-Up": proof }`), or `{}` when none is needed.
 * @throws StepUpError (cancelled, no passkey, or failed with the server's message)
 */
export async function confirmWithPasskey(scope: StepUpScope, status?: StepUpStatus): Promise<Record<string, string>> {
  const s = status ?? (await readStepUpStatus());
  if (!stepUpNeededFor(scope.action, s.mode, s.enrolled)) return {};
  if (!s.enrolled)
    throw new StepUpError("no_passkey", "This needs a passkey confirmation, and you have no passkey yet.");
  try {
    const opts = await callBff<
      string,
      unknown,
      { challenge_id: string; options: PublicKeyCredentialRequestOptionsJSON }
    >(sessionEndpoints.stepUpOptions, { body: scope, idempotencyKey: crypto.randomUUID() });
    let response;
    try {
      response = await startAuthentication({ optionsJSON: opts.options });
    } catch (err) {
      if (promptDismissed(err))
        throw new StepUpError("cancelled", "The passkey confirmation was cancelled. Nothing was sent.");
      throw new StepUpError("failed", `Your passkey could not be used: ${(err as Error)?.message ?? String(err)}`);
    }
    const proof = await callBff(sessionEndpoints.stepUpVerify, {
      body: { challenge_id: opts.challenge_id, response },
      idempotencyKey: crypto.randomUUID(),
    });
    return { [proof.header]: proof.proof };
  } catch (err) {
    if (err instanceof StepUpError) throw err;
    if (err instanceof BffRequestError && err.details.reason === "no_passkey_enrolled")
      throw new StepUpError("no_passkey", err.message);
    throw new StepUpError("failed", err instanceof Error ? err.message : String(err));
  }
}
