/**
 * The forecast's CSV exports (docs/forecast.md#the-routes): the forecast per bucket, company, currency and category
 * with each currency's rate to the reporting currency and its date; the scenario comparison (daily group balance
 * per case, the lowest balance and its date marked) with the rates used. Cells go through lib/csv's escaping.
 */
import { toCsv, type CsvColumn } from "../csv/csv-stream";
import type { BucketRow } from "./engine";
import { fromUnits, timesRate, toUnits } from "./fixed";
import type { BalanceSummary, FxRate } from "./scenario";

/** The forecast rows with their rate and the amount in the reporting currency (empty without a rate). */
export function forecastCsv(
  rows: readonly BucketRow[],
  reporting: string,
  fx: Readonly<Record<string, FxRate>>,
): string {
  const rate = (c: string) => (c === reporting ? { rate: "1", date: "" } : fx[c]);
  const cols: CsvColumn<BucketRow>[] = [
    { header: "start", value: (r) => r.start },
    { header: "end", value: (r) => r.end },
    { header: "company_id", value: (r) => r.company },
    { header: "currency", value: (r) => r.currency },
    { header: "category", value: (r) => r.category },
    { header: "amount", value: (r) => r.amount },
    { header: "p10", value: (r) => r.p10 },
    { header: "p90", value: (r) => r.p90 },
    { header: "reporting_currency", value: () => reporting },
    { header: "rate", value: (r) => rate(r.currency)?.rate },
    { header: "rate_date", value: (r) => rate(r.currency)?.date },
    {
      header: "amount_reporting",
      value: (r) => {
        const x = rate(r.currency);
        return x ? fromUnits(timesRate(toUnits(r.amount), x.rate), 2) : "";
      },
    },
  ];
  return toCsv(rows, cols, true);
}

/** One case of a comparison: its name, its balances and the rates it used (a scenario may override one). */
export interface ComparisonCase {
  name: string;
  balances: BalanceSummary;
  fx: Readonly<Record<string, FxRate>>;
}

/**
 * The daily group balance of each case in the reporting currency, one row per case and day: `lowest` is `yes` on
 * the day of the case's lowest balance; `rates` lists the rates the case used with their dates
 * (`USD 0.93 (2026-11-24)`); `breaches` the companies below their minimum cash with the first day.
 */
export function comparisonCsv(cases: readonly ComparisonCase[], reporting: string): string {
  type Row = { c: ComparisonCase; date: string; amount: string };
  const rows: Row[] = cases.flatMap((c) => c.balances.path.map((p) => ({ c, date: p.date, amount: p.amount })));
  const rates = (c: ComparisonCase) =>
    Object.entries(c.fx)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([cur, r]) => `${cur} ${r.rate} (${r.date})`)
      .join("; ");
  const cols: CsvColumn<Row>[] = [
    { header: "case", value: (r) => r.c.name },
    { header: "date", value: (r) => r.date },
    { header: "balance", value: (r) => r.amount },
    { header: "reporting_currency", value: () => reporting },
    { header: "lowest", value: (r) => (r.c.balances.reporting.lowest.date === r.date ? "yes" : "") },
    { header: "lowest_balance", value: (r) => r.c.balances.reporting.lowest.amount },
    { header: "lowest_date", value: (r) => r.c.balances.reporting.lowest.date },
    {
      header: "breaches",
      value: (r) => r.c.balances.breaches.map((b) => `${b.company} from ${b.first_breach}`).join("; "),
    },
    { header: "rates", value: (r) => rates(r.c) },
  ];
  return toCsv(rows, cols, true);
}
