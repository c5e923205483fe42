/**
 * The history read once into typed columns (docs/forecast.md#speed): each booked transaction's day number and its
 * amount in exact millionths. A recompute reads a year of every company's bookings (1.46 million transactions for
 * 50 companies) twice — the engine's model series and the variance's weekly actuals — so each date and amount is
 * parsed once per recompute, not once per pass: the caller reads the columns and passes them to both.
 */
import { toDay } from "./days";
import type { HistoryTxn } from "./types";

/** The parsed history, index for index with the transactions. */
export interface HistoryColumns {
  /** Days since 1970-01-01 of each `date`. */
  day: Int32Array;
  /**
   * Each `amount` in millionths, exact: NaN when it is not a decimal string with at most 6 decimals
   * (`/^-?\d+(\.\d{1,6})?$/`), ±Infinity when it is one but 2^51 millionths or more (a number would not hold every
   * sum of it exactly; the callers sum bigints then).
   */
  units: Float64Array;
}

/** At or past this many millionths an amount is ±Infinity in `units`. */
const EXACT = 2 ** 51;
const POW10 = [1e6, 1e5, 1e4, 1e3, 1e2, 10, 1];

/**
 * (docs/forecast.md#speed) Millionths of a decimal string with at most 6 decimals, read digit by digit (the format check and the value in
 * one pass, about three times faster than a regular expression and `Number`); NaN for any other string, ±Infinity
 * at or past 2^51 millionths.
 */
export function units(s: string): number {
  const n = s.length;
  let i = s.charCodeAt(0) === 45 ? 1 : 0;
  const neg = i === 1;
  let v = 0;
  let digits = 0;
  let frac = -1;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      v = v * 10 + (c - 48);
      digits++;
      if (frac >= 0) frac++;
    } else if (c === 46 && frac < 0 && digits > 0) frac = 0;
    else return NaN;
  }
  if (digits === 0 || frac === 0 || frac > 6) return NaN;
  if (digits > 15) {
    // Past 15 digits the integer read may be inexact: `Number`, which is exact below 2^51 millionths.
    const r = Math.round(Number(s) * 1e6);
    return Math.abs(r) < EXACT ? r : neg ? -Infinity : Infinity;
  }
  // Up to 15 digits the integer read is exact (below 2^53), and so is the product while below 2^51.
  const u = v * (POW10[frac < 0 ? 0 : frac] ?? 1);
  const r = u < EXACT ? u : Infinity;
  return neg ? -r : r;
}

/**
 * The columns of `history` (docs/forecast.md#speed). A caller that runs both the engine and the actuals on one history reads the columns
 * once and passes them to both (`ForecastInput.historyColumns`, `actualWeeks`); nothing is kept between calls.
 * @throws on a malformed date (as `toDay`); a malformed amount is NaN in `units`, for the caller to refuse or not.
 */
export function historyColumns(history: readonly HistoryTxn[]): HistoryColumns {
  const n = history.length;
  const day = new Int32Array(n);
  const u = new Float64Array(n);
  let lastDate = "";
  let d = 0;
  for (let i = 0; i < n; i++) {
    const t = history[i] as HistoryTxn;
    // A history comes day by day or series by series: a run of one date parses it once.
    if (t.date !== lastDate) {
      d = toDay(t.date);
      lastDate = t.date;
    }
    day[i] = d;
    u[i] = units(t.amount);
  }
  return { day, units: u };
}

/**
 * `columns` when given (they must be `historyColumns(history)`), else read now (docs/forecast.md#speed).
 * @throws Error when `columns` were read from a history of another length.
 */
export function columnsOf(history: readonly HistoryTxn[], columns?: HistoryColumns): HistoryColumns {
  if (!columns) return historyColumns(history);
  if (columns.day.length !== history.length || columns.units.length !== history.length)
    throw new Error("history columns of another history");
  return columns;
}
