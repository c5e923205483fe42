/**
 * Parser of the European Central Bank's reference rates in CSV: the
 * historical `eurofxref-hist.csv` (one row per day, newest first):
 *
 *   Date,USD,JPY,BGN,CYP,...,ZAR,
 *   2026-11-20,1.1598,180.57,N/A,N/A,...,20.1284,
 *
 * and the daily `eurofxref.csv` of the same shape with spaces after the
 * commas and the date written "20 November 2026". Every rate is
 * "1 EUR = rate currency", kept as the published decimal string. "N/A" marks
 * a currency not quoted that day (retired or not yet quoted) and is skipped;
 * the trailing comma of every line (an unnamed last column) is ignored.
 * Strict otherwise: a bad date, a bad or empty rate cell, a row of the wrong
 * length or a date given twice stops the parse with an {@link FxFileError}
 * naming the line, so that a damaged file imports nothing.
 */
import Papa from "papaparse";
import { isCurrencyCode } from "./currencies";
import { isIsoDate } from "./dates";
import { FxFileError, isRateString, type FxRateRow, type ParsedFxFile } from "./rate-file";

const MONTHS = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];

/** "2026-11-20" or "20 November 2026" → "2026-11-20"; null for anything else. */
function parseDate(cell: string): string | null {
  if (isIsoDate(cell)) return cell;
  const m = /^(\d{1,2}) ([A-Za-z]+) (\d{4})$/.exec(cell);
  if (!m) return null;
  const month = MONTHS.indexOf((m[2] ?? "").toLowerCase());
  if (month < 0) return null;
  const iso = `${m[3]}-${String(month + 1).padStart(2, "0")}-${(m[1] ?? "").padStart(2, "0")}`;
  return isIsoDate(iso) ? iso : null;
}

interface Row {
  line: number;
  cells: string[];
}

/** Splits the text into rows with the line each starts on (papaparse applies the quoting rules). */
function readRows(text: string): Row[] {
  const rows: Row[] = [];
  let line = 1;
  let counted = 0; // newlines before this offset are in `line`
  let start = 0;
  Papa.parse<string[]>(text, {
    header: false,
    skipEmptyLines: false,
    delimiter: ",",
    step(result) {
      for (let i = text.indexOf("\n", counted); i !== -1 && i < start; i = text.indexOf("\n", i + 1)) line++;
      counted = Math.max(counted, start);
      const problem = result.errors[0];
      if (problem) throw new FxFileError(`line ${line}`, `not valid CSV: ${problem.message}`);
      rows.push({ line, cells: result.data.map((c) => c.trim()) });
      start = result.meta.cursor;
    },
  });
  return rows;
}

/**
 * Parses an ECB eurofxref CSV text (historical or daily layout).
 * @returns the rates in file order (base "EUR") and the number of dates
 * @throws FxFileError naming the line of the first problem: no "Date" header,
 *   a column header that is not a currency code or is given twice, a row with
 *   more or fewer cells than the header, a date that is not `YYYY-MM-DD` (or
 *   "20 November 2026"), an empty cell or a rate that is not a positive
 *   decimal (the cell is named by its currency), a date given twice, no rates.
 */
export function parseEcbCsv(input: string): ParsedFxFile {
  const text = input.replace(/^\uFEFF/, "");
  const rows = readRows(text).filter((r) => r.cells.some((c) => c !== ""));
  const header = rows[0];
  if (!header) throw new FxFileError("line 1", "empty file");
  if (header.cells[0]?.toLowerCase() !== "date")
    throw new FxFileError(`line ${header.line}`, 'expected the header "Date,USD,JPY,..." (first column Date)');
  // The trailing comma of ECB lines makes an unnamed last column; only trailing unnamed columns are allowed.
  const named = [...header.cells];
  while (named.length > 1 && named[named.length - 1] === "") named.pop();
  const currencies = named.slice(1);
  if (currencies.length === 0) throw new FxFileError(`line ${header.line}`, "no currency columns");
  const seen = new Set<string>();
  currencies.forEach((c, i) => {
    if (!isCurrencyCode(c) || c === "EUR")
      throw new FxFileError(
        `line ${header.line}`,
        `column ${i + 2} header ${JSON.stringify(c)} is not a currency code`,
      );
    if (seen.has(c)) throw new FxFileError(`line ${header.line}`, `column ${c} given twice`);
    seen.add(c);
  });

  const rates: FxRateRow[] = [];
  const dateLines = new Map<string, number>();
  for (const row of rows.slice(1)) {
    const at = `line ${row.line}`;
    const extra = row.cells.slice(named.length);
    if (row.cells.length < named.length || extra.some((c) => c !== ""))
      throw new FxFileError(at, `${row.cells.length} cells where the header has ${named.length} columns`);
    const dateCell = row.cells[0] ?? "";
    const date = parseDate(dateCell);
    if (!date) throw new FxFileError(at, `date ${JSON.stringify(dateCell)} is not YYYY-MM-DD`);
    const first = dateLines.get(date);
    if (first !== undefined) throw new FxFileError(at, `date ${date} given twice (first on line ${first})`);
    dateLines.set(date, row.line);
    currencies.forEach((currency, i) => {
      const cell = row.cells[i + 1] ?? "";
      if (cell.toUpperCase() === "N/A") return;
      if (!isRateString(cell))
        throw new FxFileError(
          at,
          `${currency} rate ${JSON.stringify(cell)} is not a positive decimal number (N/A for no rate)`,
        );
      rates.push({ date, base: "EUR", quote: currency, rate: cell });
    });
  }
  if (rates.length === 0) throw new FxFileError(`line ${header.line}`, "no rates below the header");
  return { format: "ecb-csv", rates, dates: dateLines.size };
}
