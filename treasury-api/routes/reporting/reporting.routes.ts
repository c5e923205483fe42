/**
 * Reporting routes (docs/treasury-api.md#reporting; docs/architecture.md#reports): daily cashflow,
 * daily positions (and their short aliases), forecast. Company-scoped: Form B
 * needs X-Company-ID; Form A without it reports over the whole tenant.
 */
import { z } from "zod";
import { CashflowDay, ForecastEntry, PositionDay } from "@treasury/contract/reporting";
import { ReportListQuery } from "@treasury/contract/list-queries";
import { defineRoute } from "../define-route";
import { listResponse, pagingQuery } from "../../lib/lists";

const rangeDoc =
  "from_date / to_date are inclusive; to_date defaults to today (UTC) and from_date to 29 days before to_date (30 " +
  "days).";
const reportQuery = z.object({ ...pagingQuery, ...ReportListQuery.shape }).strict();

const DaysParam = z
  .string()
  .regex(/^\d+$/, { message: "must be a whole number" })
  .transform(Number)
  .pipe(z.number().int().min(1, { message: "must be at least 1" }).max(366, { message: "must be at most 366" }))
  .meta({ type: "integer", minimum: 1, maximum: 366 });

/** A daily report at `path` (each has an alias path): rows of `item` for the range, `description` then the range's rules. */
const dailyReportRoute = <P extends string, T extends z.ZodType>(
  path: P,
  summary: string,
  description: string,
  item: T,
  rows: string,
) =>
  defineRoute({
    method: "get",
    path,
    tags: ["Reporting"],
    summary,
    description: `${description} ${rangeDoc}`,
    scope: "read:reporting",
    company: "required",
    request: { query: reportQuery },
    responses: { 200: listResponse(item, rows) },
  });

const cashflowRoute = <P extends string>(path: P, summary: string) =>
  dailyReportRoute(
    path,
    summary,
    `Per booking date and currency: inflow (sum of credits), outflow (sum of debits, positive), net = ` +
      `inflow − outflow; exact decimals. Days without bookings have no row. Sorted by date then currency.`,
    CashflowDay,
    "Cashflow days",
  );

const positionsRoute = <P extends string>(path: P, summary: string) =>
  dailyReportRoute(
    path,
    summary,
    `Per date and currency: the sum of the closing_booked balances of that date; exact decimals. Dates ` +
      `without snapshots have no row. Sorted by date then currency.`,
    PositionDay,
    "Position days",
  );

export const cashflowDailyRoute = cashflowRoute("/reporting/cashflow/daily", "Daily cashflow per currency");
export const cashflowAliasRoute = cashflowRoute(
  "/reporting/cashflow",
  "Daily cashflow per currency (alias of /reporting/cashflow/daily)",
);
export const positionsDailyRoute = positionsRoute("/reporting/positions/daily", "Daily cash positions per currency");
export const positionsAliasRoute = positionsRoute(
  "/reporting/positions",
  "Daily cash positions per currency (alias of /reporting/positions/daily)",
);

export const forecastRoute = defineRoute({
  method: "get",
  path: "/reporting/forecast",
  tags: ["Reporting"],
  summary: "Cash forecast per future date and currency",
  description:
    "amount = the latest position (each account's newest closing_booked balance) + the average net flow of the same " +
    "weekday over the last 90 days for every day after that position, − outgoing payment batches (created, " +
    "pending_approval, approved, processing) by requested_execution_date. Rounded to the currency's minor units. " +
    "Default range: the next 30 days (tomorrow onwards); `days` (1–366) sets the length from from_date; from_date " +
    "must not be before today; at most 366 days. Sorted by date then currency.",
  scope: "read:forecast",
  company: "required",
  request: {
    query: reportQuery
      .extend({ days: DaysParam.optional().meta({ description: "Number of days from from_date (default 30)" }) })
      .strict(),
  },
  responses: { 200: listResponse(ForecastEntry, "Forecast entries") },
});
