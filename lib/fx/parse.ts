/**
 * Reads an FX rate file whatever its ECB format: XML (`eurofxref-daily.xml`,
 * `eurofxref-hist-90d.xml`, `eurofxref-hist.xml`) when the text starts with
 * `<`, CSV (`eurofxref-hist.csv`, `eurofxref.csv`) otherwise. The format is
 * taken from the content, so a renamed download still reads.
 */
import { parseEcbCsv } from "./ecb-csv";
import { parseEcbXml } from "./ecb-xml";
import type { ParsedFxFile } from "./rate-file";

/**
 * Parses the text of an ECB reference-rate file.
 * @throws FxFileError naming the line or element of the first problem (see parseEcbXml / parseEcbCsv).
 */
export function parseFxFile(text: string): ParsedFxFile {
  const body = text.replace(/^\uFEFF/, "").trimStart();
  return body.startsWith("<") ? parseEcbXml(body) : parseEcbCsv(body);
}
