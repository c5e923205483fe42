/**
 * Character sets of bank files (docs/bank-files.md "Character sets").
 *
 * `decodeBankFile(bytes, fileName)` turns the bytes of an uploaded or read
 * file into text without ever losing a character silently:
 *
 * - XML (camt, pain): the encoding of the XML declaration is honoured
 *   (`encoding="ISO-8859-1"`, `windows-1252`, `UTF-16`…); without one the
 *   file must be UTF-8.
 * - MT940 / MT942 / BAI2 carry no declaration: valid UTF-8 is read as UTF-8,
 *   anything else as ISO-8859-1 / Windows-1252 (the two character sets banks
 *   use for these formats; Windows-1252 is a superset of ISO-8859-1's
 *   printable characters).
 *
 * A file that would hold U+FFFD (bytes that are not text in the declared
 * encoding, or a replacement character already written into the file by an
 * earlier bad conversion) or C1 control characters is refused with a
 * `CamtImportError` naming the file and the line. UTF-8 is checked with the
 * platform's `TextDecoder`; the single-byte character sets are decoded with
 * iconv-lite (Node's own "windows-1252" decoder reads 0x80–0x9F as ISO-8859-1).
 */
import iconv from "iconv-lite";
import { CamtImportError } from "./camt053-parse";

/** Text of a file and the character set it was read in. */
export interface DecodedFile {
  text: string;
  /** e.g. `UTF-8`, `ISO-8859-1`, `windows-1252`, or the XML declaration's label. */
  charset: string;
}

const BOM = [0xef, 0xbb, 0xbf];
// U+FFFD, and the C1 controls that a Windows-1252 byte without a character decodes to.
const BAD_CHAR = /[\uFFFD\u0080-\u009F]/;

/** A file whose bytes are not text in the character set it is read in. */
function refuse(fileName: string, line: number, problem: string): never {
  throw new CamtImportError(fileName, `line ${line}`, problem);
}

/** 1-based line of the first character matching BAD_CHAR in `text`; 0 when none. */
function badLine(text: string): number {
  const m = BAD_CHAR.exec(text);
  if (m === null) return 0;
  let line = 1;
  for (let i = 0; i < m.index; i += 1) if (text.charCodeAt(i) === 10) line += 1;
  return line;
}

/** 1-based line of the first byte sequence that is not UTF-8; 0 when the bytes are UTF-8. */
function firstNonUtf8Line(bytes: Uint8Array): number {
  const strict = new TextDecoder("utf-8", { fatal: true });
  let line = 1;
  let start = 0;
  for (let i = 0; i <= bytes.length; i += 1) {
    if (i === bytes.length || bytes[i] === 10) {
      try {
        strict.decode(bytes.subarray(start, i));
      } catch {
        return line;
      }
      line += 1;
      start = i + 1;
    }
  }
  return 0;
}

function isUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** The `encoding` of an XML declaration at the start of the file, or null. */
function xmlDeclaredEncoding(bytes: Uint8Array): string | null {
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 200));
  const m = /^\s*<\?xml[^>]*\bencoding\s*=\s*["']([A-Za-z0-9._:-]+)["']/.exec(head);
  return m?.[1] ?? null;
}

/** True when the bytes (after a BOM and blanks) start like an XML document. */
export function looksLikeXml(bytes: Uint8Array): boolean {
  let i = bytes[0] === BOM[0] && bytes[1] === BOM[1] && bytes[2] === BOM[2] ? 3 : 0;
  while (i < bytes.length && (bytes[i] === 32 || bytes[i] === 9 || bytes[i] === 10 || bytes[i] === 13)) i += 1;
  return bytes[i] === 0x3c || (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
}

/**
 * Decodes a bank file.
 * @param bytes the file as read or uploaded (a string is taken as already decoded and only checked)
 * @param fileName used in the error message
 * @returns the text (without a byte-order mark) and the character set used
 * @throws CamtImportError (400 validation_error, details `{ file, path: "line N" }`) when a line holds bytes
 *   that are no text in the file's encoding, a U+FFFD or a C1 control character, or when an XML declaration
 *   names an encoding the platform does not know
 */
export function decodeBankFile(bytes: Uint8Array | string, fileName: string): DecodedFile {
  if (typeof bytes === "string") {
    const line = badLine(bytes);
    if (line > 0) refuse(fileName, line, "holds a character that is not text (U+FFFD or a C1 control)");
    return { text: bytes.replace(/^\uFEFF/, ""), charset: "UTF-16" };
  }
  let charset: string;
  let text: string;
  if (looksLikeXml(bytes)) {
    const declared = xmlDeclaredEncoding(bytes);
    const label = declared ?? "utf-8";
    if (/^utf-?8$/i.test(label)) {
      if (!isUtf8(bytes))
        refuse(fileName, firstNonUtf8Line(bytes), `is not ${declared ? `${declared} as declared` : "UTF-8"}`);
      text = new TextDecoder("utf-8").decode(bytes);
    } else if (iconv.encodingExists(label)) {
      text = iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), label);
    } else {
      throw new CamtImportError(fileName, "line 1", `declares encoding "${label}", which is not supported`);
    }
    charset = declared ?? "UTF-8";
  } else if (isUtf8(bytes)) {
    text = new TextDecoder("utf-8").decode(bytes);
    charset = "UTF-8";
  } else {
    text = iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), "windows-1252");
    charset = bytes.some((b) => b >= 0x80 && b <= 0x9f) ? "windows-1252" : "ISO-8859-1";
  }
  const line = badLine(text);
  if (line > 0)
    refuse(
      fileName,
      line,
      `holds a character that is not text in ${charset} (a replacement character U+FFFD or a control ` +
        "character): the file was damaged by a character-set conversion",
    );
  return { text, charset };
}
