/**
 * The filters of each list endpoint, defined once: the treasury-api builds
 * its route query from them (plus the paging fields), the BFF extends them
 * with its own paging and company fields, and the treasury client takes the
 * query-string keys it forwards from them. Paging (`page`, `page_size`,
 * `limit`) is not part of these: each side documents and reads it its own
 * way (packages/contract/src/pagination.ts has the parameters).
 */
import { z } from "zod";
import { CurrencyCode, IsoDate, Uuid } from "./common";
import { AccountStatus, BalanceType, Direction } from "./ledger";
import { BatchStatus, InstructionStatus } from "./payments";
import { MatchState } from "./reconciliation";
import { WEBHOOK_DELIVERY_STATUSES } from "./webhooks";

/** The inclusive date range most lists filter on (`from_date` after `to_date` is a 400). */
export const DateRangeQuery = z.object({
  from_date: IsoDate.optional().meta({ description: "Inclusive start date YYYY-MM-DD" }),
  to_date: IsoDate.optional().meta({ description: "Inclusive end date YYYY-MM-DD" }),
});
const dates = DateRangeQuery.shape;

/** `GET /accounts`. */
export const AccountListQuery = z.object({ currency: CurrencyCode.optional(), status: AccountStatus.optional() });
/** Longest window of `GET /accounts/summaries`, days (from_date to to_date inclusive). */
export const SUMMARY_WINDOW_MAX_DAYS = 31;
/** `GET /accounts/summaries` (extension): the window (default the last 8 days up to today, UTC) and the filters. */
export const AccountSummaryQuery = z.object({ ...dates, ...AccountListQuery.shape });
/** `GET /accounts/{id}/transactions`: booking date range and direction. */
export const AccountTransactionListQuery = z.object({ ...dates, direction: Direction.optional() });
/** `GET /accounts/{id}/balances`: as_of_date range and balance type. */
export const BalanceListQuery = z.object({ ...dates, balance_type: BalanceType.optional() });
/** `GET /accounts/{id}/coverage`. */
export const CoverageListQuery = z.object({ ...dates });
/** `GET /accounts/{id}/intraday`: one UTC `date`, or a range of UTC days. */
export const IntradayListQuery = z.object({ ...dates, date: IsoDate.optional(), balance_type: BalanceType.optional() });
/** `GET /transactions`. */
export const TransactionListQuery = z.object({
  ...dates,
  account_id: Uuid.optional(),
  direction: Direction.optional(),
  currency: CurrencyCode.optional(),
});
/** `GET /payments/batches`: batch status, range on the UTC date of created_at. */
export const BatchListQuery = z.object({ ...dates, status: BatchStatus.optional() });
/** `GET /payments/batches/{id}/instructions`. */
export const InstructionListQuery = z.object({ status: InstructionStatus.optional() });
/** `GET /payments/status-events`. */
export const StatusEventListQuery = z.object({
  ...dates,
  status: InstructionStatus.optional(),
  batch_id: Uuid.optional(),
  instruction_id: Uuid.optional(),
});
/** `GET /reconciliation/matches`. */
export const MatchListQuery = z.object({
  state: MatchState.optional(),
  transaction_id: Uuid.optional(),
  payment_instruction_id: Uuid.optional(),
});
/** Most ids one by-id lookup takes (extension lookups below). */
export const LOOKUP_IDS_MAX = 100;
const UUID_RE = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}";
/**
 * `ids` of a by-id lookup (extension): 1 to 100 UUIDs, comma-separated. Kept a plain string (split by the
 * reader, `lookupIds`) so that the OpenAPI document describes it as one query parameter.
 */
export const IdsParam = z
  .string()
  .regex(new RegExp(`^${UUID_RE}(,${UUID_RE}){0,${LOOKUP_IDS_MAX - 1}}$`), {
    message: `must be 1 to ${LOOKUP_IDS_MAX} comma-separated UUIDs`,
  })
  .meta({ description: `Extension: 1 to ${LOOKUP_IDS_MAX} comma-separated UUIDs` });
/** The distinct, lower-cased ids of an `IdsParam` value. */
export function lookupIds(ids: string): string[] {
  return [...new Set(ids.split(",").map((id) => id.toLowerCase()))];
}
/** `GET /payments/instructions` (extension): instructions by id. */
export const InstructionLookupQuery = z.object({ ids: IdsParam });
/** `GET /transactions/lookup` (extension): transactions by id. */
export const TransactionLookupQuery = z.object({ ids: IdsParam });
/** The daily reports and the forecast: range and one currency. */
export const ReportListQuery = z.object({
  ...dates,
  currency: CurrencyCode.optional().meta({ description: "Only this currency" }),
});
/** `GET /webhooks/{id}/deliveries`. */
export const DeliveryListQuery = z.object({ status: z.enum(WEBHOOK_DELIVERY_STATUSES).optional() });
