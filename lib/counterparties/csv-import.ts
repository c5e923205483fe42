/**
 * CSV import of counterparties: every good line becomes a counterparty in
 * `pending_verification` (a second person still verifies each one).
 *
 * All or nothing: when the file or any line is wrong, nothing is imported and
 * the report lists every problem by line number (the line in the file, header
 * = line 1) and field, so the person fixes the file and imports it again; a
 * half-imported file would be harder to repair than to redo. `dryRun` checks
 * everything (also against the company's existing counterparties) and shows
 * what would be imported without writing anything: the page shows that
 * preview first and imports on confirmation.
 *
 * Format: a header row, columns matched case-insensitively (spaces and dashes
 * read as `_`): `name`, `iban` (required), `bic`, `country`, `lei`, `orgnr`
 * (alias `org_number`, `organization_number`), `default_remittance` (alias
 * `remittance`). Separator detected (comma, semicolon, tab); blank lines are
 * skipped; a file given as bytes is decoded by ./csv-decode.ts (BOM, declared
 * encoding, UTF-8, else Windows-1252, which the report says was assumed), and
 * a line that cannot be decoded is an error naming it; an unknown column is an error (a misspelt `bic`
 * column would otherwise be dropped without a word). At most `MAX_IMPORT_LINES`.
 */
import "server-only";
import Papa from "papaparse";
import type { ZodError } from "zod";
import type { DashboardDb } from "../db/client";
import { counterparties } from "../db/schema";
import { and, eq, inArray } from "drizzle-orm";
import { BffError } from "../bff/errors";
import { can } from "../auth/roles";
import { AUDIT_ACTION } from "../audit-actions";
import { insertPending, type Actor, type AuditMeta, type Counterparty } from "./counterparties";
import { CounterpartyInput, type CounterpartyFields } from "./validation";
import { decodeCsvBytes, undecodableLines, type CsvEncoding, type DeclarableEncoding } from "./csv-decode";

export const MAX_IMPORT_LINES = 5_000;

const COLUMNS = ["name", "iban", "bic", "country", "lei", "orgnr", "default_remittance"] as const;
type Column = (typeof COLUMNS)[number];
const REQUIRED: readonly Column[] = ["name", "iban"];
const ALIASES: Record<string, Column> = {
  org_number: "orgnr",
  organization_number: "orgnr",
  organisation_number: "orgnr",
  remittance: "default_remittance",
};

/** One problem: the file line (header = 1), the field when one is to blame, and the message. */
export interface ImportError {
  line: number;
  field: Column | null;
  message: string;
}

export interface ImportReport {
  /** True when the file had no problem (and, unless `dryRun`, was imported). */
  ok: boolean;
  /** Problems of the file as a whole (empty file, header). */
  fileErrors: string[];
  /** Problems per line, in line order. */
  errors: ImportError[];
  /** The lines as they would be stored (valid ones only), with their line number. */
  preview: (CounterpartyFields & { line: number })[];
  /** The counterparties created (empty on `dryRun` or when not `ok`). */
  created: Counterparty[];
  /** How a file given as bytes was decoded (null for text). */
  encoding: CsvEncoding | null;
}

/** The file: its text (decoded already), or its bytes and the encoding the person declared, if any. */
export type ImportFile = string | { bytes: Uint8Array; encoding?: DeclarableEncoding };

function columnOf(header: string): string {
  const h = header
    .trim()
    .toLowerCase()
    .replaceAll(/[\s-]+/g, "_");
  return ALIASES[h] ?? h;
}

interface RawLine {
  line: number;
  data: Record<string, string>;
  parseErrors: string[];
}

function readCsv(text: string): { fields: string[]; lines: RawLine[] } {
  const body = text.replace(/^\uFEFF/, "");
  const lines: RawLine[] = [];
  let fields: string[] = [];
  const firstBreak = body.indexOf("\n");
  // Lines are counted up to a record's first character (papaparse's cursor is where the previous record ended).
  let pos = 0;
  let breaks = 0;
  const lineOf = (offset: number): number => {
    for (; pos < offset; pos++) if (body[pos] === "\n") breaks++;
    return breaks + 1;
  };
  let prev = firstBreak < 0 ? body.length : firstBreak + 1;
  Papa.parse<Record<string, string>>(body, {
    header: true,
    skipEmptyLines: "greedy",
    transformHeader: columnOf,
    step(r) {
      fields = r.meta.fields ?? fields;
      let start = prev;
      // Skip the blank lines (also lines of separators only) that papaparse skipped.
      for (;;) {
        const nl = body.indexOf("\n", start);
        if (nl < 0 || !/^[\s,;\t]*$/.test(body.slice(start, nl))) break;
        start = nl + 1;
      }
      lines.push({
        line: lineOf(start),
        data: r.data,
        parseErrors: r.errors.filter((e) => e.code !== "UndetectableDelimiter").map((e) => e.message),
      });
      prev = r.meta.cursor;
    },
  });
  if (lines.length === 0) {
    // No record, so no step call: read the header row on its own.
    const head = Papa.parse<string[]>(body, { preview: 1, skipEmptyLines: "greedy" }).data[0] ?? [];
    fields = head.map(columnOf).filter((f) => f !== "");
  }
  return { fields, lines };
}

/**
 * What is wrong with the file as a whole: a required column missing from the header, an unknown column, no line
 * below the header, more than `MAX_IMPORT_LINES` lines. Empty when the file may be read line by line.
 */
function fileErrorsOf(fields: readonly string[], lines: readonly RawLine[]): string[] {
  const errors: string[] = [];
  const missing = REQUIRED.filter((c) => !fields.includes(c));
  if (missing.length) errors.push(`The header row lacks ${missing.join(", ")}.`);
  const unknown = fields.filter((f) => !(COLUMNS as readonly string[]).includes(f));
  if (unknown.length) errors.push(`Unknown column(s) ${unknown.join(", ")}. Known columns: ${COLUMNS.join(", ")}.`);
  if (lines.length === 0) errors.push("The file holds no lines below the header.");
  if (lines.length > MAX_IMPORT_LINES)
    errors.push(`The file holds ${lines.length} lines; at most ${MAX_IMPORT_LINES} are imported at once.`);
  return errors;
}

/**
 * Checks each line against `CounterpartyInput`: a parse error, an invalid field (named by its column) or an IBAN
 * an earlier line already has goes to `report.errors`; a valid line to `report.preview` (with its line number).
 */
function checkLines(lines: readonly RawLine[], report: ImportReport): void {
  const seen = new Map<string, number>();
  for (const l of lines) {
    for (const message of l.parseErrors) report.errors.push({ line: l.line, field: null, message });
    if (l.parseErrors.length) continue;
    const r = CounterpartyInput.safeParse(
      Object.fromEntries(COLUMNS.map((c) => [c === "default_remittance" ? "defaultRemittance" : c, l.data[c] ?? ""])),
    );
    if (!r.success) {
      for (const issue of (r.error as ZodError).issues) {
        const key = String(issue.path[0] ?? "");
        const field = (key === "defaultRemittance" ? "default_remittance" : key) as Column;
        report.errors.push({ line: l.line, field: COLUMNS.includes(field) ? field : null, message: issue.message });
      }
      continue;
    }
    const earlier = seen.get(r.data.iban);
    if (earlier !== undefined) {
      report.errors.push({ line: l.line, field: "iban", message: `repeats the IBAN of line ${earlier}` });
      continue;
    }
    seen.set(r.data.iban, l.line);
    report.preview.push({ ...r.data, line: l.line });
  }
}

/**
 * Moves the preview lines whose IBAN is already pending or verified for `companyId` to `report.errors`, naming
 * the counterparty it belongs to.
 * @throws as the database read does.
 */
async function dropTakenIbans(db: DashboardDb, companyId: string, report: ImportReport): Promise<void> {
  if (!report.preview.length) return;
  const taken = await db
    .select({ iban: counterparties.iban, name: counterparties.name })
    .from(counterparties)
    .where(
      and(
        eq(counterparties.companyId, companyId),
        inArray(
          counterparties.iban,
          report.preview.map((p) => p.iban),
        ),
        inArray(counterparties.status, ["pending_verification", "verified"]),
      ),
    );
  const byIban = new Map(taken.map((t) => [t.iban, t.name]));
  for (const p of report.preview) {
    const name = byIban.get(p.iban);
    if (name !== undefined)
      report.errors.push({ line: p.line, field: "iban", message: `already belongs to the counterparty "${name}"` });
  }
  report.preview = report.preview.filter((p) => !byIban.has(p.iban));
}

/**
 * Checks (and unless `dryRun` imports) a CSV file of counterparties for `companyId`.
 * Lines whose IBAN is already pending or verified for the company, or repeats
 * an earlier line's IBAN, are errors.
 * @throws BffError permission_denied (role `counterparties.manage` or company); a bad file is a report, not a throw.
 */
export async function importCounterpartiesCsv(
  db: DashboardDb,
  actor: Actor,
  companyId: string,
  file: ImportFile,
  opts: { dryRun?: boolean } & AuditMeta = {},
): Promise<ImportReport> {
  if (!can(actor.roles, "counterparties.manage"))
    throw new BffError("permission_denied", "Your role does not allow this (needs counterparties.manage).");
  if (actor.companyIds !== null && !actor.companyIds.includes(companyId))
    throw new BffError("permission_denied", "You may not manage counterparties of this company.");

  const decoded: { text: string; encoding: CsvEncoding | null } =
    typeof file === "string" ? { text: file, encoding: null } : decodeCsvBytes(file.bytes, file.encoding);
  const text = decoded.text;
  const report: ImportReport = {
    ok: false,
    fileErrors: [],
    errors: [],
    preview: [],
    created: [],
    encoding: decoded.encoding,
  };
  // Characters that are no text (undecodable bytes, NUL, controls): refused by line before anything else is read.
  const unreadable = undecodableLines(text.replace(/^\uFEFF/, ""));
  if (unreadable.length) {
    report.errors = unreadable.map((u) => ({ line: u.line, field: null, message: u.message }));
    return report;
  }
  const { fields, lines } = readCsv(text);
  report.fileErrors.push(...fileErrorsOf(fields, lines));
  if (report.fileErrors.length) return report;

  checkLines(lines, report);
  await dropTakenIbans(db, companyId, report);
  report.errors.sort((a, b) => a.line - b.line);
  report.ok = report.errors.length === 0;
  if (!report.ok || opts.dryRun) return report;

  report.created = await db.transaction(async (tx) => {
    const out: Counterparty[] = [];
    for (const { line: _line, ...fields } of report.preview)
      out.push(await insertPending(tx, actor, companyId, fields, { ...opts, action: AUDIT_ACTION.counterpartyImport }));
    return out;
  });
  return report;
}
