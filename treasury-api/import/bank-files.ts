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
import { parseBai2, looksLikeBai2 } from "./bai2";
import { CamtImportError, parseStatementFile, type ParsedFile } from "./camt053-parse";
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
  { name: "camt", detect: (text) => /^\s*</.test(text), parse: parseStatementFile },
];

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
