/**
 * camt.054 debit notifications settle our payment instructions by end-to-end id (docs/bank-files.md "pain.002
 * status reports", last part): a booked debit whose `EndToEndId` is that of a pending or accepted instruction of
 * the same company, same currency and amount, in a batch that was sent (approved or processing), settles it
 * (pending passes through accepted), links the transaction, writes the status events and `payment.status.updated`
 * webhooks, and moves the batch as a pain.002 would. Idempotent: a settled instruction is never settled again, and
 * the import never stores the same debit twice.
 */
import { and, asc, eq, inArray } from "drizzle-orm";
import { Decimal } from "decimal.js";
import type { InstructionStatus } from "@treasury/contract/payments";
import type { DbOrTx } from "../db/client";
import { applyStatusChanges, type StatusChange } from "../db/repos/payments";
import { paymentBatches, paymentInstructions } from "../db/schema";
import { BATCH_MACHINE, settledBatchStatus, transition } from "../domain/payment-states";

/** A booked debit as the importer stored it. */
export interface BookedDebit {
  id: string;
  companyId: string;
  amount: string;
  currency: string;
  direction: string;
  endToEndId: string | null;
}

/**
 * Settles the instructions the debits pay (see the module doc).
 * @param debits transactions just stored (credits and debits without an end-to-end id are ignored)
 * @param at ISO 8601 instant of the status events
 * @returns the ids of the instructions settled
 */
export async function settleInstructionsByDebits(tx: DbOrTx, debits: BookedDebit[], at: string): Promise<string[]> {
  const withE2e = debits.filter((d) => d.direction === "debit" && d.endToEndId);
  if (withE2e.length === 0) return [];
  const companyIds = [...new Set(withE2e.map((d) => d.companyId))];
  const candidates = await tx
    .select({ ins: paymentInstructions, batchStatus: paymentBatches.status })
    .from(paymentInstructions)
    .innerJoin(paymentBatches, eq(paymentBatches.id, paymentInstructions.batchId))
    .where(
      and(
        inArray(paymentInstructions.companyId, companyIds),
        inArray(paymentInstructions.endToEndId, [...new Set(withE2e.map((d) => d.endToEndId ?? ""))]),
        inArray(paymentInstructions.status, ["pending", "accepted"]),
        inArray(paymentBatches.status, ["approved", "processing"]),
      ),
    )
    .orderBy(asc(paymentInstructions.createdAt));
  const first: StatusChange[] = [];
  const second: StatusChange[] = [];
  const used = new Set<string>();
  for (const d of withE2e) {
    const hit = candidates.find(
      (c) =>
        !used.has(c.ins.id) &&
        c.ins.companyId === d.companyId &&
        c.ins.endToEndId === d.endToEndId &&
        c.ins.currency === d.currency &&
        new Decimal(c.ins.amount).eq(d.amount),
    );
    if (!hit) continue;
    used.add(hit.ins.id);
    if (hit.ins.status === "pending") {
      first.push({ instruction: hit.ins, status: "accepted" });
      second.push({ instruction: hit.ins, status: "settled", transactionId: d.id });
    } else first.push({ instruction: hit.ins, status: "settled", transactionId: d.id });
  }
  if (used.size === 0) return [];
  await applyStatusChanges(tx, first, at);
  const later = new Date(new Date(at).getTime() + 1).toISOString();
  if (second.length > 0) await applyStatusChanges(tx, second, later);
  const batchIds = [...new Set(candidates.filter((c) => used.has(c.ins.id)).map((c) => c.ins.batchId))];
  for (const id of batchIds) await followBatch(tx, id, later);
  return [...used];
}

/**
 * Moves a sent batch after its instructions: approved → processing once any instruction left pending; processing →
 * completed / partially_completed / failed once every instruction is settled, rejected or cancelled.
 * @returns the batch status after
 */
export async function followBatch(tx: DbOrTx, batchId: string, at: string): Promise<string> {
  const [batch] = await tx.select().from(paymentBatches).where(eq(paymentBatches.id, batchId)).for("update");
  if (!batch) return "missing";
  const statuses = (
    await tx
      .select({ status: paymentInstructions.status })
      .from(paymentInstructions)
      .where(eq(paymentInstructions.batchId, batchId))
  ).map((r) => r.status);
  let status = batch.status;
  if (status === "approved" && statuses.some((s) => s !== "pending"))
    status = transition(BATCH_MACHINE, status, "take");
  if (status === "processing" && statuses.every((s) => ["settled", "rejected", "cancelled"].includes(s)))
    status = transition(BATCH_MACHINE, status, "settle", settledBatchStatus(statuses as InstructionStatus[]));
  if (status !== batch.status)
    await tx
      .update(paymentBatches)
      .set({
        status,
        updatedAt: at,
        ...(BATCH_MACHINE.terminal.includes(status as never) ? { bankNextStepAt: null } : {}),
      })
      .where(eq(paymentBatches.id, batchId));
  return status;
}
