/**
 * Group reports: the daily cashflow, positions or forecast of every company a
 * user may see, summed in one reporting currency, with a per-company
 * breakdown and every row's original and converted amounts for the CSV.
 *
 * Figures per report kind (`metrics`):
 * - `cashflow`: `inflow`, `outflow` (positive, as the API gives it) and
 *   `net`. Inflow and outflow are converted; the converted net is converted
 *   inflow minus converted outflow, so each line adds up in the reporting
 *   currency. A company's or the group's figure for the range is the sum of
 *   its days.
 * - `positions`: `balance` per day. A balance is a stock, not a flow: the
 *   figure for the range is the one of the last day shown (`endDate`), the
 *   group's is the sum of the companies' balances of that day.
 * - `forecast`: `amount` (a projected balance) per future day; the figure for
 *   the range is the one of the last forecast day, like positions.
 *
 * Conversion: lib/fx/convert.ts (cross via EUR; each amount rounded half to
 * even to the reporting currency's minor units, and every total is the sum of
 * those rounded values). Cashflow and positions use the rate of the row's
 * date (or the latest earlier one within 7 days, marked stale). Forecast rows
 * lie in the future, where no rate exists yet: they use the rate of today
 * (or the latest earlier one within 7 days) — `rateDate` says which. A row
 * without a usable rate stays in its own currency, counted in `unconverted`
 * and left out of the converted sums, never dropped from `lines`.
 *
 * Reads: only the companies passed in (the caller passes the user's visible
 * companies), at most `concurrency` in flight. A company whose read fails is
 * left out of every figure and named in `failedCompanies`.
 *
 * Pure: reads and rates come in as functions, so it is tested without a server.
 */
import Decimal from "decimal.js";
import type { CashflowDay, Company, ForecastEntry, PositionDay } from "@treasury/contract";
import type { FxRates } from "../fx/convert";
import { isoMinorUnits } from "../fx/currencies";
import { readCompanies, type FailedCompany } from "./company-reads";
import { convertLines, type LineConversion } from "./conversion";

export type GroupReportKind = "cashflow" | "positions" | "forecast";

/** The rows a report reads per company, by kind. */
export interface GroupReportRows {
  cashflow: CashflowDay;
  positions: PositionDay;
  forecast: ForecastEntry;
}

/** The figures of each kind, in column order. */
export const REPORT_METRICS = {
  cashflow: ["inflow", "outflow", "net"],
  positions: ["balance"],
  forecast: ["amount"],
} as const satisfies Record<GroupReportKind, readonly string[]>;

/** Figure name -> decimal string. */
export type Figures = Record<string, string>;

/** One upstream row with its conversion (at its conversion date, see the module comment), as exported. */
export interface GroupReportLine extends LineConversion<Figures> {
  companyId: string;
  companyName: string;
  date: string;
  currency: string;
  /** The API's figures in `currency`, as given. */
  original: Figures;
}

/** One day of the group: the converted sum and each company's converted sum. */
export interface GroupReportDay {
  date: string;
  total: Figures;
  /** Company id -> converted figures of that company on this day (companies without rows that day absent). */
  byCompany: Record<string, Figures>;
}

/** A company's figure for the whole range (see the module comment per kind). */
export interface GroupReportCompany {
  id: string;
  name: string;
  figures: Figures;
  /** Rows read for the company. */
  lines: number;
  /** Rows that could not be converted (not in `figures`). */
  unconverted: number;
}

export interface GroupReport {
  kind: GroupReportKind;
  reportingCurrency: string;
  metrics: readonly string[];
  /** Days, oldest first. */
  days: GroupReportDay[];
  /** The group's figure for the range (sum of `companies[].figures`). */
  total: Figures;
  /** For positions and forecast: the day whose figures `total` and `companies` show; null for cashflow or no data. */
  endDate: string | null;
  companies: GroupReportCompany[];
  lines: GroupReportLine[];
  /** Rows that could not be converted, per original currency. */
  unconverted: { currency: string; lines: number }[];
  /** Oldest rate date used by a converted line; null when no rate was needed. */
  oldestRateDate: string | null;
  /** Converted lines that used an earlier day's rate. */
  staleRateLines: number;
  failedCompanies: FailedCompany[];
}

export interface GroupReportInput<K extends GroupReportKind> {
  kind: K;
  /** The companies to include: the user's visible companies only. */
  companies: readonly Company[];
  reportingCurrency: string;
  /** Today's date (UTC), `YYYY-MM-DD`: the conversion date of forecast rows. */
  today: string;
  /** Reads one company's rows of the report (all pages). */
  read(company: Company): Promise<GroupReportRows[K][]>;
  /** Loads the rates to convert `currencies` for amounts dated `from`..`to` (e.g. lib/fx `loadFxRates`). */
  loadRates(q: { currencies: string[]; from: string; to: string }): Promise<FxRates>;
  /** Companies read at once at most (default 4). */
  concurrency?: number;
}

function figuresOf(kind: GroupReportKind, row: CashflowDay | PositionDay | ForecastEntry): Figures {
  if (kind === "cashflow") {
    const r = row as CashflowDay;
    return { inflow: r.inflow, outflow: r.outflow, net: r.net };
  }
  if (kind === "positions") return { balance: (row as PositionDay).balance };
  return { amount: (row as ForecastEntry).amount };
}

/** Sums of figures, fixed to the reporting currency's minor units at the end. */
class FigureSum {
  private readonly sums = new Map<string, Decimal>();
  constructor(private readonly metrics: readonly string[]) {
    for (const m of metrics) this.sums.set(m, new Decimal(0));
  }
  add(f: Figures): void {
    for (const m of this.metrics) this.sums.set(m, (this.sums.get(m) ?? new Decimal(0)).plus(f[m] ?? "0"));
  }
  fixed(dp: number): Figures {
    return Object.fromEntries(this.metrics.map((m) => [m, (this.sums.get(m) ?? new Decimal(0)).toFixed(dp)]));
  }
}

/**
 * The converted `lines` summed per day, in all and per company id, each figure of `metrics` fixed to `dp` decimals;
 * days sorted by date. Lines without a conversion are left out.
 */
function dailySums(lines: readonly GroupReportLine[], metrics: readonly string[], dp: number): GroupReportDay[] {
  const days = new Map<string, { total: FigureSum; byCompany: Map<string, FigureSum> }>();
  for (const l of lines) {
    if (!l.converted) continue;
    let d = days.get(l.date);
    if (!d) days.set(l.date, (d = { total: new FigureSum(metrics), byCompany: new Map() }));
    d.total.add(l.converted);
    let c = d.byCompany.get(l.companyId);
    if (!c) d.byCompany.set(l.companyId, (c = new FigureSum(metrics)));
    c.add(l.converted);
  }
  return [...days]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([date, d]) => ({
      date,
      total: d.total.fixed(dp),
      byCompany: Object.fromEntries([...d.byCompany].map(([id, s]) => [id, s.fixed(dp)])),
    }));
}

/**
 * Reads the report of every company and sums it in the reporting currency
 * (rules in the module comment).
 * @throws RangeError when `reportingCurrency` is not a currency code (before any read); a failing
 *   `loadRates` rejects.
 */
export async function groupReport<K extends GroupReportKind>(input: GroupReportInput<K>): Promise<GroupReport> {
  const { kind, companies, reportingCurrency, today } = input;
  const dp = isoMinorUnits(reportingCurrency); // throws for a malformed code before any read
  const metrics = REPORT_METRICS[kind];
  const reads = await readCompanies(
    companies,
    input.concurrency ?? 4,
    (c) => input.read(c),
    () => [],
  );

  const conversionDate = (date: string) => (kind === "forecast" && date > today ? today : date);
  const converted = await convertLines(
    companies.flatMap((company, i) =>
      (reads.results[i] ?? []).map((row) => ({
        companyId: company.id,
        companyName: company.name,
        date: row.date,
        currency: row.currency,
        original: figuresOf(kind, row),
      })),
    ),
    { reportingCurrency, dateOf: (l) => conversionDate(l.date), loadRates: input.loadRates },
  );
  const lines: GroupReportLine[] = converted.lines;

  const dayList = dailySums(lines, metrics, dp);

  const isStock = kind !== "cashflow";
  const endDate = isStock ? (dayList[dayList.length - 1]?.date ?? null) : null;
  const included = companies.filter((c) => !reads.failed.has(c.id));
  const zero = new FigureSum(metrics).fixed(dp);
  const companyRows: GroupReportCompany[] = included.map((c) => {
    const own = lines.filter((l) => l.companyId === c.id);
    const sum = new FigureSum(metrics);
    if (isStock) {
      const end = dayList[dayList.length - 1]?.byCompany[c.id];
      if (end) sum.add(end);
    } else for (const d of dayList) if (d.byCompany[c.id]) sum.add(d.byCompany[c.id] ?? zero);
    return {
      id: c.id,
      name: c.name,
      figures: sum.fixed(dp),
      lines: own.length,
      unconverted: own.filter((l) => !l.converted).length,
    };
  });
  const total = new FigureSum(metrics);
  for (const c of companyRows) total.add(c.figures);

  return {
    kind,
    reportingCurrency,
    metrics,
    days: dayList,
    total: total.fixed(dp),
    endDate,
    companies: companyRows,
    lines,
    unconverted: converted.unconverted,
    oldestRateDate: converted.oldestRateDate,
    staleRateLines: converted.staleRateLines,
    failedCompanies: reads.failedCompanies,
  };
}
