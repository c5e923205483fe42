/** The batch page keeps polling while its view can still change by itself (`batchViewMoving`). */
import { describe, expect, it } from "vitest";
import { batchViewMoving } from "./payment-queries";

type View = Parameters<typeof batchViewMoving>[0];
const view = (status: string, instructions: string[]): View =>
  ({
    batch: { status },
    instructions: instructions.map((s, i) => ({ id: `i${i}`, status: s })),
  }) as unknown as View;

describe("batchViewMoving", () => {
  it("polls while the batch awaits approval, is approved or is being processed", () => {
    for (const s of ["pending_approval", "approved", "processing"])
      expect(batchViewMoving(view(s, ["pending"])), s).toBe(true);
  });
  it("keeps polling when the bank has ended the batch but an instruction still reads pending or accepted", () => {
    expect(batchViewMoving(view("completed", ["settled", "pending"]))).toBe(true);
    expect(batchViewMoving(view("partially_completed", ["accepted", "rejected"]))).toBe(true);
    expect(batchViewMoving(view("failed", ["pending"]))).toBe(true);
  });
  it("stops once the bank's outcome shows on every instruction, and never polls a batch that did not move", () => {
    expect(batchViewMoving(view("completed", ["settled", "settled"]))).toBe(false);
    expect(batchViewMoving(view("partially_completed", ["settled", "rejected", "cancelled"]))).toBe(false);
    // Rejected in approval or still a draft: its instructions stay pending for good.
    expect(batchViewMoving(view("rejected", ["pending"]))).toBe(false);
    expect(batchViewMoving(view("created", ["pending"]))).toBe(false);
  });
});
