/**
 * Command line of the statement import:
 * `npm run treasury-api -- import-statements --company ID FILE...` (alias
 * `import-camt053`). The server's CLI opens the database and hands over the
 * arguments after the command name; this module checks them, reads the files
 * (camt.052 / camt.053 / camt.054, detected per file), runs
 * `importStatements` and prints a summary table, plus a line on pending entries.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { Uuid } from "@treasury/contract/common";
import type { Db } from "../db/client";
import { ApiError } from "../lib/errors";
import { emptyFileSummary, importStatements, type ImportFileSummary, type ImportSummary } from "./camt053-import";

/** Where the CLI writes; tests pass their own. */
export interface CliOutput {
  out(text: string): void;
  err(text: string): void;
}

const USAGE = "usage: import-statements --company COMPANY_ID FILE [FILE...]   (alias: import-camt053)";
const NAME = "import-statements";

const processOutput: CliOutput = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};

/**
 * Runs the import command.
 * @param args the arguments after `import-camt053`: `--company ID` (or `--company=ID`) and one or more file paths
 * @returns the process exit code: 0 imported, 1 the import failed (nothing was
 *   stored), 2 bad arguments or an unreadable file
 */
export async function runImportCli(db: Db, args: string[], io: CliOutput = processOutput): Promise<number> {
  const parsed = parseArgs(args);
  if ("help" in parsed) {
    io.out(
      `${USAGE}\nImports ISO 20022 camt.052 intraday reports, camt.053 statements and camt.054 notifications ` +
        `(001.02-001.12) ` +
        "for one company, all files in one transaction.\n",
    );
    return 0;
  }
  if ("error" in parsed) {
    io.err(`${NAME}: ${parsed.error}\n${USAGE}\n`);
    return 2;
  }
  const files: { name: string; content: string }[] = [];
  for (const file of parsed.files) {
    try {
      files.push({ name: path.basename(file), content: await readFile(file, "utf8") });
    } catch (e) {
      const reason = e instanceof Error && "code" in e ? String(e.code) : "unreadable";
      io.err(`${NAME}: cannot read file ${file} (${reason})\n`);
      return 2;
    }
  }
  try {
    const summary = await importStatements(db, { companyId: parsed.companyId, files });
    io.out(formatSummary(summary));
    return 0;
  } catch (e) {
    if (e instanceof ApiError) {
      io.err(`${NAME}: ${e.message}\nNothing was imported.\n`);
      return 1;
    }
    throw e;
  }
}

type ParsedArgs = { companyId: string; files: string[] } | { error: string } | { help: true };

function parseArgs(args: string[]): ParsedArgs {
  let companyId: string | undefined;
  const files: string[] = [];
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
    } else if (a.startsWith("--")) {
      return { error: `unknown option ${a}` };
    } else {
      files.push(a);
    }
  }
  if (companyId === undefined) return { error: "missing argument --company COMPANY_ID" };
  if (!Uuid.safeParse(companyId).success) return { error: `--company must be a UUID, got "${companyId}"` };
  if (files.length === 0)
    return { error: "missing argument FILE: name at least one camt.052, camt.053 or camt.054 file" };
  return { companyId, files };
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
  const types = summary.files.map((f) => `${f.file}: ${f.version ?? f.messageType}`).join(", ");
  return (
    `statement import for company ${summary.companyId} (${types})\n` +
    `${[line(COLUMNS.map((c) => c.title)), rule, ...body, rule, totalLine].join("\n")}\n${notes.join("\n")}\n`
  );
}
