/**
 * Parsed figures of a forecast flow, kept beside it (docs/forecast.md#speed): the day number of its date and its
 * point, P10 and P90 as exact units (lib/forecast/fixed.ts). A group forecast holds some 365,000 flows and every
 * read sums them (buckets, balances, each scenario); parsing each decimal string once per flow instead of once per
 * read is most of the warm path's saving. The figures are checked against the flow's strings on every use, so a
 * stale figure cannot be read.
 */
import { toDay } from "./days";
import { toUnits } from "./fixed";
import type { Flow } from "./types";

/** A flow's day number and its figures as numbers of millionths. */
export interface FlowUnits {
  /** Days since 1970-01-01 of `date`. */
  day: number;
  /** `amount`, `p10`, `p90` in millionths, as numbers (exact integers when `max` is finite). */
  an: number;
  lon: number;
  hin: number;
  /** The largest of |an|, |lon|, |hin|, or Infinity when one is past 2^51 (a number could not hold it exactly):
   * sums of these as numbers are exact while count × max ≤ `Number.MAX_SAFE_INTEGER` (see
   * {@link exactAsNumbers}); otherwise the caller sums {@link flowBigUnits}. */
  max: number;
}

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

/** Where the parsed figures sit on a flow: a non-enumerable symbol property, so JSON, spreads and test equality
 * never see or copy it. */
const UNITS = Symbol("forecast.flowUnits");

type Parsed = FlowUnits & { date: string; amount: string; p10: string; p90: string };

/**
 * The day number and figures of `f`, parsed on first use and kept on the flow. The figures are used only while
 * the flow still holds the strings they were parsed from (a flow edited in place is parsed again).
 * @throws on a malformed date or amount (as `toDay` / `toUnits`).
 */
export function flowUnits(f: Flow): FlowUnits {
  const held = (f as Flow & { [UNITS]?: Parsed })[UNITS];
  if (held && held.date === f.date && held.amount === f.amount && held.p10 === f.p10 && held.p90 === f.p90) return held;
  const an = millionths(f.amount);
  const lon = f.p10 === f.amount ? an : millionths(f.p10);
  const hin = f.p90 === f.amount ? an : millionths(f.p90);
  const u: Parsed = {
    day: toDay(f.date),
    an,
    lon,
    hin,
    // NaN (past 2^51) makes max Infinity: the bigint path is used then.
    max: Number.isNaN(an + lon + hin) ? Infinity : Math.max(Math.abs(an), Math.abs(lon), Math.abs(hin)),
    date: f.date,
    amount: f.amount,
    p10: f.p10,
    p90: f.p90,
  };
  Object.defineProperty(f, UNITS, { value: u, enumerable: false, writable: true, configurable: true });
  return u;
}

/** `amount`, `p10`, `p90` of `f` in exact bigint millionths, for sums too large for numbers. */
export function flowBigUnits(f: Flow): { a: bigint; lo: bigint; hi: bigint } {
  return { a: toUnits(f.amount), lo: toUnits(f.p10), hi: toUnits(f.p90) };
}

/**
 * The parsed figures of a whole flow array, one column per field (docs/forecast.md#speed): the hot loops (`bucket`,
 * `balances`, `applyScenario`) read typed arrays by index instead of a property kept on each flow.
 */
export interface FlowColumns {
  /** Day numbers of the flows' dates. */
  day: Int32Array;
  /** `amount`, `p10`, `p90` in millionths (NaN past 2^51: then `max` is Infinity and sums go through bigints). */
  an: Float64Array;
  lon: Float64Array;
  hin: Float64Array;
  /** The largest |figure| of the array (see {@link FlowUnits.max}); 0 for an empty array. */
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
    let same = true;
    for (let i = 0; i < flows.length && same; i++) same = held.of[i] === flows[i];
    if (same) return held.cols;
  }
  const n = flows.length;
  const day = new Int32Array(n);
  const an = new Float64Array(n);
  const lon = new Float64Array(n);
  const hin = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const f = flows[i] as Flow;
    day[i] = toDay(f.date);
    [an[i], lon[i], hin[i]] = flowMillionths(f);
  }
  const cols = { day, an, lon, hin, max: largest(an, lon, hin) };
  COLUMNS.set(flows, { of: flows.slice(), cols });
  return cols;
}

/**
 * `flows` (with their day numbers and figures in millionths, index for index) sorted by date, stable, in O(n) by
 * counting on day numbers; the sorted array's columns are kept for {@link flowColumns}.
 */
export function sortWithColumns<T extends Flow>(
  flows: readonly T[],
  day: ArrayLike<number>,
  an: ArrayLike<number>,
  lon: ArrayLike<number>,
  hin: ArrayLike<number>,
): T[] {
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
  }
  COLUMNS.set(out, { of: out.slice(), cols });
  return out;
}

/**
 * `flows` sorted by date, stable (flows of one date keep their order), in O(n) by counting on day numbers: the
 * same order as `Array.prototype.sort` with a date comparator, which is stable too.
 */
export function sortByDate<T extends Flow>(flows: readonly T[]): T[] {
  if (flows.length < 2) return flows.slice();
  const c = flowColumns(flows);
  return sortWithColumns(flows, c.day, c.an, c.lon, c.hin);
}
