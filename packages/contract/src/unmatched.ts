/**
 * Unmatched reconciliation items and manual matches (extensions of the local
 * Treasury API; the spec can neither list what is unmatched nor create a match).
 *
 * - `GET /reconciliation/unmatched?kind=instruction|transaction`: settled payment instructions without a confirmed
 *   match, or booked debit transactions without one, oldest first, with the filters of `UnmatchedListQuery`.
 * - `POST /reconciliation/matches` with `ManualMatchCreate`: a match created `confirmed` by hand.
 */
import { z } from "zod";
import { CurrencyCode, DecimalString, IsoDate, Uuid, freeText, plainString, text } from "./common";

export const UNMATCHED_KINDS = ["instruction", "transaction"] as const;
export const UnmatchedKind = z.enum(UNMATCHED_KINDS, { message: "must be instruction or transaction" });
export type UnmatchedKind = z.infer<typeof UnmatchedKind>;

export const UNMATCHED_SORTS = ["date", "-date", "amount", "-amount"] as const;

/** Longest search text of the unmatched list. */
export const UNMATCHED_SEARCH_MAX = 100;

/**
 * Query of `GET /reconciliation/unmatched` (besides paging). `from_date` / `to_date` bound the item's date (an
 * instruction's settlement date, a transaction's value date); amounts bound the absolute amount; `q` searches the
 * counterparty name, end-to-end id and remittance (case-insensitive substring). `sort`: `date` oldest first (the
 * default), `-date` newest first, `amount` / `-amount`.
 */
export const UnmatchedListQuery = z.object({
  kind: UnmatchedKind,
  from_date: IsoDate.optional().meta({ description: "Inclusive start of the item's date" }),
  to_date: IsoDate.optional().meta({ description: "Inclusive end of the item's date" }),
  account_id: Uuid.optional(),
  currency: CurrencyCode.optional(),
  min_amount: DecimalString.optional().meta({ description: "Smallest absolute amount" }),
  max_amount: DecimalString.optional().meta({ description: "Largest absolute amount" }),
  q: plainString()
    .trim()
    .min(1, { message: "must not be empty" })
    .max(UNMATCHED_SEARCH_MAX, { message: `must be at most ${UNMATCHED_SEARCH_MAX} characters` })
    .optional()
    .meta({ description: "Search in counterparty name, end-to-end id and remittance" }),
  sort: z
    .enum(UNMATCHED_SORTS, { message: `must be one of ${UNMATCHED_SORTS.join(", ")}` })
    .optional()
    .meta({ description: "date (oldest first, default), -date, amount, -amount" }),
});

/**
 * One unmatched item. `date` is the settlement date of an instruction (the day of its `settled` status event, else
 * its requested execution date) or the value date of a transaction. `account_id` / `account_name`: the booking
 * account of a transaction, the debtor account of an instruction's batch when one was chosen, else the account the bank booked it
 * on (else null).
 * `proposed_matches`: proposals of this item still awaiting review.
 */
export const UnmatchedItem = z
  .object({
    kind: UnmatchedKind,
    id: Uuid,
    company_id: Uuid,
    account_id: Uuid.nullable(),
    account_name: z.string().nullable(),
    amount: DecimalString.meta({ description: "Absolute amount" }),
    currency: z.string(),
    date: IsoDate,
    counterparty_name: z.string(),
    end_to_end_id: z.string().nullable(),
    remittance: z.string().nullable(),
    batch_id: Uuid.nullable(),
    status: z.string().meta({ description: "Instruction status (settled), or `booked` for a transaction" }),
    proposed_matches: z.number().int().min(0),
  })
  .meta({ id: "UnmatchedItem" });
export type UnmatchedItem = z.infer<typeof UnmatchedItem>;

/**
 * Body of `POST /reconciliation/matches`: the instruction and the transaction to match (same company and currency;
 * the transaction a debit), an optional note and the reviewer (the person, for the audit trail).
 */
export const ManualMatchCreate = z
  .object({
    instruction_id: Uuid,
    transaction_id: Uuid,
    note: freeText(1000).optional(),
    reviewer: text(200).optional(),
  })
  .strict()
  .meta({ id: "ManualMatchCreate" });
export type ManualMatchCreate = z.infer<typeof ManualMatchCreate>;
