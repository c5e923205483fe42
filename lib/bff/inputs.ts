/**
 * Query-string schemas of the BFF routes, built from the contract. Each
 * schema names the parameters a route accepts; anything else in the query
 * string is dropped (zod strips unknown keys), never forwarded (spec §4:
 * unknown filter values must not be sent). Usable by the browser too.
 */
import { z } from "zod";
import {
  BalanceType,
  BatchStatus,
  CurrencyCode,
  Direction,
  InstructionStatus,
  IsoDate,
  LimitParam,
  MatchState,
  PageParam,
  PageSizeParam,
  Uuid,
} from "../contract";

const paging = { page: PageParam.optional(), page_size: PageSizeParam.optional() };
const dates = { from_date: IsoDate.optional(), to_date: IsoDate.optional() };

export const PagingQuery = z.object(paging);
export const AccountsQuery = z.object({
  ...paging,
  currency: CurrencyCode.optional(),
  status: z.enum(["active", "closed"]).optional(),
});
export const AccountTransactionsQuery = z.object({
  ...paging,
  ...dates,
  direction: Direction.optional(),
  limit: LimitParam.optional(),
});
export const BalancesQuery = z.object({ ...paging, ...dates, balance_type: BalanceType.optional() });
export const CoverageQuery = z.object({ ...paging, ...dates });
export const IntradayQuery = z.object({
  ...paging,
  ...dates,
  date: IsoDate.optional(),
  balance_type: BalanceType.optional(),
  limit: LimitParam.optional(),
});
export const TransactionsQuery = z.object({
  ...paging,
  ...dates,
  account_id: Uuid.optional(),
  direction: Direction.optional(),
  currency: CurrencyCode.optional(),
  limit: LimitParam.optional(),
});
export const BatchesQuery = z.object({ ...paging, ...dates, status: BatchStatus.optional() });
export const BatchInstructionsQuery = z.object({ ...paging, status: InstructionStatus.optional() });
export const StatusEventsQuery = z.object({
  ...paging,
  ...dates,
  status: InstructionStatus.optional(),
  batch_id: Uuid.optional(),
  instruction_id: Uuid.optional(),
});
export const MatchesQuery = z.object({
  ...paging,
  state: MatchState.optional(),
  transaction_id: Uuid.optional(),
  payment_instruction_id: Uuid.optional(),
  company_id: Uuid.optional(),
});
export const ApprovalsQuery = z.object({ ...paging, company_id: Uuid.optional() });
/** Decisions on cross-company objects may name the object's company (checked against the user's companies). */
export const CompanyOverride = z.object({ company_id: Uuid.optional() });
export const ReportQuery = z.object({ ...paging, ...dates, currency: CurrencyCode.optional() });
export const ForecastQuery = ReportQuery.extend({
  days: z
    .string()
    .regex(/^\d{1,3}$/, { message: "must be a whole number of days" })
    .transform(Number)
    .pipe(z.number().int().min(1).max(366))
    .optional(),
});
export const DeliveriesQuery = z.object({ ...paging, status: z.enum(["pending", "delivered", "failed"]).optional() });

/** Body of approve / reject from the browser: an optional reason (the approver is the signed-in user). */
export const DecisionBody = z
  .object({ reason: z.string().trim().max(500).optional() })
  .strict()
  .optional();
export const AuditQuery = z.object({
  before: z.iso.datetime({ offset: true }).optional(),
  action: z.string().max(80).optional(),
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
