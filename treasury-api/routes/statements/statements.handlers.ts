/**
 * Statement import handler (extension): `POST /statements` runs the importer
 * of treasury-api/import on the uploaded files and answers with the per-file
 * summary of packages/contract/src/statements.ts.
 */
import type { StatementFileSummary, StatementImportResult } from "@treasury/contract/statements";
import { STATEMENT_MAX_FILE_BYTES } from "@treasury/contract/statements";
import { importStatements, type ImportFileSummary } from "../../import/camt053-import";
import type { AppRouteHandler } from "../../lib/context";
import { ApiError, fieldError } from "../../lib/errors";
import { importStatementsRoute } from "./statements.routes";

/** The importer's summary of one file in the contract's shape. */
export function toFileSummary(f: ImportFileSummary): StatementFileSummary {
  return {
    file: f.file,
    message_type: f.messageType,
    version: f.version,
    statements: f.statements,
    account_refs: f.accountRefs,
    accounts_matched: f.accountsMatched,
    accounts_created: f.accountsCreated,
    entries: f.entries,
    transactions_inserted: f.transactionsInserted,
    pending: f.pending,
    pending_replaced: f.pendingReplaced,
    duplicates: f.duplicatesSkipped,
    entries_skipped: f.entriesSkipped,
    balances: f.balancesUpserted,
    intraday_points: f.intradayPoints,
    coverage_days: f.coverageDays,
    skipped_codes: f.skippedBalanceCodes,
  };
}

export const importStatementFiles: AppRouteHandler<typeof importStatementsRoute> = async (c) => {
  const companyId = c.get("companyId");
  if (companyId === null) throw fieldError("X-Company-ID", "is required: statements are imported for one company");
  const field = c.req.valid("form").files;
  const uploads = Array.isArray(field) ? field : [field];
  if (uploads.length === 0) throw fieldError("files", "must hold at least one file");
  const files: { name: string; content: string }[] = [];
  for (const [i, f] of uploads.entries()) {
    const name = f.name || `file-${i + 1}`;
    if (f.size > STATEMENT_MAX_FILE_BYTES)
      throw new ApiError("payload_too_large", `${name} is larger than ${STATEMENT_MAX_FILE_BYTES} bytes`, {
        file: name,
      });
    files.push({ name, content: await f.text() });
  }
  const summary = await importStatements(c.get("db"), { companyId, files });
  const body: StatementImportResult = { company_id: summary.companyId, files: summary.files.map(toFileSummary) };
  return c.json(body, 200);
};
