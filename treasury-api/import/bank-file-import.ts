/**
 * One call for every bank file in (docs/bank-files.md "Command line" and "pain.002 status reports"): statements
 * (camt.052/053/054, MT940, MT942, BAI2) and pain.002 status reports, detected per file by content. `POST /statements`
 * and `import-statements` both use it, so the two answer the same way.
 *
 * Every file is parsed first (a bad one stores nothing); then the status reports and the statements are applied
 * in ONE database transaction (the statements in a savepoint of it). A dry run does all of that and rolls back.
 */
import type { Db } from "../db/client";
import { parseBankFile } from "./bank-files";
import { importParsed, importStatements, inRolledBackTransaction, type ImportFileSummary } from "./camt053-import";
import { decodeBankFile, looksLikeXml } from "./charset";
import { applyPain002, isPain002, parsePain002, type Pain002Result } from "./pain002";

/** What one file did: a statement file's summary, or a status report's changes. */
export type BankFileResult =
  { kind: "statements"; summary: ImportFileSummary } | { kind: "pain.002"; report: Pain002Result };

export interface BankFileImportOptions {
  companyId: string;
  /** Each file's bytes (or text); the format and character set are detected per file. */
  files: { name: string; content: string | Uint8Array }[];
  /** Import statements whose balances do not add up, flagged partial on coverage, instead of refusing the file. */
  acceptInconsistent?: boolean;
  /** Parse, check and apply in a transaction that is rolled back: nothing is stored, the changes are reported. */
  dryRun?: boolean;
}

/**
 * Imports statement files and pain.002 status reports for one company, in file order in the result.
 * @returns one result per file, in the order given; in a dry run, statement `newEntries` are 0 and the pain.002
 *   `changes` are those the report would make
 * @throws CamtImportError / HostileXmlError (400) for a malformed, hostile or refused file (nothing stored);
 *   ApiError not_found for an unknown company
 */
export async function importBankFiles(db: Db, opts: BankFileImportOptions): Promise<BankFileResult[]> {
  const acceptInconsistent = opts.acceptInconsistent === true;
  // Only whether each file is a status report is kept, not its decoded text: four 24 MB statements would otherwise
  // stay in memory as strings for the whole import (docs/bank-files.md "Memory"). A status report is decoded again
  // below (they are small).
  const textOf = (f: BankFileImportOptions["files"][number]) =>
    typeof f.content === "string" || looksLikeXml(f.content) ? decodeBankFile(f.content, f.name).text : null;
  const isReport = opts.files.map((f) => {
    const text = textOf(f);
    return text !== null && isPain002(text);
  });
  if (!isReport.includes(true)) {
    const summary = await importStatements(db, { ...opts, acceptInconsistent, dryRun: opts.dryRun === true });
    return summary.files.map((s) => ({ kind: "statements", summary: s }));
  }
  const parsed = opts.files.map((f, i) =>
    isReport[i] === true
      ? { kind: "pain" as const, report: parsePain002(textOf(f) ?? "", f.name) }
      : { kind: "statements" as const, file: parseBankFile(f.content, f.name, { acceptInconsistent }) },
  );
  const apply = async (tx: Db): Promise<BankFileResult[]> => {
    const reports = new Map<number, Pain002Result>();
    for (const [i, p] of parsed.entries())
      if (p.kind === "pain") reports.set(i, await applyPain002(tx, opts.companyId, p.report));
    const statements = parsed.flatMap((p) => (p.kind === "statements" ? [p.file] : []));
    // importParsed opens its own transaction: on a transaction that is a savepoint of this one.
    const summary = statements.length > 0 ? await importParsed(tx, opts.companyId, statements) : null;
    const files = [...(summary?.files ?? [])];
    return parsed.map((p, i): BankFileResult => {
      if (p.kind === "pain") return { kind: "pain.002", report: reports.get(i) as Pain002Result };
      return { kind: "statements", summary: files.shift() as ImportFileSummary };
    });
  };
  if (opts.dryRun !== true) return db.transaction((tx) => apply(tx as unknown as Db));
  const results = await inRolledBackTransaction(db, (tx) => apply(tx as unknown as Db));
  // Everything was checked against the database, then rolled back: nothing is new.
  for (const r of results) if (r.kind === "statements") for (const s of r.summary.statementFigures) s.newEntries = 0;
  return results;
}
