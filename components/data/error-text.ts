import { BffRequestError } from "@/components/data/bff-fetch";

const STATE_WORDS: Record<string, string> = {
  created: "created (not submitted)",
  pending_approval: "waiting for approval",
  partially_approved: "partially approved",
  approved: "approved",
  rejected: "rejected",
  processing: "being processed by the bank",
  completed: "completed",
  partially_completed: "partially completed",
  failed: "failed",
  proposed: "proposed",
  confirmed: "confirmed",
};

/** A state name in words ("pending_approval" → "waiting for approval"). */
export function stateInWords(state: string): string {
  return STATE_WORDS[state] ?? state.replaceAll("_", " ");
}

/**
 * A refusal in words for a toast or an inline message: a user cannot act
 * on a bare "409 Conflict". A 409 with `details.state` names the
 * state the object is in now; an idempotency collision says the request is
 * still running; other errors keep the BFF's message and request id.
 */
export function errorText(err: unknown, what = "The request"): string {
  if (!(err instanceof BffRequestError))
    return `${what} could not reach the server. Try again — it will not be done twice.`;
  if (err.status === 409) {
    if (err.details.reason === "in_progress") return `${what} is still being processed. Wait a moment and try again.`;
    const state = typeof err.details.state === "string" ? err.details.state : null;
    if (state) return `${what} was refused: it is already ${stateInWords(state)}, so this is no longer possible.`;
    return `${what} was refused because it conflicts with the current state: ${err.message}`;
  }
  const id = err.requestId ? ` (request ${err.requestId.slice(0, 8)})` : "";
  return `${err.message}${id}`;
}

/**
 * True when sending the same request again cannot succeed — 400, 403, 404,
 * or a 409 other than "still in progress" — so a dialog offers Close rather
 * than Try again. Network errors, 429 and 5xx are worth a retry (with the
 * same Idempotency-Key).
 */
export function isFinalRefusal(err: unknown): boolean {
  if (!(err instanceof BffRequestError)) return false;
  if (err.status === 409) return err.details.reason !== "in_progress";
  return err.status === 400 || err.status === 403 || err.status === 404;
}
