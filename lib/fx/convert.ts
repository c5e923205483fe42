/**
 * Currency conversion with daily reference rates, cross via EUR.
 *
 * Rules (the same for every figure the dashboard converts):
 * - Rates: `1 EUR = r(C) C`, kept exactly as published. A conversion of an
 *   amount dated D from A to B uses, for each of A and B other than EUR, the
 *   rate of D or else the latest earlier one at most {@link MAX_RATE_AGE_DAYS}
 *   days older (weekends and holidays have no ECB rate; Friday's serves the
 *   Saturday). Exactly 7 days old is still used; 8 days is not.
 * - Arithmetic: `amount × r(B) ÷ r(A)` with decimal.js at 50 significant
 *   digits (the product is exact; the one division is correctly rounded), so
 *   the cross rate is never rounded on its own. The result is rounded once,
 *   half to even ("banker's rounding"), to B's ISO 4217 minor units (EUR 2,
 *   JPY 0, KWD 3; see currencies.ts).
 * - Staleness: when a rate older than D was used the result says so
 *   (`stale: true`, `rateDate` the oldest rate date used, per-currency `legs`).
 * - Missing: with no usable rate the amount is returned unconverted, with the
 *   reason and the currencies that lack a rate — it is never dropped or
 *   counted as zero.
 * - Same currency: the amount is returned as it is (no rate, no rounding).
 *
 * Only rates with base EUR are used; rows with another base are ignored.
 */
import Decimal from "decimal.js";
import type { DashboardDb } from "../db/client";
import { isCurrencyCode, isoMinorUnits } from "./currencies";
import { addDays, daysBetween, isIsoDate } from "./dates";
import { latestRatesBefore, listRates } from "./store";

/** Oldest rate, in days before the amount's date, that may still be used. */
export const MAX_RATE_AGE_DAYS = 7;

/** Decimal context of conversions: 50 significant digits, half-even. */
const D = Decimal.clone({ precision: 50, rounding: Decimal.ROUND_HALF_EVEN });
type D = InstanceType<typeof D>;

const AMOUNT = /^[+-]?\d+(\.\d+)?$/;

/** One rate used: `1 EUR = rate currency` of `rateDate`. */
export interface RateLeg {
  currency: string;
  rate: string;
  rateDate: string;
}

interface ConversionBase {
  /** The amount as given, in `currency`, dated `date`. */
  amount: string;
  currency: string;
  date: string;
  /** The target (reporting) currency. */
  to: string;
}

/** A converted amount: `value` in `to`, rounded half-even to its minor units. */
export interface Converted extends ConversionBase {
  status: "converted";
  value: string;
  /** 1 `currency` = `rate` `to`, 10 significant digits, for display and exports (`value` uses the full rate). */
  rate: string;
  /** The oldest rate date used (the amount's date when same currency or every rate is of that day). */
  rateDate: string;
  /** True when a rate older than `date` was used. */
  stale: boolean;
  /** The EUR rates used, one per currency other than EUR (none for EUR→EUR or same currency). */
  legs: RateLeg[];
}

/** An amount that could not be converted; shown in its own currency and flagged. */
export interface Unconverted extends ConversionBase {
  status: "unconverted";
  /** `no_rate`: no rate of the currency at or before `date`; `rate_too_old`: only rates over 7 days older. */
  reason: "no_rate" | "rate_too_old";
  /** The currencies without a usable rate, with their latest rate date at or before `date` (null when none). */
  missing: { currency: string; latestRateDate: string | null }[];
}

export type Conversion = Converted | Unconverted;

/** Bad input to a conversion (a programming or data error, not a missing rate). */
export class FxInputError extends Error {
  readonly code = "fx_input_invalid";
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
    this.name = "FxInputError";
  }
}

function check(amount: string, from: string, to: string, date: string): void {
  if (!AMOUNT.test(amount)) throw new FxInputError("amount", `not a decimal string: ${JSON.stringify(amount)}`);
  if (!isCurrencyCode(from)) throw new FxInputError("from", `not a currency code: ${JSON.stringify(from)}`);
  if (!isCurrencyCode(to)) throw new FxInputError("to", `not a currency code: ${JSON.stringify(to)}`);
  if (!isIsoDate(date)) throw new FxInputError("date", `not a date YYYY-MM-DD: ${JSON.stringify(date)}`);
}

/** Rates of one currency, oldest first. */
interface Series {
  dates: string[];
  rates: string[];
}

/**
 * A set of EUR reference rates held in memory, to convert many amounts with
 * no database round trip each. Build it with {@link loadFxRates} or from rows.
 */
export class FxRates {
  private readonly series = new Map<string, Series>();

  /** @param rows rates `1 base = rate quote`; rows whose base is not EUR are ignored. */
  constructor(rows: Iterable<{ date: string; base: string; quote: string; rate: string }>) {
    const byQuote = new Map<string, [string, string][]>();
    for (const r of rows) {
      if (r.base !== "EUR") continue;
      let list = byQuote.get(r.quote);
      if (!list) byQuote.set(r.quote, (list = []));
      list.push([r.date, r.rate]);
    }
    for (const [quote, list] of byQuote) {
      list.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
      this.series.set(quote, { dates: list.map((p) => p[0]), rates: list.map((p) => p[1]) });
    }
  }

  /** The latest rate of `currency` on or before `date`, or null. */
  latestOnOrBefore(currency: string, date: string): RateLeg | null {
    const s = this.series.get(currency);
    if (!s) return null;
    let lo = 0;
    let hi = s.dates.length; // first index with a date after `date`
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((s.dates[mid] ?? "") <= date) lo = mid + 1;
      else hi = mid;
    }
    const i = lo - 1;
    const rateDate = s.dates[i];
    const rate = s.rates[i];
    return rateDate !== undefined && rate !== undefined ? { currency, rate, rateDate } : null;
  }

  /**
   * Converts `amount` (a decimal string in `from`, dated `date`) into `to`
   * under the rules in this module's docstring.
   * @throws FxInputError for a malformed amount, currency code or date.
   */
  convert(amount: string, from: string, to: string, date: string): Conversion {
    check(amount, from, to, date);
    const base = { amount, currency: from, date, to };
    if (from === to)
      return { ...base, status: "converted", value: amount, rate: "1", rateDate: date, stale: false, legs: [] };
    const legs: RateLeg[] = [];
    const missing: Unconverted["missing"] = [];
    let tooOld = false;
    for (const c of [from, to]) {
      if (c === "EUR") continue;
      const leg = this.latestOnOrBefore(c, date);
      if (leg && daysBetween(leg.rateDate, date) <= MAX_RATE_AGE_DAYS) legs.push(leg);
      else {
        if (leg) tooOld = true;
        missing.push({ currency: c, latestRateDate: leg?.rateDate ?? null });
      }
    }
    if (missing.length > 0)
      return { ...base, status: "unconverted", reason: tooOld ? "rate_too_old" : "no_rate", missing };
    const rateOf = (c: string): D => new D(c === "EUR" ? "1" : (legs.find((l) => l.currency === c)?.rate ?? "NaN"));
    const rFrom = rateOf(from);
    const rTo = rateOf(to);
    const value = new D(amount).times(rTo).div(rFrom).toFixed(isoMinorUnits(to), Decimal.ROUND_HALF_EVEN);
    const rateDate = legs.reduce((min, l) => (l.rateDate < min ? l.rateDate : min), date);
    return {
      ...base,
      status: "converted",
      // "-0.00" reads as a sign error in a table; a zero has no sign.
      value: /^-0(\.0+)?$/.test(value) ? value.slice(1) : value,
      rate: rTo.div(rFrom).toSignificantDigits(10).toFixed(),
      rateDate,
      stale: rateDate < date,
      legs,
    };
  }
}

/**
 * Loads the EUR rates needed to convert amounts dated `from`..`to` between
 * `currencies` (EUR needs none): the rates of those dates and of the
 * {@link MAX_RATE_AGE_DAYS} days before `from`, plus each currency's latest
 * older rate, so that an unconverted amount can say how old the last rate is.
 */
export async function loadFxRates(
  db: DashboardDb,
  opts: { currencies: readonly string[]; from: string; to: string },
): Promise<FxRates> {
  const quotes = [...new Set(opts.currencies)].filter((c) => c !== "EUR");
  const start = addDays(opts.from, -MAX_RATE_AGE_DAYS);
  const rows = await listRates(db, { quotes, from: start, to: opts.to });
  const older = await latestRatesBefore(db, { quotes, date: start });
  return new FxRates([...older, ...rows]);
}

/** One amount to add up: a decimal string in `currency`, dated `date` (`YYYY-MM-DD`). */
export interface DatedAmount {
  amount: string;
  currency: string;
  date: string;
}

/** A sum in one reporting currency, with what could not be converted kept apart. */
export interface ConvertedSum {
  /** The reporting currency. */
  currency: string;
  /** Sum of the converted (already rounded) values, so it equals the sum of the lines shown. */
  total: string;
  /** Every input, converted or not, in input order. */
  items: Conversion[];
  /** The inputs that could not be converted (also in `items`); not in `total`. */
  unconverted: Unconverted[];
  /** Sum of the unconverted amounts per original currency, so nothing disappears from view. */
  unconvertedTotals: { currency: string; total: string }[];
  /** Number of converted items that used an earlier day's rate. */
  staleCount: number;
  /** Oldest rate date used by a converted item; null when none was converted with a rate. */
  oldestRateDate: string | null;
}

/**
 * Converts `amounts` into `reportingCurrency` and adds them up. The total is
 * the sum of the rounded converted values (each rounded half-even to the
 * reporting currency's minor units); amounts without a usable rate are listed
 * in `unconverted` and summed per their own currency, never dropped.
 * @throws FxInputError for a malformed amount, currency code or date.
 */
export function sumInCurrency(
  rates: FxRates,
  amounts: readonly DatedAmount[],
  reportingCurrency: string,
): ConvertedSum {
  if (!isCurrencyCode(reportingCurrency))
    throw new FxInputError("reportingCurrency", `not a currency code: ${JSON.stringify(reportingCurrency)}`);
  const items = amounts.map((a) => rates.convert(a.amount, a.currency, reportingCurrency, a.date));
  let total = new D(0);
  let staleCount = 0;
  let oldest: string | null = null;
  const unconverted: Unconverted[] = [];
  const byCurrency = new Map<string, D>();
  for (const c of items) {
    if (c.status === "converted") {
      total = total.plus(c.value);
      if (c.stale) staleCount++;
      if (c.legs.length > 0 && (oldest === null || c.rateDate < oldest)) oldest = c.rateDate;
    } else {
      unconverted.push(c);
      byCurrency.set(c.currency, (byCurrency.get(c.currency) ?? new D(0)).plus(c.amount));
    }
  }
  return {
    currency: reportingCurrency,
    total: total.toFixed(isoMinorUnits(reportingCurrency)),
    items,
    unconverted,
    unconvertedTotals: [...byCurrency]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([currency, sum]) => ({ currency, total: sum.toFixed() })),
    staleCount,
    oldestRateDate: oldest,
  };
}
