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
 * Conversion: lib/fx/convert.ts at the line's booking date (cross via EUR; the latest earlier rate within 7 days is
 * used and marked stale; beyond that the line stays unconverted, counted in `unconverted` and left out of the
 * converted figures, never dropped from `lines`). Inflow and outflow are converted on their own and rounded half to
 * even to the reporting currency's minor units; the converted net is converted inflow − converted outflow — the
 * same rule as the group cashflow report, so each line adds up in the reporting currency. Every other figure
 * (a category, a company, a company within a category, the total) is the exact sum of its lines' rounded values.
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
import { convertLines, type LineConversion } from "./conversion";

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
  type Acc = {
    company: Company;
    category: string;
    date: string;
    currency: string;
    count: number;
    inflow: Decimal;
    outflow: Decimal;
  };
  const acc = new Map<string, Acc>();
  companies.forEach((company, i) => {
    for (const tx of reads.results[i]?.transactions ?? []) {
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

  const converted = await convertLines(
    [...acc.values()].map((g) => ({
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
    })),
    { reportingCurrency, dateOf: (l) => l.date, loadRates: input.loadRates },
  );

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
