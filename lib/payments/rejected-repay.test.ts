/**
 * A payment the bank rejected (pain.002 RJCT, docs/bank-files.md "pain.002 status reports") can be paid again in a
 * new batch: the possible-duplicate signal does not count the rejected instruction, but would count a settled one.
 */
import { describe, expect, it } from "vitest";
import { possibleDuplicateSignals } from "./risk-signals";

describe("a rejected payment paid again", () => {
  const past = {
    batchId: "b1",
    batchStatus: "partially_completed",
    status: "rejected",
    date: "2026-03-02",
    amount: "400.00",
    currency: "NOK",
    creditorName: "Creditor 4",
    creditorIban: "NO9386011117947",
    endToEndId: "P2-I-4",
  };
  const batch = { id: "b2", currency: "NOK", requestedExecutionDate: "2026-03-03", instructions: [{ ...past }] };
  const ctx = { today: "2026-03-03", history: [past], counterparties: [] };

  it("is not a possible duplicate of the rejected one (same IBAN, amount and end-to-end id)", () => {
    expect(possibleDuplicateSignals(batch, ctx)).toEqual([]);
  });

  it("the same instruction settled would be one", () => {
    expect(possibleDuplicateSignals(batch, { ...ctx, history: [{ ...past, status: "settled" }] })).toHaveLength(1);
  });
});
