/**
 * Statement import handler (extension): `POST /statements` runs the importer
 * of treasury-api/import on the uploaded files and answers with the per-file
 * summary of packages/contract/src/statements.ts.
 */
import type { StatementFileSummary, StatementImportResult } from "@treasury/contract/statements";
import { STATEMENT_MAX_FILE_BYTES } from "@treasury/contract/statements";
import { emptyFileSummary, type ImportFileSummary } from "../../import/camt053-import";
import { importBankFiles, type BankFileImportOptions } from "../../import/bank-file-import";
import type { Pain002Result } from "../../import/pain002";
import type { AppRouteHandler } from "../../lib/context";
import { ApiError, fieldError } from "../../lib/errors";
import { importStatementsRoute } from "./statements.routes";

/** The importer's summary of one file in the contract's shape. */
export function toFileSummary(f: ImportFileSummary): StatementFileSummary {
  return {
    file: f.file,
    message_type: f.format === "mt940" || f.format === "mt942" || f.format === "bai2" ? f.format : f.messageType,
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
  const files: BankFileImportOptions["files"] = [];
  for (const [i, f] of uploads.entries()) {
    const name = f.name || `file-${i + 1}`;
    if (f.size > STATEMENT_MAX_FILE_BYTES)
      throw new ApiError("payload_too_large", `${name} is larger than ${STATEMENT_MAX_FILE_BYTES} bytes`, {
        file: name,
      });
    // Bytes, not text: the importer detects the character set (docs/bank-files.md "Character sets"). Each `File` is
    // a temporary file the idempotency middleware streamed the upload into, read from disk when the file's turn
    // comes, so that only that file's copy is in memory (docs/bank-files.md "Speed and memory").
    files.push({ name, content: async () => new Uint8Array(await f.arrayBuffer()) });
  }
  const acceptInconsistent = c.req.valid("query").accept_inconsistent === "true";
  // pain.002 status reports are detected by content and applied in the same transaction as the statements.
  const results = await importBankFiles(c.get("db"), { companyId, files, acceptInconsistent });
  const body: StatementImportResult = {
    company_id: companyId,
    files: results.map((r) => (r.kind === "pain.002" ? statusReportSummary(r.report) : toFileSummary(r.summary))),
  };
  return c.json(body, 200);
};

/** The summary row of a pain.002 file: zero statement counts and the status report. */
export function statusReportSummary(r: Pain002Result): StatementFileSummary {
  return {
    ...toFileSummary(emptyFileSummary(r.file)),
    message_type: "pain.002",
    version: r.version,
    status_report: {
      message_id: r.message_id,
      original_message_id: r.original_message_id,
      batch_id: r.batch_id,
      batch_status_from: r.batch_status_from,
      batch_status_to: r.batch_status_to,
      changes: r.changes,
      ignored: r.ignored,
    },
  };
}
