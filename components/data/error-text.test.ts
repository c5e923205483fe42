/**
 * Refusals in words (a 409 from the API is shown as what it means) and
 * which refusals a retry cannot change (a dialog then offers Close).
 */
import { describe, expect, it } from "vitest";
import { BffRequestError } from "@/components/data/bff-fetch";
import { errorText, isFinalRefusal, stateInWords } from "./error-text";

const err = (status: number, details: Record<string, unknown> = {}, message = "refused", requestId?: string) =>
  new BffRequestError(status, "x", message, details, requestId);

describe("errorText", () => {
  it("names the state a 409 found, in words", () => {
    expect(errorText(err(409, { state: "pending_approval", allowed: ["created"] }), "Submitting the batch")).toBe(
      "Submitting the batch was refused: it is already waiting for approval, so this is no longer possible.",
    );
    expect(errorText(err(409, { state: "confirmed" }), "The rejection")).toBe(
      "The rejection was refused: it is already confirmed, so this is no longer possible.",
    );
  });

  it("says a 409 in progress is still running, and other 409s keep the message", () => {
    expect(errorText(err(409, { reason: "in_progress" }), "The approval")).toBe(
      "The approval is still being processed. Wait a moment and try again.",
    );
    expect(
      errorText(
        err(
          409,
          { reason: "transaction_already_matched" },
          "The transaction of this match is already confirmed in another match",
        ),
        "The confirmation",
      ),
    ).toBe(
      "The confirmation was refused because it conflicts with the current state: The transaction of this match is " +
        "already confirmed in another match",
    );
  });

  it("keeps the BFF's message with a short request id, and words a network failure", () => {
    expect(
      errorText(
        err(400, {}, "requested_execution_date must not be in the past", "369c01c5-0000-4000-8000-000000000000"),
      ),
    ).toBe("requested_execution_date must not be in the past (request 369c01c5)");
    expect(errorText(new TypeError("Failed to fetch"), "Saving the batch")).toBe(
      "Saving the batch could not reach the server. Try again — it will not be done twice.",
    );
  });

  it("words unknown states by their name", () => {
    expect(stateInWords("partially_completed")).toBe("partially completed");
    expect(stateInWords("some_new_state")).toBe("some new state");
  });
});

describe("isFinalRefusal", () => {
  it("is true for refusals the same request cannot overcome", () => {
    for (const e of [err(400), err(403), err(404), err(409, { state: "approved" }), err(409)])
      expect(isFinalRefusal(e)).toBe(true);
  });

  it("is false where a retry with the same key may succeed", () => {
    for (const e of [
      err(409, { reason: "in_progress" }),
      err(429),
      err(500),
      err(502),
      err(503),
      err(504),
      new TypeError("Failed to fetch"),
    ])
      expect(isFinalRefusal(e)).toBe(false);
  });
});
