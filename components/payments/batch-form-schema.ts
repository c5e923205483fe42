/**
 * The new-batch form's values and their validation (issue 6 §1). The form
 * is checked with the contract's `PaymentBatchCreate` (zod resolver), after
 * the two things a person does not type: each row's currency is the batch
 * currency, and an empty execution date is left out. So the browser and the
 * BFF apply exactly the same rules (IBAN mod-97, the currency's digits,
 * unique end-to-end ids, creditor name required).
 */
import Decimal from "decimal.js";
import { zodResolver } from "@hookform/resolvers/zod";
import type { Resolver } from "react-hook-form";
import { PaymentBatchCreate, type PaymentBatchCreate as BatchBody } from "@/lib/contract";

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
    instructions: v.instructions.map((r) => ({ amount: r.amount.trim(), currency: v.currency, creditor_name: r.creditor_name, creditor_iban: r.creditor_iban, end_to_end_id: r.end_to_end_id })),
  } as BatchBody;
}

const contractResolver = zodResolver(PaymentBatchCreate);

/** react-hook-form resolver: the contract schema over `toBody(values)`; errors keep the form's field paths. */
export const batchResolver: Resolver<BatchFormValues> = async (values, context, options) => {
  const r = await contractResolver(toBody(values) as never, context, options as never);
  return Object.keys(r.errors).length ? { values: {}, errors: r.errors as never } : { values, errors: {} };
};

/**
 * Exact running total and count of the rows (decimal.js, never floats);
 * rows whose amount is not a decimal yet are counted in `invalid` and left
 * out of the total.
 */
export function runningTotal(rows: readonly Pick<InstructionRow, "amount">[]): { total: string; count: number; invalid: number } {
  let sum = new Decimal(0);
  let dp = 0;
  let invalid = 0;
  for (const r of rows) {
    const a = r.amount.trim();
    if (!/^\d{1,18}(\.\d{1,6})?$/.test(a)) {
      invalid++;
      continue;
    }
    dp = Math.max(dp, (a.split(".")[1] ?? "").length);
    sum = sum.plus(a);
  }
  return { total: sum.toFixed(dp), count: rows.length, invalid };
}
