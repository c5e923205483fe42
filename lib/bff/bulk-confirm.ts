/**
 * Bulk confirmation of proposed reconciliation matches: one request, one upstream confirm per match, one audit
 * entry per confirmed match, and a result per match (a refusal of one does not stop the others, nor is it hidden).
 */
import "server-only";
import { z } from "zod";
import { Uuid } from "@treasury/contract";
import { appendAudit } from "../db/audit";
import { dashboardDb } from "../server/db";
import { AUDIT_ACTION } from "../audit-actions";
import { toBffError } from "./errors";
import { derivedIdempotencyKey } from "./idempotency";
import type { RouteContext } from "./route";
import { decideMatch } from "./queries/reconciliation";

/** Most matches one request confirms. */
export const MAX_BULK_CONFIRM = 100;

/** Body: the match ids (1–100, distinct UUIDs) and, optionally, the company they belong to. */
export const BulkConfirmBody = z
  .object({
    ids: z
      .array(Uuid)
      .min(1, { message: "must name at least one match" })
      .max(MAX_BULK_CONFIRM, { message: `must name at most ${MAX_BULK_CONFIRM} matches` })
      .refine((ids) => new Set(ids).size === ids.length, { message: "must not name a match twice" }),
  })
  .strict();

/** One match's outcome: confirmed, or refused with the error code and message the single confirm would give. */
export type BulkConfirmResult =
  | { id: string; status: "confirmed"; company_id: string | null }
  | { id: string; status: "refused"; error: string; message: string; http_status: number };

/**
 * Confirms each match in turn (the ids' order). Each upstream call carries its own Idempotency-Key derived from the
 * request's and the match id, so a retried bulk request confirms nothing twice and replays are logged as such.
 * @returns the results and their counts
 */
export async function bulkConfirm(
  ctx: RouteContext<unknown, { company_id?: string }, z.output<typeof BulkConfirmBody>>,
): Promise<{ results: BulkConfirmResult[]; confirmed: number; refused: number }> {
  return confirmEach(ctx, ctx.body.ids, () => null, { bulk: true });
}

/**
 * The loop behind the bulk routes (docs/architecture.md#audit-log): for each of `ids` in order, `refuse(id)` may
 * answer a refusal without calling the API (e.g. no longer an exact match); otherwise the match is confirmed upstream
 * under a key derived from the request's Idempotency-Key and the id, and one audit entry (`details`, outcome
 * `success` or `replayed`) is appended. A 4xx / 502 / 503 of one match is that match's refusal; other failures throw.
 */
export async function confirmEach(
  ctx: RouteContext<unknown, { company_id?: string }, unknown>,
  ids: readonly string[],
  refuse: (id: string) => BulkConfirmResult | null,
  details: Record<string, unknown>,
): Promise<{ results: BulkConfirmResult[]; confirmed: number; refused: number }> {
  const results: BulkConfirmResult[] = [];
  const db = await dashboardDb();
  for (const id of ids) {
    const refusal = refuse(id);
    if (refusal) {
      results.push(refusal);
      continue;
    }
    const outcome: { replayed?: boolean } = {};
    // A UUID like the single route's key: derived from the request's key and the match, stable across retries.
    const key = derivedIdempotencyKey(id, ctx.write.idempotencyKey);
    try {
      const r = await decideMatch(
        { ...ctx, upstream: outcome, write: { ...ctx.write, idempotencyKey: key, outcome } },
        id,
        "confirm",
        undefined,
        ctx.query.company_id,
      );
      await appendAudit(db, {
        userId: ctx.user.id,
        userEmail: ctx.user.email,
        action: AUDIT_ACTION.matchConfirm,
        objectType: "reconciliation_match",
        objectId: id,
        companyId: r.companyId ?? null,
        idempotencyKey: key,
        outcome: outcome.replayed ? "replayed" : "success",
        requestId: ctx.requestId,
        details,
      });
      results.push({ id, status: "confirmed", company_id: r.companyId ?? null });
    } catch (err) {
      const e = toBffError(err, ctx.requestId);
      if (e.status >= 500 && e.status !== 502 && e.status !== 503) throw err;
      results.push({ id, status: "refused", error: e.body.error, message: e.body.message, http_status: e.status });
    }
  }
  const confirmed = results.filter((r) => r.status === "confirmed").length;
  return { results, confirmed, refused: results.length - confirmed };
}
