/**
 * Reports (docs/treasury-api.md#reporting, §2 CashflowDay / PositionDay / ForecastEntry;
 * docs/architecture.md#reports). Every figure is computed in SQL with `numeric` and
 * formatted as a decimal string; nothing passes through a float.
 *
 * - cashflow daily: from the `account_day_flows` aggregate (kept by a trigger
 *   on `transactions`), never by scanning transactions, so 13 months over a
 *   million rows stays a few thousand aggregate rows;
 * - positions daily: the sum of `closing_booked` snapshots per date and currency;
 * - forecast: latest position + expected same-weekday net flow − outgoing batches.
 *
 * Functions are `(db, scope, params)`: the `DataScope` is in every `where`.
 * Rows are sorted by date then currency; `limit` / `offset` page them and
 * `count` is the total number of rows (for the Form B envelope).
 */
import Decimal from "decimal.js";
import { sql, type SQL } from "drizzle-orm";
import type { CashflowDay, ForecastEntry, PositionDay } from "@treasury/contract/reporting";
import { currencyMinorUnits } from "@treasury/contract/common";
import { queryRows, type DbOrTx } from "../db/client";
import { formatAmount } from "../lib/format";
import { daysBetween, shiftDate } from "../lib/dates";
import type { DataScope } from "../lib/scope";

/** Batch statuses whose money has not left yet: they lower the forecast on their execution date. */
export const FORECAST_OUTGOING_STATUSES = ["created", "pending_approval", "approved", "processing"] as const;
/** Days of history the same-weekday average looks back over (docs/architecture.md#reports: 90). */
export const FORECAST_LOOKBACK_DAYS = 90;
/** Decimals a same-weekday average keeps (half away from zero) before it is summed. */
export const AVERAGE_SCALE = 6;
/** Default length of a report range when none is given (days). */
export const DEFAULT_REPORT_DAYS = 30;

export interface ReportPage {
  limit: number;
  offset: number;
}

export interface ReportFilter {
  /** Inclusive `YYYY-MM-DD`. */
  fromDate: string;
  /** Inclusive `YYYY-MM-DD`. */
  toDate: string;
  currency?: string;
}

export interface ReportResult<T> {
  rows: T[];
  count: number;
}

/** Today's date (UTC) as `YYYY-MM-DD`. */
export function todayUtc(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

export { daysBetween, shiftDate };

/**
 * The scope as a raw SQL condition on a table alias that has `tenant_id` and
 * `company_id` columns (the raw-SQL twin of `scopeWhere`).
 */
export function scopeSql(scope: DataScope, alias: string): SQL {
  const t = sql.raw(alias);
  if (scope.companyIds === null) return sql`${t}.tenant_id = ${scope.tenantId}`;
  if (scope.companyIds.length === 0) return sql`false`;
  return sql`${t}.tenant_id = ${scope.tenantId} and ${t}.company_id in (${sql.join(
    scope.companyIds.map((id) => sql`${id}::uuid`),
    sql`, `,
  )})`;
}

function currencySql(alias: string, currency: string | undefined): SQL {
  return currency ? sql`and ${sql.raw(alias)}.currency = ${currency}` : sql``;
}

/**
 * Daily cashflow per date and currency: `inflow` = sum of credits, `outflow` =
 * sum of debits (positive), `net` = inflow − outflow. Days without any booking
 * in a currency have no row.
 */
export async function cashflowDaily(
  db: DbOrTx,
  scope: DataScope,
  f: ReportFilter,
  page: ReportPage,
): Promise<ReportResult<CashflowDay>> {
  const rows = await queryRows<{
    date: string;
    currency: string;
    inflow: string;
    outflow: string;
    net: string;
    total: number;
  }>(
    db,
    sql`
    select f.booked_date::text as date, f.currency,
           coalesce(sum(f.amount_sum) filter (where f.direction = 'credit'), 0)::text as inflow,
           coalesce(sum(f.amount_sum) filter (where f.direction = 'debit'), 0)::text as outflow,
           (coalesce(sum(f.amount_sum) filter (where f.direction = 'credit'), 0)
             - coalesce(sum(f.amount_sum) filter (where f.direction = 'debit'), 0))::text as net,
           (count(*) over ())::int as total
    from account_day_flows f
    where ${scopeSql(scope, "f")} and f.booked_date between ${f.fromDate}::date and ${f.toDate}::date
      ${currencySql("f", f.currency)}
    group by f.booked_date, f.currency
    order by f.booked_date, f.currency
    limit ${page.limit} offset ${page.offset}`,
  );
  const count = await totalOf(rows, page, () => cashflowDaily(db, scope, f, FIRST_ROW));
  return {
    rows: rows.map((r) => ({
      date: r.date,
      currency: r.currency,
      inflow: formatAmount(r.inflow, r.currency),
      outflow: formatAmount(r.outflow, r.currency),
      net: formatAmount(r.net, r.currency),
    })),
    count,
  };
}

/**
 * Daily cash position per date and currency: the sum of the `closing_booked`
 * snapshots of that date (docs/architecture.md#reports). A date without snapshots has no row.
 */
export async function positionsDaily(
  db: DbOrTx,
  scope: DataScope,
  f: ReportFilter,
  page: ReportPage,
): Promise<ReportResult<PositionDay>> {
  const where = sql`${scopeSql(scope, "b")} and b.balance_type = 'closing_booked'
    and b.as_of_date between ${f.fromDate}::date and ${f.toDate}::date ${currencySql("b", f.currency)}`;
  const rows = await queryRows<{ date: string; currency: string; balance: string; total: number }>(
    db,
    sql`
    select b.as_of_date::text as date, b.currency, sum(b.balance)::text as balance, (count(*) over ())::int as total
    from balance_snapshots b
    where ${where}
    group by b.as_of_date, b.currency
    order by b.as_of_date, b.currency
    limit ${page.limit} offset ${page.offset}`,
  );
  const count = await totalOf(rows, page, () => positionsDaily(db, scope, f, FIRST_ROW));
  return {
    rows: rows.map((r) => ({ date: r.date, currency: r.currency, balance: formatAmount(r.balance, r.currency) })),
    count,
  };
}

/**
 * Forecast per future date and currency (docs/architecture.md#reports):
 *
 *   amount(D) = P + Σ_{t = base+1 … D} avg_net(weekday(t)) − Σ outgoing batches due by D
 *
 * - P: the latest position, i.e. the sum over the accounts in scope of each
 *   account's newest `closing_booked` snapshot; `base` is the newest of those dates
 *   (when a currency has no snapshot: P = 0 and base = yesterday);
 * - avg_net(w): the net flow (credits − debits, from `account_day_flows`) of the
 *   last 90 days before `today`, summed per ISO weekday and divided by how many
 *   of that weekday the window holds (a day without bookings counts as 0),
 *   rounded to 6 decimals so that the running sum is exact and reproducible;
 * - outgoing: `total_amount` of batches in created / pending_approval / approved /
 *   processing, on `requested_execution_date` (or their creation date when absent);
 *   a batch whose date lies before the first projected day counts on that day.
 *
 * The exact SQL sum is rounded once at the end to the currency's minor units
 * (half-even), because a weekday average is a repeating decimal.
 */
export async function forecast(
  db: DbOrTx,
  scope: DataScope,
  f: ReportFilter & { today: string },
  page: ReportPage,
): Promise<ReportResult<ForecastEntry>> {
  const rows = await queryRows<ForecastRow>(
    db,
    sql`
    ${forecastBaseCtes(scope, f)}
    ${forecastFlowCtes(scope, f)}
    grid as (
      select b.currency, b.balance, b.base_date, g::date as date, greatest(g::date - b.base_date, 0) as k,
        extract(isodow from b.base_date)::int as base_dow
      from base b, generate_series(${f.fromDate}::date, ${f.toDate}::date, interval '1 day') g
    ),
    projected as (
      -- Days base+1 … D of ISO weekday w: the first is base + first_w (first_w = 1…7), then every 7th, so
      -- their number is (k + 7 − first_w) / 7 in integer division, k = D − base. Only the requested days are
      -- computed, however far from the base they lie.
      select g.currency, g.date, g.balance as opening, g.base_date as opening_date,
             coalesce((select sum(a.avg * ((g.k + 7 - (case when (a.dow - g.base_dow + 7) % 7 = 0 then 7 else
               (a.dow - g.base_dow + 7) % 7 end)) / 7))
                         from dow_avg a where a.currency = g.currency), 0) as flows,
             coalesce((select sum(o.amount) from outgoing o where o.currency = g.currency and o.date <= g.date),
               0) as outgoing,
             coalesce((select sum(o.amount) from outgoing o where o.currency = g.currency and o.date = g.date),
               0) as outgoing_today
      from grid g
    )
    select p.date::text as date, p.currency, p.opening::text as opening, p.opening_date::text as opening_date,
      p.flows::text as flows, p.outgoing::text as outgoing, p.outgoing_today::text as outgoing_today,
      (count(*) over ())::int as total
    from projected p
    order by p.date, p.currency
    limit ${page.limit} offset ${page.offset}`,
  );
  return {
    rows: rows.map(forecastEntry),
    count: await totalOf(rows, page, () => forecast(db, scope, f, FIRST_ROW)),
  };
}

/** One row of the forecast query: decimal strings, dates YYYY-MM-DD, and the total row count. */
interface ForecastRow {
  date: string;
  currency: string;
  opening: string;
  opening_date: string;
  flows: string;
  outgoing: string;
  outgoing_today: string;
  total: number;
}

/**
 * The forecast's first CTEs (`accts`, `latest`, `base`): the scope's active accounts, each one's latest closing
 * booked balance on or before today, and per currency their sum P and the base date (yesterday when none).
 * Opens the `with` clause; see {@link forecast}.
 */
function forecastBaseCtes(scope: DataScope, f: ReportFilter & { today: string }): SQL {
  const yesterday = shiftDate(f.today, -1);
  return sql`
with accts as (
      select a.id, a.currency from accounts a where ${scopeSql(scope, "a")} and a.status = 'active'
        ${currencySql("a", f.currency)}
    ),
    latest as (
      select a.currency, lb.as_of_date, lb.balance
      from accts a
      join lateral (
        select b.as_of_date, b.balance from balance_snapshots b
        where b.account_id = a.id and b.balance_type = 'closing_booked' and b.as_of_date <= ${f.today}::date
        order by b.as_of_date desc limit 1
      ) lb on true
    ),
    base as (
      select c.currency, coalesce(sum(l.balance), 0) as balance,
        coalesce(max(l.as_of_date), ${yesterday}::date) as base_date
      from (select distinct currency from accts) c left join latest l on l.currency = c.currency
      group by c.currency
    ),`;
}

/**
 * The forecast's flow CTEs (`weekdays`, `dow_avg`, `outgoing`, each followed by a comma): the 90-day average net
 * flow per currency and ISO weekday (rounded to {@link AVERAGE_SCALE} decimals) and the outgoing batches per
 * currency and day; see {@link forecast}.
 */
function forecastFlowCtes(scope: DataScope, f: ReportFilter & { today: string }): SQL {
  const lookFrom = shiftDate(f.today, -FORECAST_LOOKBACK_DAYS);
  const lookTo = shiftDate(f.today, -1);
  const statuses = sql.join(
    FORECAST_OUTGOING_STATUSES.map((s) => sql`${s}`),
    sql`, `,
  );
  return sql`
    weekdays as (
      select extract(isodow from g)::int as dow, count(*) as n
      from generate_series(${lookFrom}::date, ${lookTo}::date, interval '1 day') g group by 1
    ),
    -- Materialized: referenced once, inside the per-day subquery below, PostgreSQL would otherwise inline it and
    -- aggregate 90 days of account_day_flows again for every projected day.
    dow_avg as materialized (
      select d.currency, d.dow, round(d.net / w.n, ${sql.raw(String(AVERAGE_SCALE))}) as avg
      from (
        select fl.currency, extract(isodow from fl.booked_date)::int as dow,
               sum(case when fl.direction = 'credit' then fl.amount_sum else -fl.amount_sum end) as net
        from account_day_flows fl
        where ${scopeSql(scope, "fl")} and fl.booked_date between ${lookFrom}::date and ${lookTo}::date
          ${currencySql("fl", f.currency)}
        group by 1, 2
      ) d join weekdays w on w.dow = d.dow
    ),
    outgoing as (
      select pb.currency,
        greatest(coalesce(pb.requested_execution_date, pb.created_at::date), bs.base_date + 1) as date,
        sum(pb.total_amount) as amount
      from payment_batches pb join base bs on bs.currency = pb.currency
      where ${scopeSql(scope, "pb")} and pb.status in (${statuses})
      group by 1, 2
    ),`;
}

/**
 * A forecast row as the API answers it: amounts rounded to the currency's minor units (half-even) as decimal
 * strings. Opening and batches are exact in minor units; only the weekday averages need rounding, so the rounded
 * parts add up to the rounded amount exactly.
 */
function forecastEntry(r: ForecastRow): ForecastEntry {
  const flows = roundToMinor(r.flows, r.currency);
  const amount = roundToMinor(new Decimal(r.opening).plus(r.flows).minus(r.outgoing).toFixed(), r.currency);
  return {
    date: r.date,
    currency: r.currency,
    amount,
    breakdown: {
      opening: roundToMinor(r.opening, r.currency),
      opening_date: r.opening_date,
      expected_flows: flows,
      outgoing_batches: roundToMinor(r.outgoing, r.currency),
      outgoing_today: roundToMinor(r.outgoing_today, r.currency),
    },
  };
}

const FIRST_ROW: ReportPage = { limit: 1, offset: 0 };

/**
 * The total row count from the `count(*) over ()` column; a page past the end
 * has no row to carry it, so the first row is fetched again for the total.
 */
async function totalOf(
  rows: { total: number }[],
  page: ReportPage,
  again: () => Promise<{ count: number }>,
): Promise<number> {
  const first = rows[0];
  if (first) return Number(first.total);
  return page.offset > 0 ? (await again()).count : 0;
}

/** Rounds a decimal string half-even to the currency's minor units. */
export function roundToMinor(value: string, currency: string): string {
  let digits = 2;
  try {
    digits = currencyMinorUnits(currency);
  } catch {
    digits = 2;
  }
  return new Decimal(value).toDecimalPlaces(digits, Decimal.ROUND_HALF_EVEN).toFixed(digits);
}
