/**
 * The group cash position: every account of the companies a user may see,
 * each with its headline balance converted into one reporting currency, with
 * totals and breakdowns by company, bank, currency and account.
 *
 * Headline balance of an account: lib/views/headline-balance.ts, the same
 * rule as the accounts list and the account header (today's `interim_booked`
 * when the bank has reported one, else the latest `closing_booked` of a day
 * that has ended). The figure says which (`basis`) and of which day
 * (`asOfDate`).
 *
 * Day-over-day change: the headline against the account's previous figure
 * (the latest closing booked before the headline's day), both converted at
 * their own day's rate, so the change in the reporting currency includes
 * exchange-rate moves. Lines without a convertible previous figure have no
 * change and are left out of the change sums.
 *
 * Conversion: lib/fx/convert.ts (EUR cross rates, a rate up to 7 days older
 * than the balance's date is used and marked stale, beyond that the amount
 * stays unconverted and flagged; each converted value is rounded half-even
 * to the reporting currency's minor units, and every total is the sum of
 * those rounded values, so a table adds up to its total).
 *
 * Reads: only the companies passed in (the caller passes the user's visible
 * companies; no other company is ever fetched), the account list of each,
 * then the balances of each account over the last `lookbackDays` and (when the
 * source can) its statement coverage of the last `gapDays` completed days — a
 * missing or partial day flags `statement_gap` — all under
 * one bound of `concurrency` calls in flight. A company whose account list or
 * any of whose balance reads fails is left out and named in `failedCompanies`
 * (a partial result); the other companies are still shown.
 *
 * Pure: the reads and the rates come in through {@link GroupSource} and
 * `loadRates`, so the function is tested without a server.
 */
import Decimal from "decimal.js";
import type { Account, BalanceSnapshot, Company, CoverageDay } from "@treasury/contract";
import type { Conversion, FxRates } from "../fx/convert";
import { isoMinorUnits } from "../fx/currencies";
import { addDays } from "../fx/dates";
import { mapLimit } from "../bff/queries/map-limit";
import { coverageWindow } from "../views/coverage";
import { headlineBalance as sharedHeadline, isInterim } from "../views/headline-balance";

/** The reads the group position needs, for one company at a time. */
export interface GroupSource {
  /** Every account of `company` (all pages). */
  listAccounts(company: Company): Promise<Account[]>;
  /** Balance snapshots of `account` dated `from`..`to` (inclusive, all pages, all balance types). */
  listBalances(company: Company, account: Account, from: string, to: string): Promise<BalanceSnapshot[]>;
  /**
   * Statement coverage days of `account` dated `from`..`to` (optional: without it no gap is flagged). A failing
   * read leaves the account unflagged; it does not exclude the company.
   */
  listCoverage?(company: Company, account: Account, from: string, to: string): Promise<CoverageDay[]>;
}

export interface GroupPositionInput {
  /** The companies to include: the user's visible companies only. */
  companies: readonly Company[];
  reportingCurrency: string;
  /** Today's date (UTC), `YYYY-MM-DD`. */
  today: string;
  source: GroupSource;
  /** Loads the rates to convert `currencies` for amounts dated `from`..`to` (e.g. lib/fx `loadFxRates`). */
  loadRates(q: { currencies: string[]; from: string; to: string }): Promise<FxRates>;
  /** Upstream calls in flight at most (default 6). */
  concurrency?: number;
  /** Days of balances read back from today (default 7). */
  lookbackDays?: number;
  /** A headline older than this many days before today is flagged stale (default 3). */
  staleAfterDays?: number;
  /** Completed days before today checked for statement gaps (default 7, like the accounts list's strip). */
  gapDays?: number;
  /**
   * The koncern structure (spec koncerner and their breakdown's member companies), for the optional grouping by
   * koncern; omitted: `byKoncern` is empty. A company in no koncern falls under "Not in a koncern".
   */
  koncerner?: readonly { id: string; name: string; companyIds: readonly string[] }[];
}

/** The key of the "Not in a koncern" group of `byKoncern`. */
export const NO_KONCERN = "none";

/** Which figure a headline balance is. */
export type HeadlineBasis = "closing_booked" | "interim_booked";

/** Why a figure is flagged. */
export type PositionFlag =
  /** The account reported no booked balance in the window read. */
  | "no_balance"
  /** The balance is older than `staleAfterDays`. */
  | "stale_balance"
  /** Converted with a rate older than the balance's date (within 7 days). */
  | "stale_rate"
  /** No usable rate: shown in its own currency, not in the converted totals. */
  | "unconverted"
  /** A statement is missing or partial on one of the last `gapDays` completed days. */
  | "statement_gap";

/** One account's line of the group position. */
export interface AccountPosition {
  companyId: string;
  companyName: string;
  /** The koncern the company belongs to (when the structure was given), else null. */
  koncernId: string | null;
  koncernName: string | null;
  accountId: string;
  accountName: string;
  ibanMasked: string;
  bankName: string;
  currency: string;
  /** The headline balance in the account's currency; null when the account reported none. */
  balance: string | null;
  basis: HeadlineBasis | null;
  asOfDate: string | null;
  /** The conversion into the reporting currency; null when there is no balance. */
  conversion: Conversion | null;
  /** The previous figure (latest closing booked before `asOfDate`), in the account's currency. */
  previous: { balance: string; asOfDate: string } | null;
  /** Converted headline minus converted previous figure, reporting currency; null when either is not converted. */
  change: string | null;
  flags: PositionFlag[];
}

/** A sum of account lines: the converted part in the reporting currency and the rest per its own currency. */
export interface PositionSum {
  /** Sum of the converted values, reporting currency, fixed to its minor units. */
  converted: string;
  /** Amounts that could not be converted, per original currency (sorted by code). */
  unconverted: { currency: string; total: string }[];
  accounts: number;
  /** Oldest rate date used by a converted line (null when none used a rate). */
  oldestRateDate: string | null;
  /** Lines flagged, by flag. */
  flagged: Partial<Record<PositionFlag, number>>;
  /** Sum of the lines' day-over-day changes (reporting currency); null when no line has one. */
  change: string | null;
}

/** A breakdown row: a company, a bank, a currency or an account, with its sum. */
export interface PositionGroup extends PositionSum {
  key: string;
  label: string;
  /** For the currency breakdown: the sum in that currency of the lines with a balance. */
  original?: string;
}

export interface GroupPosition {
  reportingCurrency: string;
  today: string;
  total: PositionSum;
  /** What the total is made of: the latest closing date used and how many lines are today's interim. */
  basis: { closingDate: string | null; closingCount: number; interimCount: number };
  byCompany: PositionGroup[];
  byBank: PositionGroup[];
  byCurrency: PositionGroup[];
  /** By koncern (empty when no koncern structure was given). */
  byKoncern: PositionGroup[];
  accounts: AccountPosition[];
  /** Companies whose reads failed, left out of every figure. */
  failedCompanies: { id: string; name: string; message: string }[];
  /** Number of companies included (visible and read successfully). */
  companyCount: number;
}

/** The latest `closing_booked` dated before `date`, or null. */
export function previousClosing(
  balances: readonly BalanceSnapshot[],
  date: string,
): { balance: string; asOfDate: string } | null {
  let best: BalanceSnapshot | null = null;
  for (const b of balances)
    if (b.balance_type === "closing_booked" && b.as_of_date < date && (!best || b.as_of_date > best.as_of_date))
      best = b;
  return best ? { balance: best.balance, asOfDate: best.as_of_date } : null;
}

/**
 * The headline booked balance of an account from its snapshots
 * (lib/views/headline-balance.ts, the rule every page uses), in this module's
 * shape; null when there is none.
 */
export function headlineBalance(
  balances: readonly BalanceSnapshot[],
  today: string,
): { balance: string; currency: string; asOfDate: string; basis: HeadlineBasis } | null {
  const h = sharedHeadline(balances, today, "booked");
  if (!h) return null;
  return {
    balance: h.balance,
    currency: h.currency,
    asOfDate: h.as_of_date,
    basis: isInterim(h) ? "interim_booked" : "closing_booked",
  };
}

class Accumulator {
  private converted = new Decimal(0);
  private readonly unconverted = new Map<string, Decimal>();
  private original = new Decimal(0);
  private count = 0;
  private oldest: string | null = null;
  private readonly flagged: Partial<Record<PositionFlag, number>> = {};
  private change: Decimal | null = null;

  add(line: AccountPosition): void {
    this.count++;
    if (line.change !== null) this.change = (this.change ?? new Decimal(0)).plus(line.change);
    for (const f of line.flags) this.flagged[f] = (this.flagged[f] ?? 0) + 1;
    if (line.balance !== null) this.original = this.original.plus(line.balance);
    const c = line.conversion;
    if (!c) return;
    if (c.status === "converted") {
      this.converted = this.converted.plus(c.value);
      if (c.legs.length > 0 && (this.oldest === null || c.rateDate < this.oldest)) this.oldest = c.rateDate;
    } else {
      this.unconverted.set(c.currency, (this.unconverted.get(c.currency) ?? new Decimal(0)).plus(c.amount));
    }
  }

  sum(reportingCurrency: string): PositionSum {
    return {
      converted: this.converted.toFixed(isoMinorUnits(reportingCurrency)),
      unconverted: [...this.unconverted]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([currency, total]) => ({ currency, total: total.toFixed(isoMinorUnits(currency)) })),
      accounts: this.count,
      oldestRateDate: this.oldest,
      flagged: { ...this.flagged },
      change: this.change === null ? null : this.change.toFixed(isoMinorUnits(reportingCurrency)),
    };
  }

  originalIn(currency: string): string {
    return this.original.toFixed(isoMinorUnits(currency));
  }
}

function groupBy(
  lines: readonly AccountPosition[],
  keyOf: (l: AccountPosition) => string,
  labelOf: (l: AccountPosition) => string,
  reportingCurrency: string,
  withOriginal = false,
): PositionGroup[] {
  const groups = new Map<string, { label: string; acc: Accumulator }>();
  for (const l of lines) {
    const k = keyOf(l);
    let g = groups.get(k);
    if (!g) groups.set(k, (g = { label: labelOf(l), acc: new Accumulator() }));
    g.acc.add(l);
  }
  return [...groups].map(([key, g]) => ({
    key,
    label: g.label,
    ...g.acc.sum(reportingCurrency),
    ...(withOriginal ? { original: g.acc.originalIn(key) } : {}),
  }));
}

/** Sorts groups by converted amount, largest first, then by label. */
function bySize(a: PositionGroup, b: PositionGroup): number {
  const d = new Decimal(b.converted).cmp(a.converted);
  return d !== 0 ? d : a.label.localeCompare(b.label);
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The headline of an account in this module's shape (`headlineBalance`). */
type Headline = NonNullable<ReturnType<typeof headlineBalance>>;

/** One account as read: its headline and previous figure (null when none) and whether its statements have a gap. */
interface AccountRead {
  company: Company;
  account: Account;
  headline: Headline | null;
  previous: { balance: string; asOfDate: string } | null;
  gap: boolean;
}

/**
 * Reads every account of `input.companies` (rules in the module comment): each company's account list, then each
 * account's balances over the lookback window and its statement coverage, under one bound of `concurrency` calls.
 * A company whose list or any balance read fails is entered in `failed` (id → message) and its accounts left out.
 * A failing coverage read only leaves the account unflagged.
 * @returns the accounts of the companies read successfully, in company then account order.
 */
async function readAccounts(input: GroupPositionInput, failed: Map<string, string>): Promise<AccountRead[]> {
  const { companies, today, source } = input;
  const limit = input.concurrency ?? 6;
  const from = addDays(today, -(input.lookbackDays ?? 7));
  const gapFrom = addDays(today, -(input.gapDays ?? 7));
  const gapTo = addDays(today, -1);
  /** True when a day of the gap window has no complete statement; false when unknown (no reader, failed read). */
  const statementGap = async (company: Company, account: Account): Promise<boolean> => {
    if (!source.listCoverage) return false;
    try {
      const days = await source.listCoverage(company, account, gapFrom, gapTo);
      return coverageWindow(days, gapFrom, gapTo).some((c) => c.state !== "complete");
    } catch {
      return false;
    }
  };

  const listed = await mapLimit(companies, limit, async (company) => {
    try {
      return { company, accounts: await source.listAccounts(company) };
    } catch (err) {
      failed.set(company.id, messageOf(err));
      return { company, accounts: [] as Account[] };
    }
  });
  const work = listed.flatMap(({ company, accounts }) => accounts.map((account) => ({ company, account })));
  const read = await mapLimit(work, limit, async ({ company, account }) => {
    // One failed read already excludes the company: skip its remaining reads.
    if (failed.has(company.id)) return null;
    try {
      const [snaps, gap] = await Promise.all([
        source.listBalances(company, account, from, today),
        statementGap(company, account),
      ]);
      const headline = headlineBalance(snaps, today);
      return { headline, previous: headline ? previousClosing(snaps, headline.asOfDate) : null, gap };
    } catch (err) {
      if (!failed.has(company.id)) failed.set(company.id, messageOf(err));
      return null;
    }
  });

  return work
    .map((w, i) => ({
      ...w,
      headline: read[i]?.headline ?? null,
      previous: read[i]?.previous ?? null,
      gap: read[i]?.gap ?? false,
    }))
    .filter((r) => !failed.has(r.company.id));
}

/**
 * The rates for the headlines' and previous figures' currencies and the reporting currency over their dates, or
 * null when no account has a headline (nothing to convert, nothing loaded).
 * @throws whatever `input.loadRates` rejects with.
 */
async function ratesFor(input: GroupPositionInput, rows: readonly AccountRead[]): Promise<FxRates | null> {
  const { reportingCurrency, today } = input;
  const dated = rows.flatMap((r) => (r.headline ? [r.headline] : []));
  const dates = [
    ...dated.map((h) => h.asOfDate),
    ...rows.flatMap((r) => (r.previous ? [r.previous.asOfDate] : [])),
  ].sort();
  return dated.length > 0
    ? await input.loadRates({
        currencies: [...new Set([...dated.map((h) => h.currency), reportingCurrency])],
        from: dates[0] ?? today,
        to: dates[dates.length - 1] ?? today,
      })
    : null;
}

/**
 * One account's line: its headline converted into `reportingCurrency` with `rates`, its flags (statement gap, no
 * balance, a headline dated before `staleBefore`, unconverted, stale rate) and its day-over-day change, with its
 * company's koncern from `koncernOf`.
 */
function accountLine(
  r: AccountRead,
  rates: FxRates | null,
  reportingCurrency: string,
  staleBefore: string,
  koncernOf: ReadonlyMap<string, { id: string; name: string }>,
): AccountPosition {
  const { company, account, headline, previous, gap } = r;
  const flags: PositionFlag[] = [];
  if (gap) flags.push("statement_gap");
  let conversion: Conversion | null = null;
  let change: string | null = null;
  if (!headline || !rates) flags.push("no_balance");
  else {
    conversion = rates.convert(headline.balance, headline.currency, reportingCurrency, headline.asOfDate);
    if (headline.asOfDate < staleBefore) flags.push("stale_balance");
    if (conversion.status === "unconverted") flags.push("unconverted");
    else if (conversion.stale) flags.push("stale_rate");
    if (previous && conversion.status === "converted") {
      const before = rates.convert(previous.balance, headline.currency, reportingCurrency, previous.asOfDate);
      if (before.status === "converted")
        change = new Decimal(conversion.value).minus(before.value).toFixed(isoMinorUnits(reportingCurrency));
    }
  }
  return {
    companyId: company.id,
    companyName: company.name,
    koncernId: koncernOf.get(company.id)?.id ?? null,
    koncernName: koncernOf.get(company.id)?.name ?? null,
    accountId: account.id,
    accountName: account.name,
    ibanMasked: account.iban_masked,
    bankName: account.bank_name,
    currency: headline?.currency ?? account.currency,
    balance: headline?.balance ?? null,
    basis: headline?.basis ?? null,
    asOfDate: headline?.asOfDate ?? null,
    conversion,
    previous,
    change,
    flags,
  };
}

/** What the total is made of: the latest closing date used and how many lines are closing and interim figures. */
function basisOf(accounts: readonly AccountPosition[]): GroupPosition["basis"] {
  let closingDate: string | null = null;
  let closingCount = 0;
  let interimCount = 0;
  for (const a of accounts) {
    if (a.basis === "interim_booked") interimCount++;
    if (a.basis === "closing_booked") {
      closingCount++;
      if (a.asOfDate && (closingDate === null || a.asOfDate > closingDate)) closingDate = a.asOfDate;
    }
  }
  return { closingDate, closingCount, interimCount };
}

/**
 * The breakdowns of `accounts` by company, bank, currency (with the sum in that currency) and, when `koncerned`,
 * by koncern; each sorted largest first (`bySize`).
 */
function breakdowns(
  accounts: readonly AccountPosition[],
  reportingCurrency: string,
  koncerned: boolean,
): Pick<GroupPosition, "byCompany" | "byBank" | "byCurrency" | "byKoncern"> {
  return {
    byCompany: groupBy(
      accounts,
      (l) => l.companyId,
      (l) => l.companyName,
      reportingCurrency,
    ).sort(bySize),
    byBank: groupBy(
      accounts,
      (l) => l.bankName,
      (l) => l.bankName,
      reportingCurrency,
    ).sort(bySize),
    byCurrency: groupBy(
      accounts,
      (l) => l.currency,
      (l) => l.currency,
      reportingCurrency,
      true,
    ).sort(bySize),
    byKoncern: koncerned
      ? groupBy(
          accounts,
          (l) => l.koncernId ?? NO_KONCERN,
          (l) => l.koncernName ?? "Not in a koncern",
          reportingCurrency,
        ).sort(bySize)
      : [],
  };
}

/**
 * Reads and converts the group position (rules in the module comment).
 * @throws FxInputError when `reportingCurrency` is not a currency code; a
 *   failing `loadRates` rejects (without rates nothing can be converted).
 */
export async function groupPosition(input: GroupPositionInput): Promise<GroupPosition> {
  const { companies, reportingCurrency, today } = input;
  isoMinorUnits(reportingCurrency); // throws RangeError for a malformed code before any read
  const staleBefore = addDays(today, -(input.staleAfterDays ?? 3));
  const failed = new Map<string, string>();
  const rows = await readAccounts(input, failed);
  const rates = await ratesFor(input, rows);

  const koncernOf = new Map<string, { id: string; name: string }>();
  for (const k of input.koncerner ?? []) for (const id of k.companyIds) koncernOf.set(id, { id: k.id, name: k.name });
  const accounts = rows.map((r) => accountLine(r, rates, reportingCurrency, staleBefore, koncernOf));

  const total = new Accumulator();
  for (const a of accounts) total.add(a);
  const included = companies.filter((c) => !failed.has(c.id));
  return {
    reportingCurrency,
    today,
    total: total.sum(reportingCurrency),
    basis: basisOf(accounts),
    ...breakdowns(accounts, reportingCurrency, Boolean(input.koncerner)),
    accounts,
    failedCompanies: companies
      .filter((c) => failed.has(c.id))
      .map((c) => ({ id: c.id, name: c.name, message: failed.get(c.id) ?? "" })),
    companyCount: included.length,
  };
}
