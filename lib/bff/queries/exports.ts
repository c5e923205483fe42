/**
 * CSV exports of the read views (transactions, reports): the current filter of a
 * list, every page of it, streamed (`lib/csv/csv-stream`) so that a 100,000
 * row export neither waits for nor holds all rows. Each export reads the
 * same upstream list operation as its view, with the same spec filters.
 */
import "server-only";
import type { z } from "zod";
import type { CashflowDay, PositionDay, Transaction } from "@treasury/contract";
import { csvHeaders, csvStream, type CsvColumn } from "../../csv/csv-stream";
import { todayUtc } from "../../dates";
import { signedAmount } from "../../money";
import { resolveDateRange } from "../../url-state/date-range";
import { FORECAST_CSV_COLUMNS, forecastExportRows, type ForecastExportRow } from "../../views/forecast-export";
import { matchesText } from "../../url-state/filters";
import { iterateItems, type Page } from "../../treasury-client";
import { background, companyCall, type BffContext } from "../context";
import type { ReportQuery, TransactionsQuery } from "../inputs";
import { logger } from "../../server/log";
import { treasury } from "../../server/treasury";
import { getForecast, getPositionsRange } from "./views";
import { categorise, type CategoryRule } from "../../categories/rules";
import type { CategoryCashflowRow } from "../../categories/summary";
import { categoryRules, getCashflowByCategory } from "./categories";

const TRANSACTION_COLUMNS: CsvColumn<Transaction>[] = [
  { header: "id", value: (t) => t.id },
  { header: "account_id", value: (t) => t.account_id },
  { header: "booked_date", value: (t) => t.booked_date ?? t.booked_at.slice(0, 10) },
  { header: "value_date", value: (t) => t.value_date ?? t.value_at.slice(0, 10) },
  { header: "booked_at", value: (t) => t.booked_at },
  { header: "direction", value: (t) => t.direction },
  { header: "amount", value: (t) => signedAmount(t.amount, t.direction) },
  { header: "currency", value: (t) => t.currency },
  { header: "counterparty_name", value: (t) => t.counterparty_name },
  { header: "remittance", value: (t) => t.remittance },
  { header: "end_to_end_id", value: (t) => t.end_to_end_id ?? "" },
];

/** The transaction columns plus `category` (computed with the rules read once per export). */
function transactionColumns(rules: readonly CategoryRule[]): CsvColumn<Transaction>[] {
  return [...TRANSACTION_COLUMNS, { header: "category", value: (t) => categorise(rules, t) }];
}

async function* filtered<T>(items: AsyncIterable<T>, keep: (t: T) => boolean): AsyncGenerator<T> {
  for await (const t of items) if (keep(t)) yield t;
}

function stream<T>(
  ctx: BffContext,
  first: Promise<Page<T>>,
  columns: CsvColumn<T>[],
  fileName: string,
  keep?: (t: T) => boolean,
) {
  return first.then((page) => {
    const items = iterateItems(page, { maxPages: 10_000 });
    const body = csvStream(keep ? filtered(items, keep) : items, columns, {
      onError: (err) => logger.error({ requestId: ctx.requestId, err }, "csv export failed midway"),
    });
    // With a text filter the upstream count is an upper bound; the progress bar then shows rows only.
    return new Response(body, { status: 200, headers: csvHeaders(fileName, keep ? null : page.count) });
  });
}

/**
 * Transactions of the current filter as CSV; `q` filters counterparty /
 * remittance like the view does. Amounts are signed (debits negative).
 */
export async function exportTransactions(
  ctx: BffContext,
  q: z.output<typeof TransactionsQuery> & { q?: string; category?: string },
): Promise<Response> {
  const rules = await categoryRules();
  const first = treasury().listTransactions(background(companyCall(ctx)), {
    pageSize: 1000,
    from_date: q.from_date,
    to_date: q.to_date,
    account_id: q.account_id,
    direction: q.direction,
    currency: q.currency,
  });
  const text = q.q ?? null;
  const category = q.category ?? null;
  const name = `transactions_${q.from_date ?? "all"}_${q.to_date ?? "all"}.csv`;
  const keep =
    text || category
      ? (t: Transaction) =>
          (!text || matchesText(text, t.counterparty_name, t.remittance, t.end_to_end_id)) &&
          (!category || categorise(rules, t) === category)
      : undefined;
  return stream(ctx, first, transactionColumns(rules), name, keep);
}

type RQ = z.output<typeof ReportQuery>;

/** The range and currency of a daily report, as its first 1,000-row page is asked for. */
type DailyQuery = { pageSize: number; from_date?: string; to_date?: string; currency?: string };

/**
 * A daily report of the range as CSV: one column per key of `keys` (the key is its header, the value as the API
 * gives it), every page read from `first` on, the file named `<name>_<from>_<to>.csv`.
 */
function exportDaily<T>(
  ctx: BffContext,
  q: RQ,
  name: string,
  keys: readonly (keyof T & string)[],
  first: (query: DailyQuery) => Promise<Page<T>>,
): Promise<Response> {
  const cols: CsvColumn<T>[] = keys.map((k) => ({ header: k, value: (r: T) => r[k] as string | number | null }));
  const query = { pageSize: 1000, from_date: q.from_date, to_date: q.to_date, currency: q.currency };
  return stream(ctx, first(query), cols, `${name}_${q.from_date ?? ""}_${q.to_date ?? ""}.csv`);
}

/** Daily cashflow of the range as CSV (date, currency, inflow, outflow, net). */
export function exportCashflow(ctx: BffContext, q: RQ): Promise<Response> {
  return exportDaily<CashflowDay>(ctx, q, "cashflow", ["date", "currency", "inflow", "outflow", "net"], (query) =>
    treasury().cashflowDaily(background(companyCall(ctx)), query),
  );
}

/** Daily positions of the range as CSV (date, currency, balance). */
export function exportPositions(ctx: BffContext, q: RQ): Promise<Response> {
  return exportDaily<PositionDay>(ctx, q, "positions", ["date", "currency", "balance"], (query) =>
    treasury().positionsDaily(background(companyCall(ctx)), query),
  );
}

/**
 * The forecast report as CSV, as it is shown for the chosen range
 * (`from_date`..`to_date`; without them the report's default, the last 30
 * days): per currency the actual daily positions of the range, then the
 * forecast — columns date, currency, kind (`actual` / `forecast`), amount.
 * Read with the same queries as the page, so the file matches the screen.
 */
export async function exportForecast(ctx: BffContext, q: RQ & { horizon?: number }): Promise<Response> {
  const range = resolveDateRange({ from: q.from_date ?? null, to: q.to_date ?? null }, todayUtc(), "30d");
  const [positions, forecast] = await Promise.all([
    getPositionsRange(ctx, range.from_date, range.to_date),
    getForecast(ctx, q.horizon ?? 30),
  ]);
  const rows = forecastExportRows(positions, forecast, range).filter((r) => !q.currency || r.currency === q.currency);
  // The breakdown columns only when the API gives one (an extension): blank on actual rows.
  const keys = forecast.some((f) => f.breakdown)
    ? FORECAST_CSV_COLUMNS
    : (["date", "currency", "kind", "amount"] as const);
  const cols: CsvColumn<ForecastExportRow>[] = keys.map((k) => ({
    header: k,
    value: (r: ForecastExportRow) => r[k] ?? "",
  }));
  async function* each() {
    yield* rows;
  }
  const body = csvStream(each(), cols, {
    onError: (err) => logger.error({ requestId: ctx.requestId, err }, "csv export failed midway"),
  });
  return new Response(body, {
    status: 200,
    headers: csvHeaders(`forecast_${range.from_date}_${range.to_date}.csv`, rows.length),
  });
}

/**
 * The cashflow of the range per currency and category as CSV (currency, category, count, inflow, outflow, net);
 * `Uncategorised` is a category of its own. Computed with the same query as the report's category table.
 */
export async function exportCashflowByCategory(ctx: BffContext, q: RQ): Promise<Response> {
  const range = resolveDateRange({ from: q.from_date ?? null, to: q.to_date ?? null }, todayUtc(), "30d");
  const { rows } = await getCashflowByCategory(ctx, range.from_date, range.to_date);
  const shown = rows.filter((r) => !q.currency || r.currency === q.currency);
  const cols: CsvColumn<CategoryCashflowRow>[] = (
    ["currency", "category", "count", "inflow", "outflow", "net"] as const
  ).map((k) => ({ header: k, value: (r: CategoryCashflowRow) => String(r[k]), text: k === "category" }));
  async function* each() {
    yield* shown;
  }
  const body = csvStream(each(), cols, {
    onError: (err) => logger.error({ requestId: ctx.requestId, err }, "csv export failed midway"),
  });
  return new Response(body, {
    status: 200,
    headers: csvHeaders(`cashflow_categories_${range.from_date}_${range.to_date}.csv`, shown.length),
  });
}
