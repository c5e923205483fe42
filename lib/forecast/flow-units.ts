/**
 * Parsed figures of forecast flows, kept beside their array (docs/forecast.md#speed): per flow the day number of its
 * date and its point, P10 and P90 as millionths (lib/forecast/fixed.ts units), in typed columns. A group forecast
 * holds some 365,000 flows and every read sums them (buckets, balances, each scenario); parsing each decimal string
 * once per array instead of once per read is most of the warm path's saving. Columns are kept only while the array
 * holds the same flow objects, so a stale figure cannot be read.
 */
import { toDay } from "./days";
import { toUnits } from "./fixed";
import type { Flow } from "./types";

/**
 * Whether `count` values each at most `max` in size sum exactly as doubles: every partial sum of integers stays
 * within ±2^53 − 1, where a double holds every integer. The hot loops sum numbers when this holds and bigints
 * otherwise, so results are exact either way.
 */
export function exactAsNumbers(count: number, max: number): boolean {
  return count * max <= Number.MAX_SAFE_INTEGER;
}

/** Below this many millionths a decimal string × 10^6, rounded, is its exact value (the two roundings of
 * `Number(s) * 1e6` stay under half a unit). */
const EXACT = 2 ** 51;
const DECIMAL = /^-?\d+(?:\.\d{1,6})?$/;

/** Millionths of a decimal string as a number, or NaN past 2^51 (then {@link flowBigUnits} is exact). */
function millionths(s: string): number {
  if (!DECIMAL.test(s)) throw new Error(`not a decimal string with at most 6 decimals: ${s}`);
  const v = Math.round(Number(s) * 1e6);
  return Math.abs(v) < EXACT ? v : NaN;
}

/**
 * (docs/forecast.md#speed) Millionths of a figure the engine wrote itself with `x.toFixed(2)` for a finite |x| < 1e9 (always the plain form
 * `-123.45` with two decimals, so {@link millionths}' format check is skipped): the same value {@link millionths}
 * gives, and always below 2^51, so never NaN.
 */
export function centsMillionths(s: string): number {
  // Digit by digit: about 2.5 times faster than `Number(s)` (measured on a million strings), exact since the
  // cents stay below 2^53.
  let i = s.charCodeAt(0) === 45 ? 1 : 0;
  const neg = i === 1;
  let cents = 0;
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c !== 46) cents = cents * 10 + (c - 48);
  }
  return neg ? -cents * 10_000 : cents * 10_000;
}

/** `amount`, `p10`, `p90` of `f` in exact bigint millionths, for sums too large for numbers. */
export function flowBigUnits(f: Flow): { a: bigint; lo: bigint; hi: bigint } {
  return { a: toUnits(f.amount), lo: toUnits(f.p10), hi: toUnits(f.p90) };
}

/** One company × currency × category of a flow array (what `FlowColumns.sid` points at). */
export interface SeriesRef {
  company: string;
  currency: string;
  category: string;
}

/**
 * (docs/forecast.md#speed) Numbers the distinct company × currency × category of flows in the order first seen, so a hot loop keys its
 * sums by one integer instead of three map lookups per flow. A run of one series (the usual order) costs no lookup.
 */
export class SeriesIndex {
  /** The series, by number. */
  readonly list: SeriesRef[];
  private readonly by = new Map<string, Map<string, Map<string, number>>>();
  private last = -1;

  /** An index that starts with `list` (numbered as listed; `list` is copied). */
  constructor(list: readonly SeriesRef[] = []) {
    this.list = [];
    for (const r of list) this.of(r.company, r.currency, r.category);
  }

  /** The number of a series, numbering it when new. */
  of(company: string, currency: string, category: string): number {
    const l = this.list[this.last];
    if (l && l.category === category && l.company === company && l.currency === currency) return this.last;
    let byCurrency = this.by.get(company);
    if (!byCurrency) this.by.set(company, (byCurrency = new Map()));
    let byCategory = byCurrency.get(currency);
    if (!byCategory) byCurrency.set(currency, (byCategory = new Map()));
    let k = byCategory.get(category);
    if (k === undefined) {
      k = this.list.length;
      byCategory.set(category, k);
      this.list.push({ company, currency, category });
    }
    this.last = k;
    return k;
  }
}

/**
 * The parsed figures of a whole flow array, one column per field (docs/forecast.md#speed): the hot loops (`bucket`,
 * `balances`, `applyScenario`) read typed arrays by index instead of a property kept on each flow.
 */
export interface FlowColumns {
  /** Each flow's series: an index into `series`. */
  sid: Int32Array;
  /** The flows' distinct company × currency × category, in the order first seen. */
  series: readonly SeriesRef[];
  /** Day numbers of the flows' dates. */
  day: Int32Array;
  /** `amount`, `p10`, `p90` in millionths (NaN past 2^51: then `max` is Infinity and sums go through bigints). */
  an: Float64Array;
  lon: Float64Array;
  hin: Float64Array;
  /** The largest |figure| of the array, or Infinity when one is past 2^51 (a number could not hold it exactly):
   * sums of these as numbers are exact while count × max ≤ `Number.MAX_SAFE_INTEGER` (see
   * {@link exactAsNumbers}); otherwise the caller sums {@link flowBigUnits}. 0 for an empty array. */
  max: number;
}

/** Columns kept per flow array, with the flows they were read from (an array whose elements changed is read again). */
const COLUMNS = new WeakMap<readonly Flow[], { of: readonly Flow[]; cols: FlowColumns }>();

function largest(an: ArrayLike<number>, lon: ArrayLike<number>, hin: ArrayLike<number>): number {
  let max = 0;
  for (let i = 0; i < an.length; i++) {
    const a = an[i] ?? 0;
    const lo = lon[i] ?? 0;
    const hi = hin[i] ?? 0;
    const m = Number.isNaN(a + lo + hi) ? Infinity : Math.max(Math.abs(a), Math.abs(lo), Math.abs(hi));
    if (m > max) max = m;
  }
  return max;
}

/** The figures of one flow in millionths: [amount, p10, p90] (NaN past 2^51). @throws on a malformed figure. */
export function flowMillionths(f: Pick<Flow, "amount" | "p10" | "p90">): [number, number, number] {
  const a = millionths(f.amount);
  return [a, f.p10 === f.amount ? a : millionths(f.p10), f.p90 === f.amount ? a : millionths(f.p90)];
}

/**
 * The columns of `flows`, read once per array and kept while the array holds the same flow objects (a forecast's
 * flows are never edited in place: `applyScenario` makes new flows). Reading parses each flow's date and figures
 * directly, without keeping anything on the flow.
 * @throws on a malformed date or figure (as `toDay` / `toUnits`).
 */
export function flowColumns(flows: readonly Flow[]): FlowColumns {
  const held = COLUMNS.get(flows);
  if (held && held.of.length === flows.length) {
    const of = held.of;
    let i = 0;
    while (i < flows.length && of[i] === flows[i]) i++;
    if (i === flows.length) return held.cols;
  }
  const n = flows.length;
  const day = new Int32Array(n);
  const an = new Float64Array(n);
  const lon = new Float64Array(n);
  const hin = new Float64Array(n);
  const sid = new Int32Array(n);
  const index = new SeriesIndex();
  for (let i = 0; i < n; i++) {
    const f = flows[i] as Flow;
    day[i] = toDay(f.date);
    [an[i], lon[i], hin[i]] = flowMillionths(f);
    sid[i] = index.of(f.company, f.currency, f.category);
  }
  const cols = { day, an, lon, hin, max: largest(an, lon, hin), sid, series: index.list };
  COLUMNS.set(flows, { of: flows.slice(), cols });
  return cols;
}

/** Columns being built beside a flow array: plain arrays or typed ones, index for index with the flows. */
export interface LooseColumns {
  day: ArrayLike<number>;
  an: ArrayLike<number>;
  lon: ArrayLike<number>;
  hin: ArrayLike<number>;
  /** Indexes into `series`. */
  sid: ArrayLike<number>;
  series: readonly SeriesRef[];
}

/**
 * `flows` (with their columns, index for index: day numbers, figures in millionths, series) sorted by date, stable,
 * in O(n) by counting on day numbers; the sorted array's columns are kept for {@link flowColumns}
 * (docs/forecast.md#speed).
 * @throws nothing of its own; a date span far wider than the flows falls back to a stable string sort.
 */
export function sortWithColumns<T extends Flow>(flows: readonly T[], c: LooseColumns): T[] {
  const { day, an, lon, hin, sid } = c;
  const n = flows.length;
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < n; i++) {
    const d = day[i] ?? 0;
    if (d < lo) lo = d;
    if (d > hi) hi = d;
  }
  const span = n === 0 ? 0 : hi - lo + 1;
  if (span > 4 * n + 1024) return flows.slice().sort((x, y) => (x.date < y.date ? -1 : x.date > y.date ? 1 : 0));
  // Typed arrays read 0 past their end, never undefined: `?? 0` only satisfies the index checks.
  const start = new Uint32Array(span + 1);
  for (let i = 0; i < n; i++) {
    const k = (day[i] ?? 0) - lo + 1;
    start[k] = (start[k] ?? 0) + 1;
  }
  for (let k = 1; k <= span; k++) start[k] = (start[k] ?? 0) + (start[k - 1] ?? 0);
  const out = new Array<T>(n);
  const cols: FlowColumns = {
    day: new Int32Array(n),
    an: new Float64Array(n),
    lon: new Float64Array(n),
    hin: new Float64Array(n),
    max: largest(an, lon, hin),
    sid: new Int32Array(n),
    series: c.series,
  };
  for (let i = 0; i < n; i++) {
    const k = (day[i] ?? 0) - lo;
    const at = start[k] ?? 0;
    start[k] = at + 1;
    out[at] = flows[i] as T;
    cols.day[at] = day[i] ?? 0;
    cols.an[at] = an[i] ?? 0;
    cols.lon[at] = lon[i] ?? 0;
    cols.hin[at] = hin[i] ?? 0;
    cols.sid[at] = sid[i] ?? 0;
  }
  COLUMNS.set(out, { of: out.slice(), cols });
  return out;
}
