/**
 * Exact fixed-point sums for the forecast's hot loops (docs/forecast.md#money-and-estimates): a decimal string
 * becomes a bigint of millionths (6 decimals), sums stay exact, and the result goes back to a decimal string.
 * decimal.js is exact too but about 50 times slower per addition, and a group forecast adds up hundreds of
 * thousands of flows.
 */

/** Decimals kept. */
export const SCALE = 6;
const ONE = 10n ** BigInt(SCALE);
const DECIMAL = /^-?\d+(?:\.\d+)?$/;
const POW = Array.from({ length: SCALE + 1 }, (_, i) => 10n ** BigInt(i));

/**
 * `"-1250.5"` → `-1250500000n`.
 * @throws on a string that is not a plain decimal or has more than 6 decimals.
 */
export function toUnits(s: string): bigint {
  if (!DECIMAL.test(s)) throw new Error(`not a decimal string: ${s}`);
  const dot = s.indexOf(".");
  if (dot < 0) return BigInt(s) * ONE;
  const frac = s.length - dot - 1;
  if (frac > SCALE) throw new Error(`more than ${SCALE} decimals: ${s}`);
  return BigInt(s.slice(0, dot) + s.slice(dot + 1)) * (POW[SCALE - frac] ?? 1n);
}

/** Units → decimal string: `dp` decimals (rounded half away from zero), or all significant decimals when omitted. */
export function fromUnits(v: bigint, dp?: number): string {
  let x = v;
  if (dp !== undefined && dp < SCALE) {
    const step = 10n ** BigInt(SCALE - dp);
    const half = step / 2n;
    x = ((x < 0n ? x - half : x + half) / step) * step;
  }
  const neg = x < 0n;
  const abs = neg ? -x : x;
  const int = (abs / ONE).toString();
  let frac = (abs % ONE).toString().padStart(SCALE, "0");
  frac = dp === undefined ? frac.replace(/0+$/, "") : frac.slice(0, dp);
  const out = frac ? `${int}.${frac}` : int;
  return neg && /[1-9]/.test(out) ? `-${out}` : out;
}

/**
 * `fromUnits(BigInt(v))` for a whole number of millionths within ±(2^53 − 1), without a bigint: all significant
 * decimals (`-1250500000` → `"-1250.5"`; docs/forecast.md#speed). The hot loops sum exact numbers of millionths (lib/forecast/flow-units.ts)
 * and write some 300,000 figures per recompute; this is their string.
 * @throws RangeError when `v` is not a safe integer.
 */
export function fromMillionths(v: number): string {
  if (!Number.isSafeInteger(v)) throw new RangeError(`not a whole number of millionths: ${v}`);
  const abs = Math.abs(v);
  // Both exact: % of integers, and a multiple of 10^6 divided by 10^6.
  let frac = abs % 1e6;
  const int = (abs - frac) / 1e6;
  let digits = 6;
  while (frac !== 0 && frac % 10 === 0) {
    frac /= 10;
    digits--;
  }
  const out = frac === 0 ? String(int) : `${int}.${String(frac).padStart(digits, "0")}`;
  return v < 0 ? `-${out}` : out;
}

/** Parsed rates (a forecast converts hundreds of thousands of figures at a handful of rates). */
const rates = new Map<string, bigint>();

/** A rate (decimal string) in units (millionths), parsed once per rate (docs/forecast.md#money-and-estimates). @throws as `toUnits`. */
export function rateUnits(rate: string): bigint {
  let r = rates.get(rate);
  if (r === undefined) {
    r = toUnits(rate);
    if (rates.size >= 1000) rates.clear();
    rates.set(rate, r);
  }
  return r;
}

const HALF = ONE / 2n;

/** `v × r` in units (`r` a rate in units, {@link rateUnits}), rounded half away from zero (docs/forecast.md#money-and-estimates). */
export function timesRateUnits(v: bigint, r: bigint): bigint {
  const p = v * r;
  return (p < 0n ? p - HALF : p + HALF) / ONE;
}

/** `v × rate` (rate a decimal string), rounded half away from zero to units. */
export function timesRate(v: bigint, rate: string): bigint {
  return timesRateUnits(v, rateUnits(rate));
}
