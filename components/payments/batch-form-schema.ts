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
 * the zod-free amount rules of `lib/contract/amounts`.
 */
import type { Resolver } from "react-hook-form";
import type { PaymentBatchCreate as BatchBody } from "@/lib/contract";
import { currencyMinorUnits, isPositiveDecimalString } from "@/lib/contract/amounts";
import { ExactDecimal } from "@/lib/exact-decimal";

export interface InstructionRow {
  amount: string;
  creditor_name: string;
  creditor_iban: string;
  end_to_end_id: string;
  /** Kept equal to the batch currency; not shown. */
  currency: string;
}

export interface BatchFormValues {
  company_id: string;
  currency: string;
  requested_execution_date: string;
  instructions: InstructionRow[];
}

/** An empty instruction row in `currency`. */
export function emptyRow(currency: string): InstructionRow {
  return { amount: "", creditor_name: "", creditor_iban: "", end_to_end_id: "", currency };
}

/** The request body of the form values (POST /payments/batches). */
export function toBody(v: BatchFormValues): BatchBody {
  return {
    company_id: v.company_id,
    currency: v.currency,
    ...(v.requested_execution_date ? { requested_execution_date: v.requested_execution_date } : {}),
    instructions: v.instructions.map((r) => ({
      amount: r.amount.trim(),
      currency: v.currency,
      creditor_name: r.creditor_name,
      creditor_iban: r.creditor_iban,
      end_to_end_id: r.end_to_end_id,
    })),
  } as BatchBody;
}

async function loadContractResolver() {
  const [{ zodResolver }, { PaymentBatchCreate }] = await Promise.all([
    import("@hookform/resolvers/zod"),
    import("@/lib/contract/payments"),
  ]);
  return zodResolver(PaymentBatchCreate);
}

let contractResolver: ReturnType<typeof loadContractResolver> | null = null;

/** react-hook-form resolver: the contract schema over `toBody(values)`; errors keep the form's field paths. */
export const batchResolver: Resolver<BatchFormValues> = async (values, context, options) => {
  // A failed chunk load rejects this validation; the next one tries again.
  contractResolver ??= loadContractResolver().catch((err: unknown) => {
    contractResolver = null;
    throw err;
  });
  const r = await (await contractResolver)(toBody(values) as never, context, options as never);
  return Object.keys(r.errors).length ? { values: {}, errors: r.errors as never } : { values, errors: {} };
};

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
