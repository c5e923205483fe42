import { withUser } from "@/lib/bff/route";
import { BffError } from "@/lib/bff/errors";
import {
  CounterpartyImportBody,
  MAX_IMPORT_BODY_BYTES,
  importCounterpartiesView,
} from "@/lib/bff/queries/counterparties";

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
export const POST = withUser(
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
        (first ? `line ${first.line}${first.field ? ` ${first.field}` : ""}: ${first.message}` : "The file is invalid");
      throw new BffError("validation_error", `Nothing was imported. ${message}`, {
        fileErrors: report.fileErrors,
        errors: report.errors,
      });
    }
    return Response.json(report, { status: 201, headers: { "Cache-Control": "no-store" } });
  },
);
