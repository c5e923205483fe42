/**
 * CSV import of payment instructions: papaparse reads the file
 * (header row; columns `creditor_name`, `creditor_iban`, `amount`,
 * `end_to_end_id`, a few aliases accepted), and every row is checked with the
 * contract's `PaymentBatchCreate` in the batch currency, plus end-to-end ids
 * already used in the editor. The result marks each bad cell by row.
 */
import Papa from "papaparse";
import { PaymentBatchCreate } from "@/lib/contract";
import type { InstructionRow } from "./batch-form-schema";

export const CSV_FIELDS = ["creditor_name", "creditor_iban", "amount", "end_to_end_id"] as const;
export type CsvField = (typeof CSV_FIELDS)[number];

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
};

export interface CsvParse {
  rows: InstructionRow[];
  /** Problems of the file itself (no header, unknown columns missing). */
  fileErrors: string[];
}

/**
 * Parses CSV text into instruction rows in `currency`. The separator is
 * detected (comma, semicolon, tab); a UTF-8 BOM and blank lines (also rows of
 * empty cells) are skipped; header names are matched case-insensitively with
 * a few aliases; unknown columns are ignored; cells are trimmed. `fileErrors`
 * names missing columns and an empty file; the rows are checked separately
 * (`validateCsvRows`).
 */
export function parseInstructionsCsv(text: string, currency: string): CsvParse {
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
  const rows = r.data.map((d) => ({
    creditor_name: (d.creditor_name ?? "").trim(),
    creditor_iban: (d.creditor_iban ?? "").trim(),
    amount: (d.amount ?? "").trim(),
    end_to_end_id: (d.end_to_end_id ?? "").trim(),
    currency,
  }));
  return { rows, fileErrors };
}

/** Cell errors per row index: `{ 2: { creditor_iban: "is not a valid IBAN" } }`. */
export type RowErrors = Record<number, Partial<Record<CsvField, string>>>;

/**
 * Checks the rows as one batch in `currency`, and their end-to-end ids against `takenIds` (ids already in the editor).
 */
export function validateCsvRows(
  rows: readonly InstructionRow[],
  currency: string,
  takenIds: ReadonlySet<string>,
): RowErrors {
  const out: RowErrors = {};
  const set = (i: number, f: CsvField, msg: string) => {
    const row = (out[i] ??= {});
    row[f] ??= msg;
  };
  const r = PaymentBatchCreate.safeParse({
    company_id: "00000000-0000-4000-8000-000000000000",
    currency,
    instructions: rows.map((x) => ({ ...x, currency })),
  });
  if (!r.success) {
    for (const issue of r.error.issues) {
      const [top, i, f] = issue.path;
      if (
        top === "instructions" &&
        typeof i === "number" &&
        typeof f === "string" &&
        (CSV_FIELDS as readonly string[]).includes(f)
      )
        set(i, f as CsvField, issue.message);
    }
  }
  rows.forEach((x, i) => {
    if (x.end_to_end_id && takenIds.has(x.end_to_end_id))
      set(i, "end_to_end_id", "is already used by a row in the editor");
  });
  return out;
}
