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
import type { CashflowDay, Company, ForecastEntry, PositionDay } from "../contract";
import type { FxRates } from "../fx/convert";
import { isoMinorUnits } from "../fx/currencies";
import { mapLimit } from "../bff/queries/map-limit";

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

/** One upstream row with its conversion, as exported. */
export interface GroupReportLine {
  companyId: string;
  companyName: string;
  date: string;
  currency: string;
  /** The API's figures in `currency`, as given. */
  original: Figures;
  /** The figures in the reporting currency; null when the row could not be converted. */
  converted: Figures | null;
  /** 1 `currency` = `rate` reporting currency (10 significant digits); null when unconverted. */
  rate: string | null;
  /** The date of the rate used (the oldest leg); null when unconverted. */
  rateDate: string | null;
  /** True when a rate older than the row's conversion date was used. */
  staleRate: boolean;
  /** Why the row was not converted, or null. */
  unconvertedReason: "no_rate" | "rate_too_old" | null;
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
  failedCompanies: { id: string; name: string; message: string }[];
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

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
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
 * Reads the report of every company and sums it in the reporting currency
 * (rules in the module comment).
 * @throws RangeError when `reportingCurrency` is not a currency code (before any read); a failing
 *   `loadRates` rejects.
 */
export async function groupReport<K extends GroupReportKind>(input: GroupReportInput<K>): Promise<GroupReport> {
  const { kind, companies, reportingCurrency, today } = input;
  const dp = isoMinorUnits(reportingCurrency); // throws for a malformed code before any read
  const metrics = REPORT_METRICS[kind];
  const failed = new Map<string, string>();
  const read = await mapLimit(companies, input.concurrency ?? 4, async (company) => {
    try {
      return await input.read(company);
    } catch (err) {
      failed.set(company.id, messageOf(err));
      return [];
    }
  });

  const conversionDate = (date: string) => (kind === "forecast" && date > today ? today : date);
  const rows = companies.flatMap((company, i) => (read[i] ?? []).map((row) => ({ company, row })));
  const dates = rows.map((r) => conversionDate(r.row.date)).sort();
  const rates =
    rows.length > 0
      ? await input.loadRates({
          currencies: [...new Set([...rows.map((r) => r.row.currency), reportingCurrency])],
          from: dates[0] ?? today,
          to: dates[dates.length - 1] ?? today,
        })
      : null;

  const lines: GroupReportLine[] = rows.map(({ company, row }) => {
    const original = figuresOf(kind, row);
    const base = { companyId: company.id, companyName: company.name, date: row.date, currency: row.currency, original };
    const date = conversionDate(row.date);
    // Converting 1 unit gives the rate and its date once per row; each figure is then converted on its own.
    const unit = rates?.convert("1", row.currency, reportingCurrency, date);
    if (!rates || !unit || unit.status === "unconverted")
      return {
        ...base,
        converted: null,
        rate: null,
        rateDate: null,
        staleRate: false,
        unconvertedReason: unit?.status === "unconverted" ? unit.reason : "no_rate",
      };
    const converted: Figures = {};
    for (const m of metrics) {
      if (m === "net") continue;
      const c = rates.convert(original[m] ?? "0", row.currency, reportingCurrency, date);
      converted[m] = c.status === "converted" ? c.value : "0";
    }
    if (kind === "cashflow")
      converted.net = new Decimal(converted.inflow ?? "0").minus(converted.outflow ?? "0").toFixed(dp);
    return {
      ...base,
      converted,
      rate: unit.rate,
      rateDate: unit.rateDate,
      staleRate: unit.stale,
      unconvertedReason: null,
    };
  });

  // Per day, per company.
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
  const dayList: GroupReportDay[] = [...days]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([date, d]) => ({
      date,
      total: d.total.fixed(dp),
      byCompany: Object.fromEntries([...d.byCompany].map(([id, s]) => [id, s.fixed(dp)])),
    }));

  const isStock = kind !== "cashflow";
  const endDate = isStock ? (dayList[dayList.length - 1]?.date ?? null) : null;
  const included = companies.filter((c) => !failed.has(c.id));
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

  const unconverted = new Map<string, number>();
  let oldest: string | null = null;
  let stale = 0;
  for (const l of lines) {
    if (!l.converted) unconverted.set(l.currency, (unconverted.get(l.currency) ?? 0) + 1);
    else {
      if (l.staleRate) stale++;
      if (l.currency !== reportingCurrency && l.rateDate && (oldest === null || l.rateDate < oldest))
        oldest = l.rateDate;
    }
  }

  return {
    kind,
    reportingCurrency,
    metrics,
    days: dayList,
    total: total.fixed(dp),
    endDate,
    companies: companyRows,
    lines,
    unconverted: [...unconverted].sort(([a], [b]) => (a < b ? -1 : 1)).map(([currency, n]) => ({ currency, lines: n })),
    oldestRateDate: oldest,
    staleRateLines: stale,
    failedCompanies: companies
      .filter((c) => failed.has(c.id))
      .map((c) => ({ id: c.id, name: c.name, message: failed.get(c.id) ?? "" })),
  };
}
