/**
 * XLSX downloads written with exceljs (docs/forecast.md#exports): the same columns as a CSV export, one sheet per
 * table, with typed cells so a spreadsheet can sum and filter without a text-to-number step.
 *
 * Money stays exact (docs/forecast.md#exports): a decimal string becomes a number cell only when the number reads
 * back as the same decimal — at most 15 significant digits (what an IEEE double, and Excel, keep exactly) and the
 * double's shortest form equal to the decimal. Anything longer (e.g. 12 trillion with cents, or a 6-decimal estimate
 * of a large amount) is written as the decimal string itself, so no digit is lost silently.
 */
import Decimal from "decimal.js";
import ExcelJS from "exceljs";
import type { CsvColumn } from "./csv-stream";

/** How a column's cells are typed: money (2-decimal number format), a rate, an ISO date, or text (the default). */
export type CellKind = "text" | "money" | "rate" | "date";

/** A CSV column with the cell type its XLSX cells get. */
export interface ExportColumn<T> extends CsvColumn<T> {
  kind?: CellKind;
}

/** One sheet: its name (at most 31 characters, no `[]:*?/\`), rows and columns. */
export interface SheetSpec<T> {
  name: string;
  rows: readonly T[];
  columns: readonly ExportColumn<T>[];
}

/** A sheet whose row type is erased, so sheets of different rows go into one workbook. */
export type AnySheet = SheetSpec<unknown>;

/** `spec` as an {@link AnySheet}. */
export function sheet<T>(spec: SheetSpec<T>): AnySheet {
  return spec as unknown as AnySheet;
}

/** The media type of an .xlsx file. */
export const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

const MONEY_FORMAT = "#,##0.00;-#,##0.00";
const DATE_FORMAT = "yyyy-mm-dd";
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const DECIMAL = /^-?\d+(\.\d+)?$/;
// Characters XML 1.0 cannot carry; a workbook holding one does not open.
// eslint-disable-next-line no-control-regex
const XML_INVALID = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

/**
 * The number a decimal string may be written as, or null when the double would not read back as the same decimal
 * (more than 15 significant digits, what Excel keeps). `"-1250.50"` → `-1250.5`; `"12345678901234.57"` → null.
 */
export function exactNumber(s: string): number | null {
  if (!DECIMAL.test(s)) return null;
  const d = new Decimal(s);
  if (d.sd(true) > 15) return null;
  const n = Number(s);
  return Number.isFinite(n) && new Decimal(n).eq(d) ? n : null;
}

type CellValue = string | number | Date | null;

function cellValue(kind: CellKind, raw: string | number | null | undefined): CellValue {
  if (raw === null || raw === undefined || raw === "") return null;
  const s = String(raw);
  if (kind === "money" || kind === "rate") return exactNumber(s) ?? s;
  if (kind === "date" && ISO_DATE.test(s)) return new Date(`${s}T00:00:00Z`);
  return s.replace(XML_INVALID, "");
}

/**
 * The .xlsx bytes of the sheets: a bold, frozen header row; money cells with a two-decimal format, dates as date
 * cells (`yyyy-mm-dd`, UTC midnight), rates as plain numbers; a value that is not exact as a number stays a string.
 * Text cells are never formulas (a leading `=` is kept as text).
 */
export async function toXlsx(sheets: readonly AnySheet[]): Promise<Uint8Array<ArrayBuffer>> {
  const wb = new ExcelJS.Workbook();
  wb.creator = "Treasury dashboard";
  for (const spec of sheets) {
    const ws = wb.addWorksheet(spec.name, { views: [{ state: "frozen", ySplit: 1 }] });
    ws.columns = spec.columns.map((c) => ({
      header: c.header,
      key: c.header,
      width: c.kind === "date" ? 12 : c.kind === "money" ? 16 : Math.max(10, c.header.length + 2),
      style: c.kind === "money" ? { numFmt: MONEY_FORMAT } : c.kind === "date" ? { numFmt: DATE_FORMAT } : {},
    }));
    ws.getRow(1).font = { bold: true };
    for (const row of spec.rows) ws.addRow(spec.columns.map((c) => cellValue(c.kind ?? "text", c.value(row))));
  }
  const out = await wb.xlsx.writeBuffer();
  return new Uint8Array(out as ArrayBuffer);
}

/** Headers of an XLSX download: a safe file name, the media type, no caching. */
export function xlsxHeaders(fileName: string): Record<string, string> {
  return {
    "Content-Type": XLSX_TYPE,
    "Content-Disposition": `attachment; filename="${fileName.replace(/[^A-Za-z0-9._-]/g, "_")}"`,
    "Cache-Control": "no-store",
  };
}
