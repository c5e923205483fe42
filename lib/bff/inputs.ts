/**
 * Query-string schemas of the BFF routes, built from the contract. Each
 * schema names the parameters a route accepts; anything else in the query
 * string is dropped (zod strips unknown keys), never forwarded (docs/treasury-api.md#list-conventions:
 * a filter the endpoint does not know is never sent). Usable by the browser too.
 */
import { z } from "zod";
import {
  AccountListQuery,
  AccountTransactionListQuery,
  BalanceListQuery,
  BatchListQuery,
  CoverageListQuery,
  DeliveryListQuery,
  InstructionListQuery,
  IntradayListQuery,
  LimitParam,
  MatchListQuery,
  PageParam,
  PageSizeParam,
  ReportListQuery,
  StatusEventListQuery,
  TransactionListQuery,
  Uuid,
} from "@treasury/contract";

/** The BFF's paging: Form B page numbers; some lists also take `limit` as the page size. */
const paging = { page: PageParam.optional(), page_size: PageSizeParam.optional() };
const limit = { limit: LimitParam.optional() };

export const PagingQuery = z.object(paging);
export const AccountsQuery = AccountListQuery.extend(paging);
export const AccountTransactionsQuery = AccountTransactionListQuery.extend({ ...paging, ...limit });
export const BalancesQuery = BalanceListQuery.extend(paging);
export const CoverageQuery = CoverageListQuery.extend(paging);
export const IntradayQuery = IntradayListQuery.extend({ ...paging, ...limit });
export const TransactionsQuery = TransactionListQuery.extend({ ...paging, ...limit });
/**
 * The payments list: the spec filters and paging, and `companies=all` (dashboard-only, never forwarded) for the
 * batches of every company the user may see instead of the selected one's.
 */
export const BatchesQuery = BatchListQuery.extend({ ...paging, companies: z.enum(["all"]).optional() });
export const BatchInstructionsQuery = InstructionListQuery.extend(paging);
export const StatusEventsQuery = StatusEventListQuery.extend(paging);
export const MatchesQuery = MatchListQuery.extend({ ...paging, company_id: Uuid.optional() });
export const ApprovalsQuery = z.object({ ...paging, company_id: Uuid.optional() });
/** Decisions on cross-company objects may name the object's company (checked against the user's companies). */
export const CompanyOverride = z.object({ company_id: Uuid.optional() });
export const ReportQuery = ReportListQuery.extend(paging);
export const ForecastQuery = ReportQuery.extend({
  days: z
    .string()
    .regex(/^\d{1,3}$/, { message: "must be a whole number of days" })
    .transform(Number)
    .pipe(z.number().int().min(1).max(366))
    .optional(),
});
/** The forecast CSV: the report's range plus its horizon, 7, 30 or 90 days (400 naming `horizon` otherwise). */
export const ForecastExportQuery = ReportQuery.extend({
  horizon: z.enum(["7", "30", "90"], { message: "must be 7, 30 or 90 (days)" }).transform(Number).optional(),
});
export const DeliveriesQuery = DeliveryListQuery.extend(paging);

/** Body of approve / reject from the browser: an optional reason (the approver is the signed-in user). */
export const DecisionBody = z
  .object({ reason: z.string().trim().max(500).optional() })
  .strict()
  .optional();

/** Body of a rule's move in an ordered list (approval policies, cashflow categories): `{ position }`, 1 = first. */
export const MoveBody = z
  .object({ position: z.number({ message: "must be a whole number from 1" }).int("must be a whole number").min(1) })
  .strict();
export const AuditQuery = z.object({
  before: z.iso.datetime({ offset: true }).optional(),
  action: z.string().max(80).optional(),
  /** `business` (default of the audit page): no sign-in / session events; `sessions`: only those; `all` (default). */
  kind: z.enum(["business", "sessions", "all"], { message: "must be business, sessions or all" }).optional(),
  limit: LimitParam.optional(),
});

/** Body of the company switcher. */
export const CompanySelection = z.object({ company_id: Uuid }).strict();

/** Paging of the BFF's list answers (the shape lives in lib/views, which the browser imports). */
export type { BffPage } from "../views/bff-page";

/** Maps a `page_size` / `limit` query to the client's page parameters. */
export function pageParams(q: { page?: number; page_size?: number; limit?: number }): {
  page?: number;
  pageSize?: number;
} {
  return { page: q.page, pageSize: q.page_size ?? q.limit };
}
