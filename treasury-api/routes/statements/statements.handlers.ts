/**
 * Statement import handler (extension): `POST /statements` runs the importer
 * of treasury-api/import on the uploaded files and answers with the per-file
 * summary of packages/contract/src/statements.ts.
 */
import type { StatementFileSummary, StatementImportResult } from "@treasury/contract/statements";
import { STATEMENT_MAX_FILE_BYTES } from "@treasury/contract/statements";
import { emptyFileSummary, importParsed, importStatements, type ImportFileSummary } from "../../import/camt053-import";
import { parseBankFile } from "../../import/bank-files";
import { decodeBankFile, looksLikeXml } from "../../import/charset";
import { applyPain002, isPain002, parsePain002, type Pain002Result } from "../../import/pain002";
import type { Db } from "../../db/client";
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
  const files: { name: string; content: Uint8Array }[] = [];
  for (const [i, f] of uploads.entries()) {
    const name = f.name || `file-${i + 1}`;
    if (f.size > STATEMENT_MAX_FILE_BYTES)
      throw new ApiError("payload_too_large", `${name} is larger than ${STATEMENT_MAX_FILE_BYTES} bytes`, {
        file: name,
      });
    // Bytes, not text: the importer detects the character set (docs/bank-files.md "Character sets").
    files.push({ name, content: new Uint8Array(await f.arrayBuffer()) });
  }
  const acceptInconsistent = c.req.valid("query").accept_inconsistent === "true";
  // pain.002 status reports are detected by content and applied in the same transaction as the statements.
  const texts = files.map((f) => (looksLikeXml(f.content) ? decodeBankFile(f.content, f.name).text : null));
  if (!texts.some((t) => t !== null && isPain002(t))) {
    const summary = await importStatements(c.get("db"), { companyId, files, acceptInconsistent });
    const body: StatementImportResult = { company_id: summary.companyId, files: summary.files.map(toFileSummary) };
    return c.json(body, 200);
  }
  const body = await importWithStatusReports(c.get("db"), companyId, files, texts, acceptInconsistent);
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

/**
 * A request holding pain.002 files (and maybe statements): every file is parsed first (a bad one stores nothing),
 * then the status reports and the statements are applied in one transaction (the statements in a savepoint of it).
 */
export async function importWithStatusReports(
  db: Db,
  companyId: string,
  files: { name: string; content: Uint8Array }[],
  texts: (string | null)[],
  acceptInconsistent: boolean,
): Promise<StatementImportResult> {
  const parsed = files.map((f, i) => {
    const text = texts[i] ?? null;
    return text !== null && isPain002(text)
      ? { kind: "pain" as const, report: parsePain002(text, f.name) }
      : { kind: "camt" as const, file: parseBankFile(f.content, f.name, { acceptInconsistent }) };
  });
  return db.transaction(async (tx) => {
    const reports = new Map<number, StatementFileSummary>();
    for (const [i, p] of parsed.entries())
      if (p.kind === "pain") reports.set(i, statusReportSummary(await applyPain002(tx, companyId, p.report)));
    const statements = parsed.flatMap((p) => (p.kind === "camt" ? [p.file] : []));
    // importParsed opens its own transaction: on a transaction that is a savepoint of this one.
    const summary = statements.length > 0 ? await importParsed(tx as unknown as Db, companyId, statements) : null;
    const camt = (summary?.files ?? []).map(toFileSummary);
    return {
      company_id: companyId,
      files: parsed.map((p, i) => (p.kind === "pain" ? reports.get(i) : camt.shift()) as StatementFileSummary),
    };
  });
}
