/**
 * CSV import of payment instructions: papaparse reads the file (header row).
 * Required columns `creditor_name`, `creditor_iban`, `amount`, `end_to_end_id`;
 * optional payment-run columns `creditor_bic` and remittance information,
 * either free text (`remittance_information`) or an ISO 11649 RF creditor
 * reference (`creditor_reference`); a few aliases accepted. Every row is
 * checked with the contract's `PaymentBatchCreate` in the batch currency, as
 * the form checks it (a BIC for an IBAN outside SEPA, text up to 140
 * characters, RF check digits), plus end-to-end ids already used in the
 * editor. The result marks each bad cell by row. Amounts may be written as
 * the payment form takes them (1.234,50 · 1 234,50 · 1,234.50; see
 * lib/payments/amount-input.ts): the file's unambiguous amounts, else the
 * browser's language, decide the decimal separator, and the dialog says which.
 *
 * The optional columns travel only to an API that advertises the payment-run
 * extensions: otherwise every filled cell of them is marked as not sendable
 * (the rows are never imported without them).
 */
import Papa from "papaparse";
import { PaymentBatchCreate } from "@treasury/contract";
import { fileDecimalMark, parseAmount, type DecimalMark } from "@/lib/payments/amount-input";
import { BIC_REQUIRED_MESSAGE, bicMissing } from "@treasury/contract/bic-rule";
import { toBody, type InstructionRow } from "./batch-form-schema";

/** How a file's amounts are read: the user's locale, and the decimal separator the file shows (or the locale's). */
export interface AmountFormat {
  locale: string;
  decimal: DecimalMark;
  /** `file`: the file's own unambiguous amounts show it; `locale`: none does, the browser's language decided. */
  from: "file" | "locale";
  /** The file writes amounts both ways ("1.5" and "2,5"): the locale's separator is used and the user is told. */
  conflict: boolean;
}

/** The sentence saying which amount form was assumed, e.g. "Amounts read with a decimal comma, as the file writes them (1.234,50)." */
export function amountFormatNote(f: AmountFormat): string {
  const mark = f.decimal === "," ? "a decimal comma (1.234,50 · 1 234,50)" : "a decimal point (1,234.50)";
  if (f.conflict)
    return `The file writes amounts both with a decimal comma and with a decimal point; they are read with ${mark}, as your browser's language (${f.locale}) writes them. Check the amounts.`;
  return f.from === "file"
    ? `Amounts read with ${mark}, as the file writes them.`
    : `Amounts read with ${mark}, as your browser's language (${f.locale}) writes them: the file's amounts could be read either way.`;
}

/** A row's amount as the API takes it ("1234.50"), or the cell as written when it is not an amount. */
export function csvAmount(cell: string, f?: AmountFormat): string {
  if (!f) return cell;
  const p = parseAmount(cell, f.locale, f.decimal);
  return p.ok ? p.value : cell;
}

/** Columns every file has. */
export const CSV_FIELDS = ["creditor_name", "creditor_iban", "amount", "end_to_end_id"] as const;
/** Optional columns of the payment-run extensions: BIC, remittance text, RF creditor reference. */
export const CSV_RUN_FIELDS = ["creditor_bic", "remittance_information", "creditor_reference"] as const;
export type CsvRunField = (typeof CSV_RUN_FIELDS)[number];
export type CsvField = (typeof CSV_FIELDS)[number] | CsvRunField;
const ALL_FIELDS: readonly CsvField[] = [...CSV_FIELDS, ...CSV_RUN_FIELDS];

const ALIASES: Record<string, CsvField> = {
  creditor_name: "creditor_name",
  name: "creditor_name",
  creditor: "creditor_name",
  creditor_iban: "creditor_iban",
  iban: "creditor_iban",
  amount: "amount",
  end_to_end_id: "end_to_end_id",
  e2e: "end_to_end_id",
  end_to_end: "end_to_end_id",
  reference: "end_to_end_id",
  creditor_bic: "creditor_bic",
  bic: "creditor_bic",
  swift: "creditor_bic",
  remittance_information: "remittance_information",
  remittance: "remittance_information",
  message: "remittance_information",
  creditor_reference: "creditor_reference",
  rf: "creditor_reference",
};

/**
 * One file row, every cell trimmed ("" when empty or absent). `remittance_information` is free text,
 * `creditor_reference` an RF reference; a row may fill at most one of them. `currency` is the batch currency.
 */
export type CsvRow = Record<CsvField, string> & { currency: string };

export interface CsvParse {
  rows: CsvRow[];
  /** Problems of the file itself (no header, required columns missing, no rows). */
  fileErrors: string[];
  /** The optional payment-run columns the header has, in `CSV_RUN_FIELDS` order. */
  runColumns: CsvRunField[];
  /** How the amounts are read (amountFormatNote says it to the user). */
  amountFormat: AmountFormat;
}

/**
 * Parses CSV text into rows in `currency`. The separator is
 * detected (comma, semicolon, tab); a UTF-8 BOM and blank lines (also rows of
 * empty cells) are skipped; header names are matched case-insensitively with
 * a few aliases (`bic` / `swift`, `remittance` / `message`, `rf`); unknown
 * columns are ignored; cells are trimmed. `fileErrors` names missing columns
 * and an empty file; the rows are checked separately (`validateCsvRows`).
 */
export function parseInstructionsCsv(text: string, currency: string, locale = "en-GB"): CsvParse {
  const r = Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ""), {
    header: true,
    skipEmptyLines: "greedy",
    transformHeader: (h) =>
      ALIASES[
        h
          .trim()
          .toLowerCase()
          .replaceAll(/[\s-]+/g, "_")
      ] ?? h.trim(),
  });
  const fields = r.meta.fields ?? [];
  const missing = CSV_FIELDS.filter((f) => !fields.includes(f));
  const fileErrors = missing.length
    ? [`The header row lacks ${missing.join(", ")}. Expected columns: ${CSV_FIELDS.join(", ")}.`]
    : [];
  if (r.data.length === 0) fileErrors.push("The file holds no rows.");
  const rows = r.data.map((d) => {
    const row = { currency } as CsvRow;
    for (const f of ALL_FIELDS) row[f] = (d[f] ?? "").trim();
    return row;
  });
  const mark = fileDecimalMark(
    rows.map((r) => r.amount),
    locale,
  );
  return {
    rows,
    fileErrors,
    runColumns: CSV_RUN_FIELDS.filter((f) => fields.includes(f)),
    amountFormat: { locale, ...mark },
  };
}

/** Cell errors per row index: `{ 2: { creditor_iban: "is not a valid IBAN" } }`. */
export type RowErrors = Record<number, Partial<Record<CsvField, string>>>;

/** Marks a filled extension cell when the API does not take the payment-run fields. */
export const NOT_SENDABLE = "cannot be sent: the connected Treasury API does not take it";

/** The remittance information a row sends: its text, else its RF reference, else none. */
function remittanceOf(r: CsvRow) {
  if (r.remittance_information) return { type: "unstructured" as const, text: r.remittance_information };
  if (r.creditor_reference) return { type: "creditor_reference" as const, reference: r.creditor_reference };
  return undefined;
}

/**
 * Checks the rows as one batch in `currency`, and their end-to-end ids against `takenIds` (ids already in the editor).
 * With `runFields` (the API advertises the payment-run extensions) BIC and remittance cells are checked as the form
 * checks them: a valid BIC (ISO 9362), required for an IBAN outside SEPA; text of 1–140 characters; an RF reference
 * with valid ISO 11649 check digits; not both text and RF in one row (marked on the `creditor_reference` cell).
 * Without `runFields` each filled cell of those columns is marked `NOT_SENDABLE`. The first problem of a cell wins.
 */
export function validateCsvRows(
  rows: readonly CsvRow[],
  currency: string,
  takenIds: ReadonlySet<string>,
  runFields = false,
  amountFormat?: AmountFormat,
): RowErrors {
  const out: RowErrors = {};
  const set = (i: number, f: CsvField, msg: string) => {
    const row = (out[i] ??= {});
    row[f] ??= msg;
  };
  rows.forEach((x, i) => {
    if (!runFields) {
      for (const f of CSV_RUN_FIELDS) if (x[f]) set(i, f, NOT_SENDABLE);
      return;
    }
    if (x.remittance_information && x.creditor_reference)
      set(
        i,
        "creditor_reference",
        "must be empty when remittance_information is filled (text or RF reference, not both)",
      );
    if (bicMissing(x.creditor_iban, x.creditor_bic)) set(i, "creditor_bic", BIC_REQUIRED_MESSAGE);
  });
  // The rows as the form would hold them, checked as the form's body: the same schema, the same body.
  const values = { company_id: "00000000-0000-4000-8000-000000000000", currency, requested_execution_date: "" };
  const r = PaymentBatchCreate.safeParse(
    toBody({ ...values, instructions: toInstructionRows(rows, amountFormat) }, runFields),
  );
  if (!r.success) {
    for (const issue of r.error.issues) {
      const [top, i, f, sub] = issue.path;
      if (top !== "instructions" || typeof i !== "number" || typeof f !== "string") continue;
      if (f === "remittance_information")
        set(i, sub === "reference" ? "creditor_reference" : "remittance_information", issue.message);
      else if ((ALL_FIELDS as readonly string[]).includes(f)) set(i, f as CsvField, issue.message);
    }
  }
  if (amountFormat)
    rows.forEach((x, i) => {
      const p = parseAmount(x.amount, amountFormat.locale, amountFormat.decimal);
      if (p.ok) return;
      const example = amountFormat.decimal === "," ? "1.250,00 or 1 250,00" : "1,250.00";
      const row = (out[i] ??= {});
      // The reading problem replaces the schema's "must be a positive decimal string".
      row.amount = p.reason === "empty" ? "is required" : `is not an amount: write it like ${example}`;
    });
  rows.forEach((x, i) => {
    if (x.end_to_end_id && takenIds.has(x.end_to_end_id))
      set(i, "end_to_end_id", "is already used by a row in the editor");
  });
  return out;
}

/**
 * Without the payment-run extensions: why the file cannot be imported as it is, naming the filled optional columns;
 * null when none is filled (or when the API takes them).
 */
export function notSendableMessage(rows: readonly CsvRow[], runFields: boolean): string | null {
  if (runFields) return null;
  const filled = CSV_RUN_FIELDS.filter((f) => rows.some((r) => r[f]));
  if (filled.length === 0) return null;
  return (
    `The file fills ${filled.join(", ")}, but the connected Treasury API does not take BIC or remittance ` +
    `information (its OpenAPI document does not list them), so they cannot be sent. Empty those cells or remove ` +
    `the columns to import the rows without them.`
  );
}

/**
 * The editor rows of checked file rows, in the form's (the contract's) shape: BIC as given, `remittance_information`
 * the text, else the RF reference, else none (absent).
 */
export function toInstructionRows(rows: readonly CsvRow[], amountFormat?: AmountFormat): InstructionRow[] {
  return rows.map((r) => {
    const remittance = remittanceOf(r);
    return {
      creditor_name: r.creditor_name,
      creditor_iban: r.creditor_iban,
      amount: csvAmount(r.amount, amountFormat),
      end_to_end_id: r.end_to_end_id,
      currency: r.currency,
      creditor_bic: r.creditor_bic,
      ...(remittance ? { remittance_information: remittance } : {}),
      counterparty_id: "",
    };
  });
}
