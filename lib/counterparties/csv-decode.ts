/**
 * The text of an uploaded counterparty CSV file (docs/security.md, "Counterparty CSV encodings"):
 *
 * 1. a byte-order mark decides (UTF-8, UTF-16LE, UTF-16BE);
 * 2. else the encoding the person declared (one of `DECLARABLE_ENCODINGS`);
 * 3. else UTF-8 when the bytes are valid UTF-8;
 * 4. else Windows-1252 — what spreadsheets on Windows save as "CSV", and a superset of ISO-8859-1's printable
 *    characters — and the import's preview says it was assumed.
 *
 * What still cannot be read — a byte with no character in the encoding (U+FFFD after decoding), a NUL or another
 * control character — is refused by `undecodableLines`, naming the line, instead of being stored as `�`.
 */
import iconv from "iconv-lite";

/** Encodings a person may declare for an upload (lower-case labels, as `iconv-lite` and WHATWG name them). */
export const DECLARABLE_ENCODINGS = [
  "utf-8",
  "utf-16le",
  "utf-16be",
  "windows-1252",
  "iso-8859-1",
  "iso-8859-15",
] as const;
export type DeclarableEncoding = (typeof DECLARABLE_ENCODINGS)[number];

/** How a file was read: the encoding, and whether it was assumed (no BOM, not declared, not valid UTF-8). */
export interface CsvEncoding {
  name: DeclarableEncoding;
  assumed: boolean;
}

const BOMS: { bytes: number[]; name: DeclarableEncoding }[] = [
  { bytes: [0xef, 0xbb, 0xbf], name: "utf-8" },
  { bytes: [0xff, 0xfe], name: "utf-16le" },
  { bytes: [0xfe, 0xff], name: "utf-16be" },
];

/**
 * Decodes the bytes of a CSV file (steps 1–4 of the module doc). The BOM is not part of the text.
 * @param bytes the file as uploaded
 * @param declared the encoding the person chose, if any (a BOM still wins: it cannot be wrong)
 * @returns the text and how it was read; undecodable bytes become U+FFFD, for `undecodableLines` to name
 */
export function decodeCsvBytes(
  bytes: Uint8Array,
  declared?: DeclarableEncoding,
): { text: string; encoding: CsvEncoding } {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (const bom of BOMS) {
    if (bom.bytes.every((b, i) => buf[i] === b))
      return {
        text: iconv.decode(buf.subarray(bom.bytes.length), bom.name),
        encoding: { name: bom.name, assumed: false },
      };
  }
  if (declared) return { text: iconv.decode(buf, declared), encoding: { name: declared, assumed: false } };
  try {
    return { text: new TextDecoder("utf-8", { fatal: true }).decode(buf), encoding: { name: "utf-8", assumed: false } };
  } catch {
    return { text: iconv.decode(buf, "windows-1252"), encoding: { name: "windows-1252", assumed: true } };
  }
}

// U+FFFD (a byte the encoding has no character for), NUL and the C0 / DEL controls other than tab, LF and CR.
// eslint-disable-next-line no-control-regex
const UNREADABLE = /[\uFFFD\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/**
 * The lines (1-based, header = 1) holding a character that is no text — U+FFFD, NUL or another control character —
 * each with what it is; empty when every line is text.
 */
export function undecodableLines(text: string): { line: number; message: string }[] {
  const out: { line: number; message: string }[] = [];
  text.split("\n").forEach((content, i) => {
    const at = content.search(UNREADABLE);
    if (at < 0) return;
    const code = content.charCodeAt(at);
    const message =
      code === 0xfffd
        ? "holds characters that could not be decoded (U+FFFD): save the file as UTF-8 and choose it again"
        : `holds a control character (U+${code.toString(16).toUpperCase().padStart(4, "0")}), which is no text`;
    out.push({ line: i + 1, message });
  });
  return out;
}
