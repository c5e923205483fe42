import { describe, expect, it } from "vitest";
import { ApiError } from "../lib/errors";
import { requiredApprovals } from "./four-eyes";
import {
  APPROVAL_MACHINE,
  BATCH_MACHINE,
  INSTRUCTION_MACHINE,
  MATCH_MACHINE,
  OPEN_APPROVAL_STATES,
  approvalStateAfterApprove,
  canApply,
  settledBatchStatus,
  transition,
  type Machine,
} from "./payment-states";

/** Every (state, operation) pair of a machine: legal ones give a target, illegal ones a 409 with state and allowed. */
function checkEveryPair<S extends string, O extends string>(machine: Machine<S, O>, legal: Record<string, S>) {
  for (const state of machine.states) {
    for (const op of Object.keys(machine.operations) as O[]) {
      const key = `${state}:${op}`;
      const expected = legal[key];
      if (expected !== undefined) {
        expect(transition(machine, state, op, expected), key).toBe(expected);
        expect(canApply(machine, state, op)).toBe(true);
      } else {
        let caught: unknown;
        try {
          transition(machine, state, op);
        } catch (err) {
          caught = err;
        }
        expect(caught, key).toBeInstanceOf(ApiError);
        const e = caught as ApiError;
        expect(e.status).toBe(409);
        expect(e.code).toBe("conflict");
        expect(e.details).toEqual({ state, allowed: machine.operations[op].from });
      }
    }
  }
}

// docs/architecture.md#states-and-transitions
describe("payment state machines", () => {
  it("batch: every legal and illegal transition", () => {
    checkEveryPair(BATCH_MACHINE, {
      "created:submit": "pending_approval",
      "pending_approval:approve": "approved",
      "pending_approval:reject": "rejected",
      "approved:take": "processing",
      "processing:settle": "partially_completed",
    });
    expect(transition(BATCH_MACHINE, "processing", "settle", "completed")).toBe("completed");
    expect(transition(BATCH_MACHINE, "processing", "settle", "failed")).toBe("failed");
    expect(() => transition(BATCH_MACHINE, "processing", "settle", "approved")).toThrow(/cannot lead to/);
  });

  it("instruction: every legal and illegal transition", () => {
    checkEveryPair(INSTRUCTION_MACHINE, {
      "pending:accept": "accepted",
      "accepted:settle": "settled",
      "accepted:reject": "rejected",
      "pending:cancel": "cancelled",
    });
  });

  it("approval request: every legal and illegal transition", () => {
    checkEveryPair(APPROVAL_MACHINE, {
      "pending:approve": "approved",
      "partially_approved:approve": "approved",
      "pending:reject": "rejected",
      "partially_approved:reject": "rejected",
    });
    expect(transition(APPROVAL_MACHINE, "pending", "approve", "partially_approved")).toBe("partially_approved");
  });

  it("reconciliation match: every legal and illegal transition", () => {
    checkEveryPair(MATCH_MACHINE, { "proposed:confirm": "confirmed", "proposed:reject": "rejected" });
  });

  it("each machine has exactly the design's operations", () => {
    expect(Object.keys(BATCH_MACHINE.operations).sort()).toEqual(["approve", "reject", "settle", "submit", "take"]);
    expect(Object.keys(INSTRUCTION_MACHINE.operations).sort()).toEqual(["accept", "cancel", "reject", "settle"]);
    expect(Object.keys(APPROVAL_MACHINE.operations).sort()).toEqual(["approve", "reject"]);
    expect(Object.keys(MATCH_MACHINE.operations).sort()).toEqual(["confirm", "reject"]);
  });

  it("terminal states are the design's, and exactly the states no operation leaves", () => {
    const machines = [BATCH_MACHINE, INSTRUCTION_MACHINE, APPROVAL_MACHINE, MATCH_MACHINE] as Machine<string, string>[];
    expect(machines.map((m) => [...m.terminal].sort())).toEqual([
      ["completed", "failed", "partially_completed", "rejected"],
      ["cancelled", "rejected", "settled"],
      ["approved", "rejected"],
      ["confirmed", "rejected"],
    ]);
    for (const m of machines) {
      const left = m.states.filter((s) => Object.values(m.operations).some((t) => t.from.includes(s)));
      expect(m.states.filter((s) => !left.includes(s)).sort(), m.name).toEqual([...m.terminal].sort());
      for (const state of m.terminal) {
        for (const op of Object.keys(m.operations))
          expect(canApply(m, state, op), `${m.name} ${state} ${op}`).toBe(false);
      }
    }
  });

  it("the approval queue lists exactly the approval states a decision can start from", () => {
    expect([...OPEN_APPROVAL_STATES].sort()).toEqual(["partially_approved", "pending"]);
    expect([...OPEN_APPROVAL_STATES].sort()).toEqual([...APPROVAL_MACHINE.operations.approve.from].sort());
    expect([...OPEN_APPROVAL_STATES].sort()).toEqual([...APPROVAL_MACHINE.operations.reject.from].sort());
  });

  it("the 409 message names object, operation, state and allowed states", () => {
    expect(() => transition(BATCH_MACHINE, "approved", "submit")).toThrow(
      "Cannot submit payment batch in state approved; allowed from: created",
    );
    expect(() => transition(INSTRUCTION_MACHINE, "settled", "cancel")).toThrow(
      "Cannot cancel payment instruction in state settled; allowed from: pending",
    );
    expect(() => transition(APPROVAL_MACHINE, "approved", "reject")).toThrow(
      "Cannot reject approval request in state approved; allowed from: pending, partially_approved",
    );
    expect(() => transition(MATCH_MACHINE, "rejected", "confirm")).toThrow(
      "Cannot confirm reconciliation match in state rejected; allowed from: proposed",
    );
  });

  it("batch outcome from instruction outcomes", () => {
    expect(settledBatchStatus(["settled", "settled"])).toBe("completed");
    expect(settledBatchStatus(["settled", "rejected"])).toBe("partially_completed");
    expect(settledBatchStatus(["rejected", "rejected"])).toBe("failed");
    expect(settledBatchStatus([])).toBe("failed");
  });

  it("approval counting", () => {
    expect(approvalStateAfterApprove(1, 1)).toBe("approved");
    expect(approvalStateAfterApprove(1, 2)).toBe("partially_approved");
    expect(approvalStateAfterApprove(2, 2)).toBe("approved");
  });

  it("four-eyes threshold: at or above needs two, compared exactly", () => {
    expect(requiredApprovals("99999.99", "NOK", { byCurrency: {}, fallback: "100000.00" })).toBe(1);
    expect(requiredApprovals("100000.00", "NOK", { byCurrency: {}, fallback: "100000.00" })).toBe(2);
    expect(requiredApprovals("100000", "NOK", { byCurrency: {}, fallback: "100000.00" })).toBe(2);
    expect(requiredApprovals("100000.001", "NOK", { byCurrency: {}, fallback: "100000.00" })).toBe(2);
    expect(requiredApprovals("0.30", "NOK", { byCurrency: {}, fallback: "0.3" })).toBe(2);
  });
});
