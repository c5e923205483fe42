/**
 * Streaming CSV for exports of the current filter, streamed from the
 * server. Rows come from an async source (the
 * treasury client's page iterator), are grouped into chunks and each chunk
 * is turned into CSV text with papaparse `unparse`, so memory stays at one
 * chunk however many rows are exported, and the browser sees the first
 * bytes after the first upstream page.
 *
 * Every cell goes through `csvCell`, the one escaping of every CSV export: a
 * text that a spreadsheet would run as a formula (leading `=`, `+`, `-`, `@`,
 * tab, CR) is prefixed with `'` (OWASP "CSV injection"), whatever the column;
 * a plain decimal number (an amount as a decimal string) is written as it is,
 * so a negative amount stays `-12.50`.
 */
import Papa from "papaparse";

/** One CSV column: its header and how to read a row's value (every value is written through `csvCell`). */
export interface CsvColumn<T> {
  header: string;
  value: (row: T) => string | number | null | undefined;
}

const FORMULA = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[+-]?\d+(\.\d+)?$/;

/**
 * The text of one CSV cell, formula-escaped: `'` before a value starting with `=`, `+`, `-`, `@`, tab or CR, unless
 * it is a plain decimal number (`-12.50`, which a spreadsheet reads as the number it is); null / undefined → "".
 * Quoting (commas, quotes, line breaks) is papaparse's, after this.
 */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return "";
  const s = String(value);
  return FORMULA.test(s) && !PLAIN_NUMBER.test(s) ? `'${s}` : s;
}

function cell<T>(col: CsvColumn<T>, row: T): string {
  return csvCell(col.value(row));
}

/** The CSV text of rows (header line included when `header` is true), lines ending in CRLF (RFC 4180). */
export function toCsv<T>(rows: readonly T[], columns: readonly CsvColumn<T>[], header: boolean): string {
  if (rows.length === 0)
    return header ? `${Papa.unparse([columns.map((c) => c.header)], { newline: "\r\n" })}\r\n` : "";
  const text = Papa.unparse(
    { fields: columns.map((c) => c.header), data: rows.map((r) => columns.map((c) => cell(c, r))) },
    { header, newline: "\r\n", escapeFormulae: false },
  );
  return `${text}\r\n`;
}

/**
 * A byte stream of CSV: the header line, then the rows of `source` in chunks
 * of `chunkSize`. Cancelling the stream (the browser went away) stops the
 * source, so no more upstream pages are fetched.
 * @param onError called with an error of the source; the stream then errors too
 */
export function csvStream<T>(
  source: AsyncIterable<T>,
  columns: readonly CsvColumn<T>[],
  opts: { chunkSize?: number; onError?: (err: unknown) => void } = {},
): ReadableStream<Uint8Array> {
  const chunkSize = opts.chunkSize ?? 500;
  const encoder = new TextEncoder();
  const it = source[Symbol.asyncIterator]();
  let headerSent = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const rows: T[] = [];
        let done = false;
        while (rows.length < chunkSize) {
          const r = await it.next();
          if (r.done) {
            done = true;
            break;
          }
          rows.push(r.value);
        }
        if (rows.length > 0 || !headerSent) {
          controller.enqueue(encoder.encode(toCsv(rows, columns, !headerSent)));
          headerSent = true;
        }
        if (done) controller.close();
      } catch (err) {
        opts.onError?.(err);
        controller.error(err);
      }
    },
    async cancel() {
      await it.return?.();
    },
  });
}

/**
 * Headers of a CSV download: file name, no caching, and the expected row count when known (for the browser's progress
 * bar).
 */
export function csvHeaders(fileName: string, totalRows: number | null): Record<string, string> {
  const safe = fileName.replace(/[^A-Za-z0-9._-]/g, "_");
  return {
    "Content-Type": "text/csv; charset=utf-8",
    "Content-Disposition": `attachment; filename="${safe}"`,
    "Cache-Control": "no-store",
    ...(totalRows === null ? {} : { "X-Total-Count": String(totalRows) }),
  };
}
