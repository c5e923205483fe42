/**
 * The group cashflow by category: the transactions of a range of every company a user may see, categorised with
 * the admin's rules (lib/categories/rules.ts, first matching rule wins, else `Uncategorised`) and summed per
 * category in one reporting currency, with a per-company breakdown and every line's original and converted
 * figures for the CSV.
 *
 * Lines: one per (company, category, booking date, currency): the number of transactions and their inflow and
 * outflow (absolute amounts, exact decimal sums, 2 decimals) and net = inflow − outflow, in the transactions'
 * currency. The booking date is the bank's (`booked_date`), else the date part of `booked_at`.
 *
 * Conversion: on the group cashflow report's basis (`convertByDay`): each company's day in one currency is converted
 * as one line at its booking date, as the report converts the API's cashflow row of that day (lib/fx/convert.ts,
 * cross via EUR; the latest earlier rate within 7 days is used and marked stale; beyond that the lines stay
 * unconverted, counted in `unconverted` and left out of the converted figures, never dropped from `lines`). The
 * day's converted inflow and outflow are split across its categories in proportion to their original amounts
 * (largest remainder, to the minor unit), and net = inflow − outflow, so every line adds up, the categories of a
 * day add up to the report's day, and the total equals the report's summary to the cent. Every other figure
 * (a category, a company, a company within a category, the total) is the exact sum of its lines' values.
 *
 * Reads: only the companies passed in (the caller passes the user's visible companies), at most `concurrency` in
 * flight. A company whose read fails is left out of every figure and named in `failedCompanies`; a company whose
 * range holds more transactions than one read takes is named in `truncatedCompanies` (its figures are partial).
 *
 * Pure: reads, rules and rates come in as arguments, so it is tested without a server.
 */
import Decimal from "decimal.js";
import type { Company } from "@treasury/contract";
import { categorise, UNCATEGORISED, type CategorisableTransaction, type CategoryRule } from "../categories/rules";
import type { FxRates } from "../fx/convert";
import { isoMinorUnits } from "../fx/currencies";
import { readCompanies, type FailedCompany } from "./company-reads";
import { convertLines, type ConvertedLines, type LineConversion } from "./conversion";

/** What is read of a transaction: what categorising needs, its currency and its booking date. */
export interface GroupCategoryTransaction extends CategorisableTransaction {
  currency: string;
  /** ISO 8601 timestamp with offset. */
  booked_at: string;
  /** The bank's booking date `YYYY-MM-DD`, when the API gives it. */
  booked_date?: string;
}

/** Inflow, outflow (both positive) and net, decimal strings. */
export interface CategoryFigures {
  inflow: string;
  outflow: string;
  net: string;
}

/** One (company, category, date, currency) line with its conversion at its date, as exported. */
export interface GroupCategoryLine extends LineConversion<CategoryFigures> {
  companyId: string;
  companyName: string;
  category: string;
  date: string;
  currency: string;
  /** Transactions in the line. */
  count: number;
  /** In `currency`, 2 decimals. */
  original: CategoryFigures;
}

/** A company's share of a category, or a company's figures over every category. */
export interface GroupCategoryCompany {
  id: string;
  name: string;
  /** Transactions counted (converted or not). */
  count: number;
  /** Converted figures (unconverted lines left out). */
  figures: CategoryFigures;
  /** Lines that could not be converted (not in `figures`). */
  unconverted: number;
}

/** One category of the group: its converted figures and one entry per company that has transactions in it. */
export interface GroupCategoryRow {
  category: string;
  count: number;
  figures: CategoryFigures;
  unconverted: number;
  /** Companies with transactions in the category, in the order of the companies passed in. */
  byCompany: GroupCategoryCompany[];
}

export interface GroupCategoryReport {
  reportingCurrency: string;
  from: string;
  to: string;
  /** By category name, `Uncategorised` last. */
  categories: GroupCategoryRow[];
  /** Every company read (in the order passed in), its figures over every category. */
  companies: GroupCategoryCompany[];
  /** Sum of `categories[].figures` (equally of `companies[].figures`). */
  total: CategoryFigures;
  lines: GroupCategoryLine[];
  /** Lines that could not be converted, per original currency. */
  unconverted: { currency: string; lines: number }[];
  /** Oldest rate date used by a converted line in another currency; null when no rate was needed. */
  oldestRateDate: string | null;
  /** Converted lines that used an earlier day's rate. */
  staleRateLines: number;
  /** Companies whose range held more transactions than one read takes (partial figures). */
  truncatedCompanies: { id: string; name: string }[];
  failedCompanies: FailedCompany[];
}

export interface GroupCategoryInput {
  /** The companies to include: the user's visible companies only. */
  companies: readonly Company[];
  reportingCurrency: string;
  /** The range read, `YYYY-MM-DD` inclusive (echoed in the result; the reader applies it). */
  from: string;
  to: string;
  /** The category rules (any order; `position` decides). */
  rules: readonly CategoryRule[];
  /** One company's transactions of the range (bounded), and whether the bound cut them. */
  read(company: Company): Promise<{ transactions: GroupCategoryTransaction[]; truncated: boolean }>;
  /** Loads the rates to convert `currencies` for amounts dated `from`..`to` (e.g. lib/fx `loadFxRates`). */
  loadRates(q: { currencies: string[]; from: string; to: string }): Promise<FxRates>;
  /** Companies read at once at most (default 4). */
  concurrency?: number;
}

/** The booking date of `tx`: the bank's, else the date part of `booked_at`. */
export function bookingDate(tx: Pick<GroupCategoryTransaction, "booked_at" | "booked_date">): string {
  return tx.booked_date ?? tx.booked_at.slice(0, 10);
}

/** Running converted sums, fixed to the currency's minor units at the end. */
class Sum {
  inflow = new Decimal(0);
  outflow = new Decimal(0);
  count = 0;
  unconverted = 0;
  add(line: GroupCategoryLine): void {
    this.count += line.count;
    if (!line.converted) {
      this.unconverted += 1;
      return;
    }
    this.inflow = this.inflow.plus(line.converted.inflow);
    this.outflow = this.outflow.plus(line.converted.outflow);
  }
  figures(dp: number): CategoryFigures {
    return {
      inflow: this.inflow.toFixed(dp),
      outflow: this.outflow.toFixed(dp),
      net: this.inflow.minus(this.outflow).toFixed(dp),
    };
  }
}

/** A (company, category, date, currency) group of transactions before conversion: exact original sums. */
interface CategoryAcc {
  company: Company;
  category: string;
  date: string;
  currency: string;
  count: number;
  inflow: Decimal;
  outflow: Decimal;
}

/**
 * Splits `total` (a non-negative amount with `dp` decimals) into parts proportional to `weights` (non-negative
 * exact amounts), each with `dp` decimals, that add up to `total` exactly: the largest-remainder method (ties to
 * the earlier part). All parts are 0 when the weights are.
 */
export function allocate(total: string, weights: readonly Decimal[], dp: number): string[] {
  const scale = new Decimal(10).pow(dp);
  const units = new Decimal(total).times(scale);
  const sum = weights.reduce((a, w) => a.plus(w), new Decimal(0));
  if (sum.isZero()) return weights.map(() => new Decimal(0).toFixed(dp));
  const exact = weights.map((w) => w.times(units).div(sum));
  const parts = exact.map((e) => e.floor());
  let left = units.minus(parts.reduce((a, p) => a.plus(p), new Decimal(0))).toNumber();
  const order = exact.map((e, i) => ({ i, frac: e.minus(e.floor()) })).sort((a, b) => b.frac.cmp(a.frac) || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    parts[i] = (parts[i] ?? new Decimal(0)).plus(1);
    left -= 1;
  }
  return parts.map((p) => p.div(scale).toFixed(dp));
}

/**
 * Converts the category groups on the same basis as the group cashflow report (docs/guides/fx-and-group-reporting.md):
 * each (company, date, currency) day is converted as one line — exactly as the report converts the API's cashflow
 * row of that day — and its converted inflow and outflow are then split across the day's categories in proportion
 * to their original amounts (`allocate`), so the categories of a day add up to the report's day to the cent and the
 * table's total equals the report's summary. Each category line carries its day's rate, rate date and staleness.
 */
async function convertByDay(
  groups: readonly CategoryAcc[],
  reportingCurrency: string,
  dp: number,
  loadRates: GroupCategoryInput["loadRates"],
): Promise<ConvertedLines<GroupCategoryLine>> {
  const days = new Map<string, CategoryAcc[]>();
  for (const g of groups) {
    const key = [g.company.id, g.date, g.currency].join("\u0000");
    days.set(key, [...(days.get(key) ?? []), g]);
  }
  // The day's categories in name order, so the split (ties go to the earlier part) does not depend on read order.
  const dayLines = [...days.values()].map((unsorted) => {
    const gs = [...unsorted].sort((a, b) => (a.category < b.category ? -1 : a.category > b.category ? 1 : 0));
    const inflow = gs.reduce((a, g) => a.plus(g.inflow), new Decimal(0));
    const outflow = gs.reduce((a, g) => a.plus(g.outflow), new Decimal(0));
    const first = gs[0] as CategoryAcc;
    return {
      groups: gs,
      date: first.date,
      currency: first.currency,
      original: { inflow: inflow.toFixed(2), outflow: outflow.toFixed(2), net: inflow.minus(outflow).toFixed(2) },
    };
  });
  const conv = await convertLines(dayLines, { reportingCurrency, dateOf: (l) => l.date, loadRates });
  const lines: GroupCategoryLine[] = conv.lines.flatMap((day) => {
    const c = day.converted;
    const ins = c
      ? allocate(
          c.inflow,
          day.groups.map((g) => g.inflow),
          dp,
        )
      : [];
    const outs = c
      ? allocate(
          c.outflow,
          day.groups.map((g) => g.outflow),
          dp,
        )
      : [];
    return day.groups.map((g, i): GroupCategoryLine => {
      const inflow = ins[i] ?? "0";
      const outflow = outs[i] ?? "0";
      return {
        companyId: g.company.id,
        companyName: g.company.name,
        category: g.category,
        date: g.date,
        currency: g.currency,
        count: g.count,
        original: {
          inflow: g.inflow.toFixed(2),
          outflow: g.outflow.toFixed(2),
          net: g.inflow.minus(g.outflow).toFixed(2),
        },
        converted: c ? { inflow, outflow, net: new Decimal(inflow).minus(outflow).toFixed(dp) } : null,
        rate: day.rate,
        rateDate: day.rateDate,
        staleRate: day.staleRate,
        unconvertedReason: day.unconvertedReason,
      };
    });
  });
  const unconverted = new Map<string, number>();
  for (const l of lines) if (!l.converted) unconverted.set(l.currency, (unconverted.get(l.currency) ?? 0) + 1);
  return {
    lines,
    unconverted: [...unconverted].sort(([a], [b]) => (a < b ? -1 : 1)).map(([currency, n]) => ({ currency, lines: n })),
    oldestRateDate: conv.oldestRateDate,
    staleRateLines: lines.filter((l) => l.converted && l.staleRate).length,
  };
}

/**
 * The transactions of each company (`transactions[i]` of `companies[i]`) categorised with `rules` and summed
 * per (company, category, booking date, currency), exact, inflow and outflow apart, in order of first appearance.
 * @throws on a malformed amount.
 */
function categoryGroups(
  companies: readonly Company[],
  transactions: readonly (readonly GroupCategoryTransaction[] | undefined)[],
  rules: readonly CategoryRule[],
): CategoryAcc[] {
  const acc = new Map<string, CategoryAcc>();
  companies.forEach((company, i) => {
    for (const tx of transactions[i] ?? []) {
      const category = categorise(rules, tx);
      const date = bookingDate(tx);
      const key = [company.id, category, date, tx.currency].join("\u0000");
      let a = acc.get(key);
      if (!a)
        acc.set(
          key,
          (a = {
            company,
            category,
            date,
            currency: tx.currency,
            count: 0,
            inflow: new Decimal(0),
            outflow: new Decimal(0),
          }),
        );
      a.count += 1;
      const amount = new Decimal(tx.amount).abs();
      if (tx.direction === "credit") a.inflow = a.inflow.plus(amount);
      else a.outflow = a.outflow.plus(amount);
    }
  });
  return [...acc.values()];
}

/**
 * The converted sums of `lines` per category (with its per-company sums), per company, and in all.
 */
function categorySums(lines: readonly GroupCategoryLine[]): {
  byCategory: Map<string, { sum: Sum; byCompany: Map<string, Sum> }>;
  byCompany: Map<string, Sum>;
  total: Sum;
} {
  const byCategory = new Map<string, { sum: Sum; byCompany: Map<string, Sum> }>();
  const byCompany = new Map<string, Sum>();
  const total = new Sum();
  for (const l of lines) {
    let c = byCategory.get(l.category);
    if (!c) byCategory.set(l.category, (c = { sum: new Sum(), byCompany: new Map() }));
    c.sum.add(l);
    let cc = c.byCompany.get(l.companyId);
    if (!cc) c.byCompany.set(l.companyId, (cc = new Sum()));
    cc.add(l);
    let co = byCompany.get(l.companyId);
    if (!co) byCompany.set(l.companyId, (co = new Sum()));
    co.add(l);
    total.add(l);
  }
  return { byCategory, byCompany, total };
}

/**
 * Reads every company's transactions and sums them per category in the reporting currency (rules in the module
 * comment).
 * @throws RangeError when `reportingCurrency` is not a currency code (before any read); a failing `loadRates`
 *   rejects.
 */
export async function groupCashflowByCategory(input: GroupCategoryInput): Promise<GroupCategoryReport> {
  const { companies, reportingCurrency, rules } = input;
  const dp = isoMinorUnits(reportingCurrency); // throws for a malformed code before any read
  const reads = await readCompanies(
    companies,
    input.concurrency ?? 4,
    (c) => input.read(c),
    () => ({ transactions: [], truncated: false }),
  );

  // (company, category, date, currency) -> exact original sums.
  const groups = categoryGroups(
    companies,
    reads.results.map((r) => r.transactions),
    rules,
  );
  const converted = await convertByDay(groups, reportingCurrency, dp, input.loadRates);

  const order = new Map(companies.map((c, i) => [c.id, i]));
  const rank = (c: string) => (c === UNCATEGORISED ? 1 : 0);
  const lines: GroupCategoryLine[] = converted.lines.sort(
    (a, b) =>
      rank(a.category) - rank(b.category) ||
      a.category.localeCompare(b.category) ||
      (order.get(a.companyId) ?? 0) - (order.get(b.companyId) ?? 0) ||
      (a.date < b.date ? -1 : a.date > b.date ? 1 : 0) ||
      a.currency.localeCompare(b.currency),
  );

  const { byCategory, byCompany, total } = categorySums(lines);
  const included = companies.filter((c) => !reads.failed.has(c.id));
  const companyOf = (c: Company, s: Sum | undefined): GroupCategoryCompany => ({
    id: c.id,
    name: c.name,
    count: s?.count ?? 0,
    figures: (s ?? new Sum()).figures(dp),
    unconverted: s?.unconverted ?? 0,
  });
  const categories: GroupCategoryRow[] = [...byCategory].map(([category, c]) => ({
    category,
    count: c.sum.count,
    figures: c.sum.figures(dp),
    unconverted: c.sum.unconverted,
    byCompany: included.filter((co) => c.byCompany.has(co.id)).map((co) => companyOf(co, c.byCompany.get(co.id))),
  }));

  return {
    reportingCurrency,
    from: input.from,
    to: input.to,
    categories,
    companies: included.map((c) => companyOf(c, byCompany.get(c.id))),
    total: total.figures(dp),
    lines,
    unconverted: converted.unconverted,
    oldestRateDate: converted.oldestRateDate,
    staleRateLines: converted.staleRateLines,
    truncatedCompanies: companies
      .filter((c, i) => !reads.failed.has(c.id) && reads.results[i]?.truncated)
      .map((c) => ({ id: c.id, name: c.name })),
    failedCompanies: reads.failedCompanies,
  };
}
