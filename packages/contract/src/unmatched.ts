/**
 * Unmatched reconciliation items and manual matches (extensions of the local
 * Treasury API; the spec can neither list what is unmatched nor create a match).
 *
 * - `GET /reconciliation/unmatched?kind=instruction|transaction|rejected`: settled payment instructions without a
 *   confirmed match, booked debit transactions without one, or payment instructions the bank rejected (never
 *   proposed for a match: no booking will come; listed with the bank's reason), oldest first, with the filters of
 *   `UnmatchedListQuery`.
 * - `POST /reconciliation/matches` with `ManualMatchCreate`: a match created `confirmed` by hand.
 */
import { z } from "zod";
import { CurrencyCode, DecimalString, IsoDate, Uuid, freeText, plainString, text } from "./common";

export const UNMATCHED_KINDS = ["instruction", "transaction", "rejected"] as const;
export const UnmatchedKind = z.enum(UNMATCHED_KINDS, { message: "must be instruction, transaction or rejected" });
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
 * its requested execution date), the value date of a transaction, or the day a rejected instruction was rejected
 * (its `rejected` status event). `reason` / `reason_text`: the bank's ISO 20022 reason code and its text, for a
 * rejected instruction (null otherwise). `account_id` / `account_name`: the booking
 * account of a transaction, the debtor account of an instruction's batch when one was chosen, else the account the bank booked it
 * on (else null); for a rejected instruction the account its batch was to be paid from (the chosen one, else the
 * company's first active account in the currency, as the bank would have debited).
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
    status: z.string().meta({ description: "Instruction status (settled or rejected), or `booked` for a transaction" }),
    proposed_matches: z.number().int().min(0),
    reason: z
      .string()
      .nullable()
      .optional()
      .meta({ description: "kind=rejected: the bank's ISO 20022 reason code (e.g. AC04)" }),
    reason_text: z
      .string()
      .nullable()
      .optional()
      .meta({ description: "kind=rejected: the reason code's text and the bank's own words, when known" }),
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
