/**
 * The new-batch form's values and their validation. The form
 * is checked with the contract's `PaymentBatchCreate` (zod resolver), after
 * the two things a person does not type: each row's currency is the batch
 * currency, and an empty execution date is left out. So the browser and the
 * BFF apply exactly the same rules (IBAN mod-97, the currency's digits,
 * unique end-to-end ids, creditor name required).
 *
 * The schema (zod, ibantools) is loaded on the first validation, not with
 * the page: what renders at first paint (rows, running total) needs only
 * the zod-free amount rules of `@treasury/contract/amounts`.
 */
import type { Resolver } from "react-hook-form";
import type {
  PaymentBatch,
  PaymentBatchCreate as BatchBody,
  PaymentInstruction,
  PaymentInstructionCreate,
  RemittanceInformation,
} from "@treasury/contract";
import { currencyMinorUnits, isPositiveDecimalString } from "@treasury/contract/amounts";
import { ExactDecimal } from "@treasury/contract/exact-decimal";
import { BIC_REQUIRED_MESSAGE, bicMissing } from "@treasury/contract/bic-rule";

/** What the remittance selector offers: none, or one of the contract's `RemittanceInformation` types. */
export type RemittanceKind = "none" | RemittanceInformation["type"];

/**
 * One instruction of the form, in the contract's shape (`PaymentInstructionCreate`): what is sent is what is edited,
 * field for field, and a field error the BFF names (`instructions[3].remittance_information.text`) is this value's
 * path. `currency` is kept equal to the batch currency and not shown; `creditor_bic` and `remittance_information` are
 * payment-run extensions, sent only when the API advertises them (docs/architecture.md "Where code goes").
 */
export interface InstructionRow extends Omit<PaymentInstructionCreate, "remittance_information"> {
  /**
   * `{ type: "unstructured", text }` or `{ type: "creditor_reference", reference }`, edited as typed; none is its
   * absence (null as a stored instruction without one answers). A blank text or reference is not sent (`toBody`).
   */
  remittance_information?: RemittanceInformation | null;
  /** The counterparty picked in the typeahead (not sent; the payee flag compares IBANs). */
  counterparty_id?: string;
}

export interface BatchFormValues {
  company_id: string;
  currency: string;
  requested_execution_date: string;
  /** Extensions: the batch's name and the account it is paid from ("" = none / the API's default). */
  reference?: string;
  debtor_account_id?: string;
  instructions: InstructionRow[];
}

/**
 * Resolver context: whether the API takes the payment-run fields (else they are left out of the body), and an
 * amount written the user's way ("1 250,00") for the messages.
 */
export interface BatchFormContext {
  runFields: boolean;
  amountExample?: string;
}

/** An empty instruction row in `currency`, with `endToEndId` proposed (lib/payments/end-to-end-id.ts) or empty. */
export function emptyRow(currency: string, endToEndId = ""): InstructionRow {
  return {
    amount: "",
    creditor_name: "",
    creditor_iban: "",
    end_to_end_id: endToEndId,
    currency,
    creditor_bic: "",
    counterparty_id: "",
  };
}

/** What a remittance holds as typed: its text, or its RF reference; "" when there is none. */
export function remittanceValue(r: RemittanceInformation | null | undefined): string {
  if (!r) return "";
  return r.type === "creditor_reference" ? r.reference : r.text;
}

/**
 * The remittance after the selector chose `kind`: none is no remittance; text or RF reference holds `typed` (what
 * the row held before, so switching between the two keeps it) under the contract's key of that type.
 */
export function remittanceOfKind(kind: RemittanceKind, typed: string): RemittanceInformation | undefined {
  if (kind === "none") return undefined;
  return kind === "creditor_reference" ? { type: kind, reference: typed } : { type: kind, text: typed };
}

/** A row's errors as far as its remittance goes: on the object, its text or its reference (react-hook-form's tree). */
export interface RemittanceErrors {
  remittance_information?: { message?: string; text?: { message?: string }; reference?: { message?: string } };
}

/**
 * The message of a row's remittance error, wherever the schema or the server put it: on the text, on the
 * reference, or on the whole `remittance_information` (the BFF's "not supported by the API"); undefined when none.
 */
export function remittanceError(rowErrors: RemittanceErrors | undefined): string | undefined {
  const e = rowErrors?.remittance_information;
  return e?.text?.message ?? e?.reference?.message ?? e?.message;
}

/**
 * The request body of the form values (POST /payments/batches): the values as they are, less what is not filled.
 * With `runFields` the batch reference, debtor account and each row's BIC and remittance information are included
 * when filled (a remittance whose text or reference is blank is left out); without, never. Trimming is the
 * contract schema's, at the BFF as in the resolver.
 */
export function toBody(v: BatchFormValues, runFields = false): BatchBody {
  const reference = (v.reference ?? "").trim();
  return {
    company_id: v.company_id,
    currency: v.currency,
    ...(v.requested_execution_date ? { requested_execution_date: v.requested_execution_date } : {}),
    ...(runFields && reference ? { reference } : {}),
    ...(runFields && v.debtor_account_id ? { debtor_account_id: v.debtor_account_id } : {}),
    instructions: v.instructions.map((r) => {
      const bic = (r.creditor_bic ?? "").trim();
      const remittance =
        runFields && remittanceValue(r.remittance_information).trim() ? r.remittance_information : null;
      return {
        amount: r.amount.trim(),
        currency: v.currency,
        creditor_name: r.creditor_name,
        creditor_iban: r.creditor_iban,
        end_to_end_id: r.end_to_end_id,
        ...(runFields && bic ? { creditor_bic: bic } : {}),
        ...(remittance ? { remittance_information: remittance } : {}),
      };
    }),
  } as BatchBody;
}

async function loadContractResolver() {
  const [{ zodResolver }, { PaymentBatchCreate }] = await Promise.all([
    import("@hookform/resolvers/zod"),
    import("@treasury/contract/payments"),
  ]);
  return zodResolver(PaymentBatchCreate);
}

let contractResolver: ReturnType<typeof loadContractResolver> | null = null;

/**
 * react-hook-form resolver: the contract schema over `toBody(values)`, whose
 * paths are the form's (the body is the values, row for row). With the payment-run fields, a row outside SEPA needs a BIC. The execution date's lower
 * bound (today in the company's time zone) is the BFF's and the API's check; their error lands on the date field.
 */
export const batchResolver: Resolver<BatchFormValues, BatchFormContext> = async (values, context, options) => {
  // A failed chunk load rejects this validation; the next one tries again.
  contractResolver ??= loadContractResolver().catch((err: unknown) => {
    contractResolver = null;
    throw err;
  });
  const runFields = context?.runFields ?? false;
  const r = await (await contractResolver)(toBody(values, runFields) as never, context, options as never);
  const errors = r.errors as Record<string, unknown> & { instructions?: Record<number, Record<string, unknown>> };
  plainMessages(values, errors, context?.amountExample ?? "1,250.00");
  if (runFields) {
    values.instructions.forEach((row, i) => {
      if (bicMissing(row.creditor_iban, row.creditor_bic)) {
        errors.instructions ??= {};
        errors.instructions[i] ??= {};
        const cell = errors.instructions[i];
        if (cell) cell.creditor_bic = { type: "required", message: BIC_REQUIRED_MESSAGE };
      }
    });
  }
  return Object.keys(errors).length ? { values: {}, errors: errors as never } : { values, errors: {} };
};

/** The cells a person must fill in every row. */
const REQUIRED_CELLS = ["creditor_name", "creditor_iban", "end_to_end_id", "amount"] as const;

/**
 * Rewrites the schema's messages of the instruction cells into plain words: an empty required cell says
 * "Required"; a bad amount says how to write one ("Enter an amount like 1 250,00", in the user's way); a bad IBAN
 * says what to check. Messages that start with a capital are shown as they are (cellMessage).
 */
function plainMessages(
  values: BatchFormValues,
  errors: { instructions?: Record<number, Record<string, unknown> | undefined> },
  example: string,
): void {
  for (const [key, row] of Object.entries(errors.instructions ?? {})) {
    const v = values.instructions[Number(key)];
    if (!row || !v) continue;
    for (const cell of REQUIRED_CELLS) {
      const err = row[cell] as { message?: string; type?: string } | undefined;
      if (!err) continue;
      if (!v[cell].trim()) row[cell] = { ...err, type: "required", message: "Required" };
      else if (cell === "amount")
        row[cell] = {
          ...err,
          message: /digit|decimal place|fraction/i.test(err.message ?? "")
            ? `Too many decimals for ${v.currency}: enter an amount like ${example}`
            : `Enter an amount like ${example}`,
        };
      else if (cell === "creditor_iban")
        row[cell] = { ...err, message: "Not a valid IBAN: check the country code and the digits" };
      else if (cell === "end_to_end_id") {
        const dup = /^duplicates instructions\[(\d+)\]/.exec(err.message ?? "");
        if (dup)
          row[cell] = { ...err, message: `Already used in row ${Number(dup[1]) + 1}: each payment needs its own id` };
      }
    }
  }
}

/** The text under a cell: a message in plain words as it is, a schema fragment ("must be …") after the label. */
export function cellMessage(label: string, message: string): string {
  return /^[A-Z]/.test(message) ? message : `${label} ${message}`;
}

/** Fraction digits of `currency`, or null when the code is unknown (then the schema reports the currency). */
function digitsOf(currency: string): number | null {
  try {
    return currencyMinorUnits(currency);
  } catch {
    return null;
  }
}

/**
 * Exact running total and count of the editor's rows in `currency` (decimal.js with `ExactDecimal`, never floats). A
 * row counts in
 * `invalid`, and not in the total, while its amount is not one the contract
 * accepts: not a positive decimal string, or more fraction digits than the
 * currency has (JPY 0, EUR 2, KWD 3). `total` has the currency's digits
 * ("106200.75"); `count` is every row, valid or not.
 */
export function runningTotal(
  rows: readonly Pick<InstructionRow, "amount">[],
  currency: string,
): { total: string; count: number; invalid: number } {
  const digits = digitsOf(currency);
  let sum = new ExactDecimal(0);
  let dp = digits ?? 0;
  let invalid = 0;
  for (const r of rows) {
    const a = r.amount.trim();
    const fraction = (a.split(".")[1] ?? "").length;
    if (!isPositiveDecimalString(a) || (digits !== null && fraction > digits)) {
      invalid++;
      continue;
    }
    dp = Math.max(dp, fraction);
    sum = sum.plus(a);
  }
  return { total: sum.toFixed(dp), count: rows.length, invalid };
}

/**
 * The form values of a created batch (the edit form): its instructions' fields as the API answers them (the
 * remittance information as stored, null when none). Amounts stay decimal strings.
 */
export function batchFormValues(batch: PaymentBatch, instructions: readonly PaymentInstruction[]): BatchFormValues {
  return {
    company_id: batch.company_id,
    currency: batch.currency,
    requested_execution_date: batch.requested_execution_date ?? "",
    reference: batch.reference ?? "",
    debtor_account_id: batch.debtor_account_id ?? "",
    instructions: instructions.map((i) => ({
      amount: i.amount,
      currency: i.currency,
      creditor_name: i.creditor_name,
      creditor_iban: i.creditor_iban,
      end_to_end_id: i.end_to_end_id,
      creditor_bic: i.creditor_bic ?? "",
      remittance_information: i.remittance_information,
      counterparty_id: "",
    })),
  };
}
