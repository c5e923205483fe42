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

const MAX = BigInt(Number.MAX_SAFE_INTEGER);

/** A flow's day number and exact units. */
export interface FlowUnits {
  /** Days since 1970-01-01 of `date`. */
  day: number;
  /** `amount` in millionths. */
  a: bigint;
  /** `p10` in millionths. */
  lo: bigint;
  /** `p90` in millionths. */
  hi: bigint;
  /** The largest of |a|, |lo|, |hi| as a number: sums of these as numbers are exact while
   * count × max ≤ `Number.MAX_SAFE_INTEGER` (see {@link exactAsNumbers}). */
  max: number;
  /** `a`, `lo`, `hi` as numbers (exact when `max` is at most `Number.MAX_SAFE_INTEGER`). */
  an: number;
  lon: number;
  hin: number;
}

/**
 * Whether `count` values each at most `max` in size sum exactly as doubles: every partial sum of integers stays
 * within ±2^53 − 1, where a double holds every integer. The hot loops sum numbers when this holds and bigints
 * otherwise, so results are exact either way.
 */
export function exactAsNumbers(count: number, max: number): boolean {
  return count * max <= Number.MAX_SAFE_INTEGER;
}

/** Where the parsed figures sit on a flow: a non-enumerable symbol property, so JSON, spreads and test equality
 * never see or copy it. */
const UNITS = Symbol("forecast.flowUnits");

type Parsed = FlowUnits & { date: string; amount: string; p10: string; p90: string };

/**
 * The day number and units of `f`, parsed on first use and kept on the flow. The figures are used only while the
 * flow still holds the strings they were parsed from (a flow edited in place is parsed again).
 * @throws as `toDay` / `toUnits` on a malformed date or amount.
 */
export function flowUnits(f: Flow): FlowUnits {
  const held = (f as Flow & { [UNITS]?: Parsed })[UNITS];
  if (held && held.date === f.date && held.amount === f.amount && held.p10 === f.p10 && held.p90 === f.p90) return held;
  const a = toUnits(f.amount);
  const lo = f.p10 === f.amount ? a : toUnits(f.p10);
  const hi = f.p90 === f.amount ? a : toUnits(f.p90);
  const an = Number(a);
  const lon = Number(lo);
  const hin = Number(hi);
  const u: Parsed = {
    day: toDay(f.date),
    a,
    lo,
    hi,
    // Infinity when a figure is past 2^53 units (Number() rounds it): the bigint path is used then.
    max:
      a <= MAX && a >= -MAX && lo <= MAX && lo >= -MAX && hi <= MAX && hi >= -MAX
        ? Math.max(Math.abs(an), Math.abs(lon), Math.abs(hin))
        : Infinity,
    an,
    lon,
    hin,
    date: f.date,
    amount: f.amount,
    p10: f.p10,
    p90: f.p90,
  };
  Object.defineProperty(f, UNITS, { value: u, enumerable: false, writable: true, configurable: true });
  return u;
}

/**
 * `flows` sorted by date, stable (flows of one date keep their order), in O(n) by counting on day numbers: the
 * same order as `Array.prototype.sort` with a date comparator, which is stable too.
 */
export function sortByDate<T extends Flow>(flows: readonly T[]): T[] {
  const n = flows.length;
  if (n < 2) return flows.slice();
  const days = new Float64Array(n);
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < n; i++) {
    const d = flowUnits(flows[i] as T).day;
    days[i] = d;
    if (d < lo) lo = d;
    if (d > hi) hi = d;
  }
  const span = hi - lo + 1;
  if (span > 4 * n + 1024) return flows.slice().sort((x, y) => (x.date < y.date ? -1 : x.date > y.date ? 1 : 0));
  // Typed arrays read 0 past their end, never undefined: `?? 0` only satisfies the index checks.
  const start = new Uint32Array(span + 1);
  for (let i = 0; i < n; i++) {
    const k = (days[i] ?? 0) - lo + 1;
    start[k] = (start[k] ?? 0) + 1;
  }
  for (let k = 1; k <= span; k++) start[k] = (start[k] ?? 0) + (start[k - 1] ?? 0);
  const out = new Array<T>(n);
  for (let i = 0; i < n; i++) {
    const k = (days[i] ?? 0) - lo;
    const at = start[k] ?? 0;
    start[k] = at + 1;
    out[at] = flows[i] as T;
  }
  return out;
}
