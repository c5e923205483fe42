import { describe, expect, it } from "vitest";
import type { PaymentStatusEvent } from "@treasury/contract";
import { rejectionReasons } from "./rejection-reasons";

const ev = (
  instruction_id: string,
  status: PaymentStatusEvent["status"],
  occurred_at: string,
  reason?: string | null,
  reason_text?: string | null,
): PaymentStatusEvent => ({
  id: `${instruction_id}-${occurred_at}`,
  instruction_id,
  status,
  occurred_at,
  reason,
  reason_text,
});

describe("rejectionReasons", () => {
  it("keeps the latest rejection with a reason per instruction, and nothing for the others", () => {
    const reasons = rejectionReasons([
      ev("a", "accepted", "2026-11-20T10:00:00Z"),
      ev("a", "rejected", "2026-11-20T11:00:00+01:00", "AM04", "Insufficient funds"),
      ev("a", "rejected", "2026-11-20T10:30:00Z", "AC04", "Closed account number — Account closed"),
      ev("b", "settled", "2026-11-20T10:00:00Z"),
      ev("c", "rejected", "2026-11-20T10:00:00Z", null, null),
      ev("d", "rejected", "2026-11-20T10:00:00Z", "X99", "  "),
    ]);
    // 11:00+01:00 is 10:00Z: the AC04 at 10:30Z is the later one.
    expect(Object.fromEntries(reasons)).toEqual({
      a: { code: "AC04", text: "Closed account number — Account closed" },
      d: { code: "X99", text: null },
    });
    expect(rejectionReasons([]).size).toBe(0);
  });
});
