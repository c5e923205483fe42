/**
 * Bank file formats in (docs/bank-files.md): detection per file by content —
 * never by file name — and the per-format handler table that `POST /statements`
 * and the `import-statements` command line share.
 *
 * `parseBankFile(content, fileName, options)` decodes the bytes (charset.ts),
 * picks the first handler whose `detect` accepts the text and parses it into
 * the `ParsedFile` the statement importer stores. A statement whose balances
 * do not add up (opening + entries ≠ closing, BAI2 trailer totals ≠ records,
 * MT942 :90C:/:90D: ≠ entries) refuses the file naming the statement unless
 * `acceptInconsistent` is given; then it is imported and its days are flagged
 * `partial` on the account's coverage.
 *
 * Adding a format (pain.002 status reports, for instance) is one more entry
 * in `FORMAT_HANDLERS`, placed before the generic XML (camt) handler.
 */
import { Decimal } from "decimal.js";
import { parseBai2, looksLikeBai2 } from "./bai2";
import { CamtImportError, parseStatementFile, type ParsedFile, type ParsedStatement } from "./camt053-parse";
import { decodeBankFile } from "./charset";
import { looksLikeMt940, parseMt940 } from "./mt940";

/** One format of bank file in. */
export interface FormatHandler {
  /** Short name used in messages: "camt", "mt940", "bai2"… */
  name: string;
  /** True when the decoded text is a file of this format (content only). */
  detect(text: string): boolean;
  /** Parses the file; throws CamtImportError (400) naming the file and the place. */
  parse(text: string, fileName: string): ParsedFile;
}

/** Formats tried in this order; the first whose `detect` matches parses the file. */
export const FORMAT_HANDLERS: FormatHandler[] = [
  { name: "bai2", detect: looksLikeBai2, parse: parseBai2 },
  { name: "mt940", detect: looksLikeMt940, parse: parseMt940 },
  { name: "camt", detect: (text) => /^\s*</.test(text), parse: parseCamtChecked },
];

/** camt.052/053/054 with the camt.053 balance check of `camtInconsistency` recorded on each statement. */
function parseCamtChecked(text: string, fileName: string): ParsedFile {
  const file = parseStatementFile(text, fileName);
  for (const stmt of file.statements) stmt.inconsistency = camtInconsistency(stmt);
  return file;
}

/**
 * The balance check of a camt.053 statement (docs/bank-files.md "Balance check"): the opening booked balance
 * (OPBD, else PRCD) plus the booked entries (credits minus debits; pending and INFO entries do not count) must equal
 * the closing booked balance (CLBD). Not checked: a statement without an opening or a closing balance, camt.052 /
 * camt.054 messages (no booked opening and closing), and a statement with a booked entry in another currency than
 * its balances (`Ntry/Amt` then does not say what the account was booked; the counter-value is not read).
 * @returns null when the statement adds up or is not checked; else a message naming the statement and the figures
 */
export function camtInconsistency(stmt: ParsedStatement): string | null {
  if (stmt.messageType !== "camt.053") return null;
  const balance = (code: string) => stmt.balances.find((b) => b.code === code) ?? null;
  const opening = balance("OPBD") ?? balance("PRCD");
  const closing = balance("CLBD");
  if (opening === null || closing === null) return null;
  const booked = stmt.entries.filter((e) => !e.pending && e.status !== "INFO");
  if (booked.some((e) => e.currency !== closing.currency)) return null;
  let net = new Decimal(0);
  for (const e of booked) {
    net = e.direction === "credit" ? net.plus(e.amount) : net.minus(e.amount);
  }
  const expected = new Decimal(opening.amount).plus(net);
  if (expected.eq(closing.amount)) return null;
  return (
    `statement ${stmt.id} does not add up: opening ${opening.code} ${opening.amount} + entries ${net.toFixed(2)} = ` +
    `${expected.toFixed(2)}, but the closing balance CLBD is ${closing.amount}`
  );
}

export interface ParseOptions {
  /** Import statements whose balances do not add up (flagged partial on coverage) instead of refusing the file. */
  acceptInconsistent?: boolean;
}

/** The format name a file reports: "mt940", "mt942", "bai2", or the camt version (e.g. camt.053.001.08). */
export function formatOf(file: ParsedFile): string {
  return file.format ?? file.version ?? file.messageType;
}

/**
 * Decodes, detects and parses one bank file.
 * @param content the file's bytes (or its text, already decoded)
 * @param fileName used in every message
 * @throws CamtImportError (400 validation_error) when the bytes are not text, no format matches, the file is
 *   malformed, or a statement does not add up and `acceptInconsistent` is not set (the message names the statement)
 */
export function parseBankFile(content: Uint8Array | string, fileName: string, options: ParseOptions = {}): ParsedFile {
  const { text, charset } = decodeBankFile(content, fileName);
  const handler = FORMAT_HANDLERS.find((h) => h.detect(text));
  if (handler === undefined)
    throw new CamtImportError(
      fileName,
      null,
      "is not a bank file this import reads (camt.052/053/054 XML, MT940, MT942 or BAI2)",
    );
  const parsed = handler.parse(text, fileName);
  parsed.charset = charset;
  for (const stmt of parsed.statements) {
    if (!stmt.inconsistency) continue;
    if (!options.acceptInconsistent)
      throw new CamtImportError(
        fileName,
        null,
        `${stmt.inconsistency}. Nothing was imported; to import it anyway and flag its days, use ` +
          "--accept-inconsistent (command line) or accept_inconsistent=true (API)",
      );
  }
  return parsed;
}
