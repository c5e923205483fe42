/**
 * The approval policy of a payment batch (lib/policies): decided once, at submission, from the rules, the FX rates
 * of the batch's creation date and the batch's risk signals, and stored with the batch; read by the approval queue,
 * the batch page and the approve route. A batch submitted before policies existed (or whose policy could not be
 * stored at submission) gets its policy decided at the first read and stored then.
 */
import "server-only";
import type { PaymentBatch } from "@treasury/contract";
import { loadFxRates } from "../../fx/convert";
import { evaluatePolicy } from "../../policies/evaluate";
import {
  getBatchPolicy,
  listGroups,
  listRules,
  storeBatchPolicy,
  toPolicyRule,
  type BatchPolicy,
} from "../../policies/store";
import { dashboardDb } from "../../server/db";
import { treasury } from "../../server/treasury";
import type { BffContext } from "../context";
import { batchRisk } from "./risk";

/**
 * Decides and stores the policy of `batch` (the stored one wins when it exists: a retried submission changes
 * nothing).
 * @param signals the batch's risk signal codes; read from the risk signals when omitted
 */
export async function decideAndStorePolicy(
  ctx: BffContext,
  batch: PaymentBatch,
  signals?: readonly string[],
): Promise<BatchPolicy> {
  const db = await dashboardDb();
  const existing = await getBatchPolicy(db, batch.id);
  if (existing) return existing;
  const [rules, groups] = await Promise.all([listRules(db), listGroups(db)]);
  const createdDate = batch.created_at.slice(0, 10);
  const currencies = [batch.currency, ...rules.map((r) => r.amount_currency).filter((c): c is string => !!c)];
  const fx = await loadFxRates(db, { currencies, from: createdDate, to: createdDate });
  const codes =
    signals ?? (await batchRisk(ctx, batch.id, batch.company_id, { fresh: true })).signals.map((s) => s.code);
  const decision = evaluatePolicy(
    rules.map(toPolicyRule),
    { companyId: batch.company_id, currency: batch.currency, totalAmount: batch.total_amount, createdDate },
    fx,
    codes,
    new Map(groups.map((g) => [g.id, g.name])),
  );
  return storeBatchPolicy(db, batch.id, batch.company_id, decision, {
    currency: batch.currency,
    total_amount: batch.total_amount,
    created_date: createdDate,
    // The API's four-eyes compares approvers with it; held approvals never reach the API, so the dashboard does too.
    initiator: batch.initiator ?? null,
    signals: [...new Set(codes)],
  });
}

/**
 * The stored policy of batch `batchId` in `companyId`, decided now when there is none yet.
 * @param known the batch and its risk signal codes when the caller has them (an approval): nothing is read again
 */
export async function policyOfBatch(
  ctx: BffContext,
  batchId: string,
  companyId: string,
  known?: { batch: PaymentBatch; signals: readonly string[] },
): Promise<BatchPolicy> {
  const stored = await getBatchPolicy(await dashboardDb(), batchId);
  if (stored) return stored;
  if (known) return decideAndStorePolicy(ctx, known.batch, known.signals);
  const batch = await treasury().getBatch({ requestId: ctx.requestId, companyId }, batchId);
  return decideAndStorePolicy(ctx, batch);
}
