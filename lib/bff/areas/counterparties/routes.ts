/**
 * The counterparties area's BFF routes (docs/architecture.md#the-bff-declared-per-area), declared against
 * ./endpoints.ts: the selected company's payees, their changes (maker-checker and passkey step-up for a decision),
 * their history and the CSV import.
 */
import "server-only";
import { counterpartyDecisionRoute } from "@/lib/bff/decision-routes";
import { BffError } from "@/lib/bff/errors";
import {
  changeCounterparty,
  counterpartyDetail,
  CounterpartyImportBody,
  CounterpartyListQuery,
  createCounterpartyView,
  importCounterpartiesView,
  JsonObject,
  listCounterpartyViews,
  MAX_IMPORT_BODY_BYTES,
} from "@/lib/bff/queries/counterparties";
import { declareRoute, defineRoutes, IdParams } from "@/lib/bff/route";
import type { Endpoint } from "@/lib/bff/endpoint";
import { counterpartiesEndpoints } from "./endpoints";

/**
 * A counterparty change that the `counterparties.manage` permission allows (`change`: new bank details, or disabling
 * it), applied with the write's request id and Idempotency-Key; 409 on a stale `expectedVersion` or a state that does
 * not allow it (lib/bff/queries/counterparties.ts `changeCounterparty`).
 */
function manageChangeRoute<E extends Endpoint>(endpoint: E, change: "bank_details" | "disable") {
  return declareRoute(endpoint, { permission: "counterparties.manage", params: IdParams, body: JsonObject }, (ctx) =>
    changeCounterparty(ctx, ctx.params.id, change, ctx.body, {
      requestId: ctx.requestId,
      idempotencyKey: ctx.write.idempotencyKey,
    }),
  );
}

export const counterpartiesRoutes = defineRoutes(counterpartiesEndpoints, {
  /**
   * GET /api/counterparties — the selected company's counterparties (payees), by name.
   * Query: `search` (part of the name or IBAN), `status`, `limit` (1..500, default 200).
   */
  list: declareRoute(
    counterpartiesEndpoints.list,
    { permission: "counterparties.read", query: CounterpartyListQuery },
    (ctx) => listCounterpartyViews(ctx, ctx.query),
  ),

  /**
   * POST /api/counterparties — 201: a new counterparty in `pending_verification`
   * (name, iban, bic?, country?, lei?, orgnr?, defaultRemittance?). A second
   * person verifies it. 400 naming the field, 409 when the IBAN is live already.
   * The audit entry is written with the row (same transaction).
   */
  create: declareRoute(
    counterpartiesEndpoints.create,
    { permission: "counterparties.manage", body: JsonObject, status: 201 },
    (ctx) =>
      createCounterpartyView(ctx, ctx.body, { requestId: ctx.requestId, idempotencyKey: ctx.write.idempotencyKey }),
  ),

  /** GET /api/counterparties/{id} — one counterparty of the selected company with its history (oldest first). */
  get: declareRoute(counterpartiesEndpoints.get, { permission: "counterparties.read", params: IdParams }, (ctx) =>
    counterpartyDetail(ctx, ctx.params.id),
  ),

  /**
   * GET /api/counterparties/{id}/history — `{ items }`: every change (old → new IBAN / BIC / status, who, when,
   * why).
   */
  history: declareRoute(
    counterpartiesEndpoints.history,
    { permission: "counterparties.read", params: IdParams },
    async (ctx) => ({
      items: (await counterpartyDetail(ctx, ctx.params.id)).history,
    }),
  ),

  /**
   * POST /api/counterparties/{id}/bank-details — new IBAN and / or BIC (`iban`, `bic`, `reason`,
   * `expectedVersion`). The counterparty goes back to `pending_verification`;
   * the history keeps the old and new details; the person who changed them
   * cannot verify the change.
   * 409 on a stale `expectedVersion` or a state that does not allow it; the
   * audit entry is written with the change (same transaction).
   */
  bankDetails: manageChangeRoute(counterpartiesEndpoints.bankDetails, "bank_details"),

  /**
   * POST /api/counterparties/{id}/disable — `reason`, `expectedVersion`. Takes
   * the payee out of use (final); needs no second person.
   * 409 on a stale `expectedVersion` or a state that does not allow it; the
   * audit entry is written with the change (same transaction).
   */
  disable: manageChangeRoute(counterpartiesEndpoints.disable, "disable"),

  /** POST /api/counterparties/{id}/verify — maker-checker and passkey step-up; see `counterpartyDecisionRoute`. */
  verify: counterpartyDecisionRoute(counterpartiesEndpoints.verify, "verify"),

  /** POST /api/counterparties/{id}/reject — the same maker-checker rule as verify; see `counterpartyDecisionRoute`. */
  reject: counterpartyDecisionRoute(counterpartiesEndpoints.reject, "reject"),

  /**
   * POST /api/counterparties/import — `{ csv, dryRun? }`: a CSV file of payees
   * for the selected company. Every line becomes a counterparty in
   * `pending_verification`, or nothing is stored when the file or any line is
   * wrong.
   * - `dryRun: true`: 200 with the report (`ok`, `fileErrors`, per-line
   *   `errors` naming line and column, `preview`), nothing written;
   * - else 201 with the report and `created`, or 400 `validation_error` whose
   *   message names the first problem and whose details carry the full report.
   */
  import: declareRoute(
    counterpartiesEndpoints.import,
    { permission: "counterparties.manage", body: CounterpartyImportBody, maxBody: MAX_IMPORT_BODY_BYTES },
    async (ctx) => {
      const report = await importCounterpartiesView(ctx, ctx.body, {
        requestId: ctx.requestId,
        idempotencyKey: ctx.write.idempotencyKey,
      });
      if (report.dryRun) return report;
      if (!report.ok) {
        const first = report.errors[0];
        const message =
          report.fileErrors[0] ??
          (first
            ? `line ${first.line}${first.field ? ` ${first.field}` : ""}: ${first.message}`
            : "The file is invalid");
        throw new BffError("validation_error", `Nothing was imported. ${message}`, {
          fileErrors: report.fileErrors,
          errors: report.errors,
        });
      }
      return Response.json(report, { status: 201, headers: { "Cache-Control": "no-store" } });
    },
  ),
});
