/**
 * Command line of the statement import (docs/bank-files.md "Command line"):
 * `npm run treasury-api -- import-statements --data DIR --company ID [--dry-run] [--json]
 * [--accept-inconsistent] FILE...` (alias `import-camt053`). The server's CLI opens the database (`--data`, or
 * DATABASE_URL) and hands over the other arguments; this module checks them, reads the files as bytes (format and
 * character set detected per file by content: camt.052/053/054, MT940, MT942, BAI2), runs `importStatements` and
 * prints a summary table, or with `--json` one JSON document. Exit 0 imported (or checked, in a dry run), 1 refused
 * (nothing stored), 2 bad arguments or an unreadable file.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { Uuid } from "@treasury/contract/common";
import type { Db } from "../db/client";
import { ApiError } from "../lib/errors";
import { importBankFiles, type BankFileResult } from "./bank-file-import";
import { emptyFileSummary, type ImportFileSummary, type ImportSummary } from "./camt053-import";
import type { Pain002Result } from "./pain002";

/** Where the CLI writes; tests pass their own. */
export interface CliOutput {
  out(text: string): void;
  err(text: string): void;
}

const USAGE =
  "usage: import-statements --company COMPANY_ID FILE [FILE...] [--dry-run] [--json] [--accept-inconsistent]   " +
  "(alias: import-camt053; the server CLI also takes --data DIR)";
const NAME = "import-statements";

const processOutput: CliOutput = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};

/** One statement of the `--json` document. */
export interface JsonStatement {
  account: string;
  currency: string | null;
  from: string | null;
  to: string | null;
  opening_booked: string | null;
  closing_booked: string | null;
  entries: number;
  credits: string;
  debits: string;
  new_entries: number;
}

/** One file of the `--json` document; status reports (pain.002) list status changes instead of statements. */
export interface JsonFile {
  file: string;
  format: string;
  statements?: JsonStatement[];
  [more: string]: unknown;
}

/**
 * How a file appears in the `--json` document, per format. The default lists its statements; a format whose file
 * is not a statement (pain.002 status reports) registers its own entry here, keyed by its format prefix.
 */
export const JSON_BY_FORMAT: Record<string, (f: ImportFileSummary) => JsonFile> = {};

function jsonFile(f: ImportFileSummary): JsonFile {
  const custom = Object.entries(JSON_BY_FORMAT).find(([prefix]) => f.format.startsWith(prefix))?.[1];
  if (custom) return custom(f);
  return {
    file: f.file,
    format: f.format,
    statements: f.statementFigures.map((s) => ({
      account: s.account,
      currency: s.currency,
      from: s.from,
      to: s.to,
      opening_booked: s.openingBooked,
      closing_booked: s.closingBooked,
      entries: s.entries,
      credits: s.credits,
      debits: s.debits,
      new_entries: s.newEntries,
    })),
  };
}

/** One status change of a pain.002 file in the `--json` document (docs/bank-files.md "Command line"). */
export interface JsonStatusChange {
  end_to_end_id: string;
  instruction_id: string;
  /** The instruction's status before and after: pending, accepted, settled, rejected… */
  from: string;
  to: string;
  /** ISO 20022 reason code of a rejection (e.g. AC04), else null. */
  reason_code: string | null;
  /** The reason's text (the bank's AddtlInf, else the code's ISO name), else null. */
  reason: string | null;
}

/** A pain.002 file in the `--json` document: its status changes instead of statements. */
export function pain002JsonFile(r: Pain002Result): JsonFile {
  return {
    file: r.file,
    format: r.version ?? "pain.002",
    message_id: r.message_id,
    original_message_id: r.original_message_id,
    batch_id: r.batch_id,
    batch_status_from: r.batch_status_from,
    batch_status_to: r.batch_status_to,
    status_changes: r.changes.map((c): JsonStatusChange => ({
      end_to_end_id: c.end_to_end_id,
      instruction_id: c.instruction_id,
      from: c.from,
      to: c.to,
      reason_code: c.reason_code,
      reason: c.reason_text,
    })),
    ignored: r.ignored,
  };
}

/** The `--json` document of an import: statement files and pain.002 status reports, in the order given. */
export function toJsonDocument(summary: ImportSummary | BankFileResult[]): { files: JsonFile[] } {
  if (!Array.isArray(summary)) return { files: summary.files.map(jsonFile) };
  return { files: summary.map((r) => (r.kind === "pain.002" ? pain002JsonFile(r.report) : jsonFile(r.summary))) };
}

/** The status changes of the pain.002 files as text lines (the table covers the statement files). */
function formatStatusReports(results: BankFileResult[]): string {
  return results
    .flatMap((r) => {
      if (r.kind !== "pain.002") return [];
      const p = r.report;
      const head = `${p.file}: ${p.version ?? "pain.002"} for batch ${p.batch_id} (${p.batch_status_from} → ${p.batch_status_to}), ${p.changes.length} status changes`;
      const lines = p.changes.map(
        (c) =>
          `  ${c.end_to_end_id}: ${c.from} → ${c.to}` +
          (c.reason_code !== null ? ` (${c.reason_code}${c.reason_text ? `: ${c.reason_text}` : ""})` : ""),
      );
      return [head, ...lines];
    })
    .map((l) => `${l}\n`)
    .join("");
}

/**
 * Runs the import command.
 * @param args the arguments after `import-statements`: `--company ID` (or `--company=ID`), the flags
 *   `--dry-run`, `--json`, `--accept-inconsistent`, and one or more file paths
 * @returns the process exit code: 0 imported (a dry run: checked), 1 refused (nothing was stored), 2 bad arguments
 *   or an unreadable file
 */
export async function runImportCli(db: Db, args: string[], io: CliOutput = processOutput): Promise<number> {
  const parsed = parseArgs(args);
  if ("help" in parsed) {
    io.out(
      `${USAGE}\nImports camt.052 intraday reports, camt.053 statements and camt.054 notifications ` +
        "(001.02-001.12), MT940 statements, MT942 interim reports, BAI2 files and pain.002 status reports " +
        "for one company, all files in one transaction; the format is detected per file.\n" +
        "  --dry-run              parse and check everything, store nothing\n" +
        "  --json                 print one JSON document (files, statements, new_entries)\n" +
        "  --accept-inconsistent  import statements whose balances do not add up, flagged partial on coverage\n",
    );
    return 0;
  }
  if ("error" in parsed) {
    io.err(`${NAME}: ${parsed.error}\n${USAGE}\n`);
    return 2;
  }
  const files: { name: string; content: Uint8Array }[] = [];
  for (const file of parsed.files) {
    try {
      files.push({ name: path.basename(file), content: new Uint8Array(await readFile(file)) });
    } catch (e) {
      const reason = e instanceof Error && "code" in e ? String(e.code) : "unreadable";
      io.err(`${NAME}: cannot read file ${file} (${reason})\n`);
      return 2;
    }
  }
  try {
    const results = await importBankFiles(db, {
      companyId: parsed.companyId,
      files,
      dryRun: parsed.dryRun,
      acceptInconsistent: parsed.acceptInconsistent,
    });
    if (parsed.json) {
      io.out(`${JSON.stringify(toJsonDocument(results), null, 2)}\n`);
      return 0;
    }
    const statements = results.flatMap((r) => (r.kind === "statements" ? [r.summary] : []));
    const table = statements.length > 0 ? formatSummary({ companyId: parsed.companyId, files: statements }) : "";
    io.out(table + formatStatusReports(results) + (parsed.dryRun ? "Dry run: nothing was stored.\n" : ""));
    return 0;
  } catch (e) {
    if (e instanceof ApiError) {
      io.err(`${NAME}: ${e.message}\nNothing was imported.\n`);
      if (parsed.json)
        io.out(`${JSON.stringify({ error: e.code, message: e.message, details: e.details }, null, 2)}\n`);
      return 1;
    }
    throw e;
  }
}

interface CliArgs {
  companyId: string;
  files: string[];
  dryRun: boolean;
  json: boolean;
  acceptInconsistent: boolean;
}
type ParsedArgs = CliArgs | { error: string } | { help: true };

function parseArgs(args: string[]): ParsedArgs {
  let companyId: string | undefined;
  const files: string[] = [];
  const flags = { dryRun: false, json: false, acceptInconsistent: false };
  for (let i = 0; i < args.length; i += 1) {
    const a = args[i] ?? "";
    if (a === "--help" || a === "-h") return { help: true };
    if (a === "--company") {
      const value = args[i + 1];
      if (value === undefined || value.startsWith("--")) return { error: "missing the company id after --company" };
      companyId = value;
      i += 1;
    } else if (a.startsWith("--company=")) {
      companyId = a.slice("--company=".length);
    } else if (a === "--dry-run") flags.dryRun = true;
    else if (a === "--json") flags.json = true;
    else if (a === "--accept-inconsistent") flags.acceptInconsistent = true;
    else if (a.startsWith("--")) {
      return { error: `unknown option ${a}` };
    } else {
      files.push(a);
    }
  }
  if (companyId === undefined) return { error: "missing argument --company COMPANY_ID" };
  if (!Uuid.safeParse(companyId).success) return { error: `--company must be a UUID, got "${companyId}"` };
  if (files.length === 0) return { error: "missing argument FILE: name at least one camt, MT940, MT942 or BAI2 file" };
  return { companyId, files, ...flags };
}

const COLUMNS: { title: string; value: (f: ImportFileSummary) => string; left?: boolean }[] = [
  { title: "file", value: (f) => f.file, left: true },
  { title: "stmts", value: (f) => String(f.statements) },
  { title: "accts matched", value: (f) => String(f.accountsMatched) },
  { title: "accts created", value: (f) => String(f.accountsCreated) },
  { title: "tx inserted", value: (f) => String(f.transactionsInserted) },
  { title: "tx duplicate", value: (f) => String(f.duplicatesSkipped) },
  { title: "not booked", value: (f) => String(f.entriesNotBooked) },
  { title: "balances", value: (f) => String(f.balancesUpserted) },
  { title: "coverage days", value: (f) => String(f.coverageDays) },
  { title: "skipped balance codes", value: (f) => skippedText(f.skippedBalanceCodes), left: true },
];

function skippedText(codes: Record<string, number>): string {
  const parts = Object.entries(codes).map(([code, n]) => (n > 1 ? `${code}×${n}` : code));
  return parts.length > 0 ? parts.join(" ") : "-";
}

/** The summary as a plain-text table with a totals row. */
export function formatSummary(summary: ImportSummary): string {
  const total = emptyFileSummary("total");
  for (const f of summary.files) {
    total.statements += f.statements;
    total.accountsMatched += f.accountsMatched;
    total.accountsCreated += f.accountsCreated;
    total.transactionsInserted += f.transactionsInserted;
    total.duplicatesSkipped += f.duplicatesSkipped;
    total.entriesNotBooked += f.entriesNotBooked;
    total.pending += f.pending;
    total.pendingReplaced += f.pendingReplaced;
    total.intradayPoints += f.intradayPoints;
    total.balancesUpserted += f.balancesUpserted;
    total.coverageDays += f.coverageDays;
    for (const [code, n] of Object.entries(f.skippedBalanceCodes))
      total.skippedBalanceCodes[code] = (total.skippedBalanceCodes[code] ?? 0) + n;
  }
  const rows = [...summary.files, total].map((f) => COLUMNS.map((c) => c.value(f)));
  const widths = COLUMNS.map((c, i) => Math.max(c.title.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (COLUMNS[i]?.left ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  const rule = widths.map((w) => "-".repeat(w)).join("  ");
  const body = rows.map(line);
  const totalLine = body.pop() ?? "";
  const notes = [
    `${total.pending} entries stored as pending (not booked: no booking date or status PDNG, or from a camt.052 ` +
      `report)` +
      (total.pendingReplaced > 0 ? `; ${total.pendingReplaced} earlier pending entries replaced by their booking` : ""),
  ];
  if (total.intradayPoints > 0) notes.push(`${total.intradayPoints} intraday balance points from camt.052 reports`);
  const types = summary.files.map((f) => `${f.file}: ${f.format}`).join(", ");
  return (
    `statement import for company ${summary.companyId} (${types})\n` +
    `${[line(COLUMNS.map((c) => c.title)), rule, ...body, rule, totalLine].join("\n")}\n${notes.join("\n")}\n`
  );
}
