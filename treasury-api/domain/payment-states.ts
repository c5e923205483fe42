/**
 * The state machines of payments, approvals and reconciliation matches
 * (docs/architecture.md#states-and-transitions; docs/treasury-api.md#states-and-transitions leaves them "not shown").
 *
 * Pure tables and functions, no database: the routes and the bank simulator
 * ask `transition(...)` for the next state and get a 409 `conflict` with
 * `details: { state, allowed }` when the operation does not fit the current
 * state.
 *
 * Operations by object (operation: from → to):
 * - payment batch: submit: created → pending_approval; approve: pending_approval → approved;
 *   reject: pending_approval → rejected; take (bank): approved → processing;
 *   settle (bank): processing → completed / partially_completed / failed
 * - instruction: accept: pending → accepted; settle: accepted → settled; reject: accepted → rejected;
 *   cancel: pending → cancelled
 * - approval request: approve: pending / partially_approved → partially_approved / approved;
 *   reject: pending / partially_approved → rejected
 * - reconciliation match: confirm: proposed → confirmed; reject: proposed → rejected
 */
import { APPROVAL_STATES, type ApprovalState } from "@treasury/contract/approvals";
import {
  BATCH_STATUSES,
  INSTRUCTION_STATUSES,
  type BatchStatus,
  type InstructionStatus,
} from "@treasury/contract/payments";
import { stateConflict } from "../lib/errors";

/** One operation of a machine: the states it may start from and the states it may lead to. */
export interface Transition<S extends string> {
  from: readonly S[];
  to: readonly S[];
}

/** A state machine: its name (for messages), all states, and its operations. */
export interface Machine<S extends string, O extends string> {
  name: string;
  states: readonly S[];
  /** States no operation leaves. */
  terminal: readonly S[];
  operations: Readonly<Record<O, Transition<S>>>;
}

export type BatchOperation = "submit" | "approve" | "reject" | "take" | "settle";
export type InstructionOperation = "accept" | "settle" | "reject" | "cancel";
export type ApprovalOperation = "approve" | "reject";
export const MATCH_STATES = ["proposed", "confirmed", "rejected"] as const;
export type MatchState = (typeof MATCH_STATES)[number];
export type MatchOperation = "confirm" | "reject";

export const BATCH_MACHINE: Machine<BatchStatus, BatchOperation> = {
  name: "payment batch",
  states: BATCH_STATUSES,
  terminal: ["rejected", "completed", "partially_completed", "failed"],
  operations: {
    submit: { from: ["created"], to: ["pending_approval"] },
    approve: { from: ["pending_approval"], to: ["approved"] },
    reject: { from: ["pending_approval"], to: ["rejected"] },
    take: { from: ["approved"], to: ["processing"] },
    settle: { from: ["processing"], to: ["completed", "partially_completed", "failed"] },
  },
};

export const INSTRUCTION_MACHINE: Machine<InstructionStatus, InstructionOperation> = {
  name: "payment instruction",
  states: INSTRUCTION_STATUSES,
  terminal: ["settled", "rejected", "cancelled"],
  operations: {
    accept: { from: ["pending"], to: ["accepted"] },
    settle: { from: ["accepted"], to: ["settled"] },
    reject: { from: ["accepted"], to: ["rejected"] },
    cancel: { from: ["pending"], to: ["cancelled"] },
  },
};

export const APPROVAL_MACHINE: Machine<ApprovalState, ApprovalOperation> = {
  name: "approval request",
  states: APPROVAL_STATES,
  terminal: ["approved", "rejected"],
  operations: {
    approve: { from: ["pending", "partially_approved"], to: ["partially_approved", "approved"] },
    reject: { from: ["pending", "partially_approved"], to: ["rejected"] },
  },
};

export const MATCH_MACHINE: Machine<MatchState, MatchOperation> = {
  name: "reconciliation match",
  states: MATCH_STATES,
  terminal: ["confirmed", "rejected"],
  operations: {
    confirm: { from: ["proposed"], to: ["confirmed"] },
    reject: { from: ["proposed"], to: ["rejected"] },
  },
};

/** True when `operation` may start from `state`. */
export function canApply<S extends string, O extends string>(
  machine: Machine<S, O>,
  state: string,
  operation: O,
): state is S {
  return (machine.operations[operation].from as readonly string[]).includes(state);
}

/**
 * Checks `operation` against `state` and returns the target state.
 * @param to the target when the operation has several (e.g. settle → completed); must be one of the operation's
 * targets.
 * @throws ApiError 409 conflict, details `{ state, allowed }` (allowed = the states the operation starts from).
 * @throws Error when `to` is not a target of the operation (a programming error, not a client one).
 */
export function transition<S extends string, O extends string>(
  machine: Machine<S, O>,
  state: string,
  operation: O,
  to?: S,
): S {
  const t = machine.operations[operation];
  if (!canApply(machine, state, operation)) throw stateConflict(machine.name, state, t.from, operation);
  const target = to ?? t.to[0];
  if (target === undefined || !t.to.includes(target))
    throw new Error(`${machine.name}: ${operation} cannot lead to ${String(to)}`);
  return target;
}

/**
 * The batch status after the bank settled every instruction (docs/architecture.md#states-and-transitions):
 * all settled → `completed`; none settled → `failed`; otherwise `partially_completed`.
 * @param outcomes the final instruction statuses (settled or rejected); an empty batch is `failed`.
 */
export function settledBatchStatus(
  outcomes: readonly InstructionStatus[],
): "completed" | "partially_completed" | "failed" {
  const settled = outcomes.filter((s) => s === "settled").length;
  if (settled === 0) return "failed";
  return settled === outcomes.length ? "completed" : "partially_completed";
}

/**
 * The approval state after one more approval (docs/architecture.md#states-and-transitions: below `required_count`
 * → `partially_approved`, at it → `approved`).
 * @param approvedCount the approvals counted so far, including this one
 */
export function approvalStateAfterApprove(
  approvedCount: number,
  requiredCount: number,
): "partially_approved" | "approved" {
  return approvedCount >= requiredCount ? "approved" : "partially_approved";
}

/** Approval states listed by `/approvals/pending`. */
export const OPEN_APPROVAL_STATES: readonly ApprovalState[] = ["pending", "partially_approved"];
