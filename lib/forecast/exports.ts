/**
 * The forecast's exports (docs/forecast.md#exports), CSV and XLSX with the same columns: the forecast per bucket,
 * company, currency and category with each currency's rate to the reporting currency and its date; the scenario
 * comparison (daily group balance per case, the lowest balance and its date marked) with the rates used. CSV cells
 * go through lib/csv's escaping; the XLSX adds a "Rates" sheet (currency, rate, rate date per case). The variance
 * table (docs/forecast.md#variance): one row per week (category `(all)`) followed by its categories.
 */
import { toCsv } from "../csv/csv-stream";
import { sheet, toXlsx, type ExportColumn } from "../csv/xlsx";
import type { BucketRow } from "./engine";
import { fromUnits, timesRate, toUnits } from "./fixed";
import type { BalanceSummary, FxRate } from "./scenario";
import type { Variance, VarianceFigures } from "./variance";

/** The rate of `currency` to `reporting`: 1 (no date) for the reporting currency itself, undefined without one. */
function rateOf(currency: string, reporting: string, fx: Readonly<Record<string, FxRate>>): FxRate | undefined {
  return currency === reporting ? { rate: "1", date: "" } : fx[currency];
}

function forecastColumns(reporting: string, fx: Readonly<Record<string, FxRate>>): ExportColumn<BucketRow>[] {
  const rate = (c: string) => rateOf(c, reporting, fx);
  return [
    { header: "start", kind: "date", value: (r) => r.start },
    { header: "end", kind: "date", value: (r) => r.end },
    { header: "company_id", value: (r) => r.company },
    { header: "currency", value: (r) => r.currency },
    { header: "category", value: (r) => r.category },
    { header: "amount", kind: "money", value: (r) => r.amount },
    { header: "p10", kind: "money", value: (r) => r.p10 },
    { header: "p90", kind: "money", value: (r) => r.p90 },
    { header: "reporting_currency", value: () => reporting },
    { header: "rate", kind: "rate", value: (r) => rate(r.currency)?.rate },
    { header: "rate_date", kind: "date", value: (r) => rate(r.currency)?.date },
    {
      header: "amount_reporting",
      kind: "money",
      value: (r) => {
        const x = rate(r.currency);
        return x ? fromUnits(timesRate(toUnits(r.amount), x.rate), 2) : "";
      },
    },
  ];
}

/** The forecast rows with their rate and the amount in the reporting currency (empty without a rate). */
export function forecastCsv(
  rows: readonly BucketRow[],
  reporting: string,
  fx: Readonly<Record<string, FxRate>>,
): string {
  return toCsv(rows, forecastColumns(reporting, fx), true);
}

/** One row of a "Rates" sheet: the case (empty for the forecast), the currency, its rate and the rate's date. */
interface RateRow {
  case: string;
  currency: string;
  rate: string;
  date: string;
}

const rateColumns = (reporting: string, withCase: boolean): ExportColumn<RateRow>[] => [
  ...(withCase ? [{ header: "case", value: (r: RateRow) => r.case }] : []),
  { header: "currency", value: (r) => r.currency },
  { header: "reporting_currency", value: () => reporting },
  { header: "rate", kind: "rate", value: (r) => r.rate },
  { header: "rate_date", kind: "date", value: (r) => r.date },
];

/**
 * The forecast as an .xlsx: sheet "Forecast" (the CSV's columns, money as exact number cells where possible —
 * lib/csv/xlsx.ts) and sheet "Rates" (each currency of the rows, its rate to the reporting currency and the rate's
 * date; a currency without a stored rate has an empty rate).
 */
export async function forecastXlsx(
  rows: readonly BucketRow[],
  reporting: string,
  fx: Readonly<Record<string, FxRate>>,
): Promise<Uint8Array<ArrayBuffer>> {
  const currencies = [...new Set([reporting, ...rows.map((r) => r.currency)])].sort();
  const rates: RateRow[] = currencies.map((c) => {
    const x = rateOf(c, reporting, fx);
    return { case: "", currency: c, rate: x?.rate ?? "", date: x?.date ?? "" };
  });
  return toXlsx([
    sheet({ name: "Forecast", rows, columns: forecastColumns(reporting, fx) }),
    sheet({ name: "Rates", rows: rates, columns: rateColumns(reporting, false) }),
  ]);
}

/** One case of a comparison: its name, its balances and the rates it used (a scenario may override one). */
export interface ComparisonCase {
  name: string;
  balances: BalanceSummary;
  fx: Readonly<Record<string, FxRate>>;
}

type ComparisonRow = { c: ComparisonCase; date: string; amount: string };

const sortedRates = (c: ComparisonCase) => Object.entries(c.fx).sort(([a], [b]) => (a < b ? -1 : 1));

function comparisonColumns(reporting: string): ExportColumn<ComparisonRow>[] {
  const rates = (c: ComparisonCase) =>
    sortedRates(c)
      .map(([cur, r]) => `${cur} ${r.rate} (${r.date})`)
      .join("; ");
  return [
    { header: "case", value: (r) => r.c.name },
    { header: "date", kind: "date", value: (r) => r.date },
    { header: "balance", kind: "money", value: (r) => r.amount },
    { header: "reporting_currency", value: () => reporting },
    { header: "lowest", value: (r) => (r.c.balances.reporting.lowest.date === r.date ? "yes" : "") },
    { header: "lowest_balance", kind: "money", value: (r) => r.c.balances.reporting.lowest.amount },
    { header: "lowest_date", kind: "date", value: (r) => r.c.balances.reporting.lowest.date },
    {
      header: "breaches",
      value: (r) => r.c.balances.breaches.map((b) => `${b.company} from ${b.first_breach}`).join("; "),
    },
    { header: "rates", value: (r) => rates(r.c) },
  ];
}

const comparisonRows = (cases: readonly ComparisonCase[]): ComparisonRow[] =>
  cases.flatMap((c) => c.balances.path.map((p) => ({ c, date: p.date, amount: p.amount })));

/**
 * The daily group balance of each case in the reporting currency, one row per case and day: `lowest` is `yes` on
 * the day of the case's lowest balance; `rates` lists the rates the case used with their dates
 * (`USD 0.93 (2026-11-24)`); `breaches` the companies below their minimum cash with the first day.
 */
export function comparisonCsv(cases: readonly ComparisonCase[], reporting: string): string {
  return toCsv(comparisonRows(cases), comparisonColumns(reporting), true);
}

/**
 * The comparison as an .xlsx: sheet "Comparison" (the CSV's columns) and sheet "Rates" (one row per case and
 * currency with the rate and its date; a scenario's own rate is dated `scenario`, kept as text).
 */
export async function comparisonXlsx(
  cases: readonly ComparisonCase[],
  reporting: string,
): Promise<Uint8Array<ArrayBuffer>> {
  const rates: RateRow[] = cases.flatMap((c) =>
    sortedRates(c).map(([currency, r]) => ({ case: c.name, currency, rate: r.rate, date: r.date })),
  );
  return toXlsx([
    sheet({ name: "Comparison", rows: comparisonRows(cases), columns: comparisonColumns(reporting) }),
    sheet({ name: "Rates", rows: rates, columns: rateColumns(reporting, true) }),
  ]);
}

type VarianceRow = VarianceFigures & {
  week_start: string;
  week_end: string;
  iso_week: string;
  snapshot_as_of: string;
  category: string;
};

function varianceColumns(reporting: string): ExportColumn<VarianceRow>[] {
  return [
    { header: "week_start", kind: "date", value: (r) => r.week_start },
    { header: "week_end", kind: "date", value: (r) => r.week_end },
    { header: "iso_week", value: (r) => r.iso_week },
    { header: "category", value: (r) => r.category },
    { header: "forecast", kind: "money", value: (r) => r.forecast },
    { header: "actual", kind: "money", value: (r) => r.actual },
    { header: "difference", kind: "money", value: (r) => r.difference },
    { header: "percent", kind: "rate", value: (r) => r.percent ?? "" },
    { header: "reporting_currency", value: () => reporting },
    { header: "snapshot_as_of", kind: "date", value: (r) => r.snapshot_as_of },
  ];
}

function varianceRows(v: Variance): VarianceRow[] {
  return v.weeks.flatMap((w) => {
    const head = {
      week_start: w.week_start,
      week_end: w.week_end,
      iso_week: w.iso_week,
      snapshot_as_of: w.snapshot_as_of,
    };
    return [
      {
        ...head,
        category: "(all)",
        forecast: w.forecast,
        actual: w.actual,
        difference: w.difference,
        percent: w.percent,
      },
      ...w.categories.map((c) => ({ ...head, ...c })),
    ];
  });
}

/**
 * The variance table as CSV: per week a `(all)` row and one row per category, forecast, actual, `difference` (actual −
 * forecast), `percent` (empty when the actual is 0) in the reporting currency, and the snapshot's `as_of`.
 */
export function varianceCsv(v: Variance): string {
  return toCsv(varianceRows(v), varianceColumns(v.reporting_currency), true);
}

/** The variance table as an .xlsx: sheet "Variance" (the CSV's columns) and sheet "Rates" (the rates used). */
export async function varianceXlsx(
  v: Variance,
  rates: readonly { currency: string; rate: string; date: string }[],
): Promise<Uint8Array<ArrayBuffer>> {
  const rc = v.reporting_currency;
  return toXlsx([
    sheet({ name: "Variance", rows: varianceRows(v), columns: varianceColumns(rc) }),
    sheet({
      name: "Rates",
      rows: rates.map((r) => ({ case: "", ...r })),
      columns: rateColumns(rc, false),
    }),
  ]);
}
