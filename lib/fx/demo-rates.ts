/**
 * Deterministic demo FX rates, so that a fresh clone converts amounts with no
 * network: EUR-based daily rates for every currency the demo data uses, on
 * the ECB's publishing days (Monday to Friday except the TARGET holidays: 1
 * January, Good Friday, Easter Monday, 1 May, 25 and 26 December).
 *
 * A rate is a pure function of its currency and date (integer hashing, no
 * floats, no clock), so seeding on another day adds the new days and leaves
 * every earlier rate as it was. Each currency wanders smoothly around an
 * anchor near its late-2025 level: a value drawn per week and interpolated
 * between weeks, plus a small daily jitter, written with the decimals the ECB
 * publishes for that currency. Rates are labelled with the source "demo".
 */
import type { DashboardDb } from "../db/client";
import { closingReason } from "../payments/bank-holidays";
import { addDays, daysBetween } from "./dates";
import type { FxRateRow } from "./rate-file";
import { importRates, type FxImportResult } from "./store";

interface DemoCurrency {
  /** The anchor rate in units of the last published decimal (NOK 117000 = 11.7000). */
  anchor: number;
  decimals: number;
  /** Largest weekly swing and daily jitter, in the same units. */
  swing: number;
  jitter: number;
}

/**
 * The demo currencies: the demo accounts' NOK, SEK, DKK, EUR and USD, the
 * foreign-currency payments' GBP and CHF, and JPY (a default four-eyes
 * threshold currency).
 */
export const DEMO_FX_CURRENCIES: Readonly<Record<string, DemoCurrency>> = {
  NOK: { anchor: 117000, decimals: 4, swing: 2500, jitter: 150 },
  SEK: { anchor: 110000, decimals: 4, swing: 2500, jitter: 150 },
  // The krone is pegged to the euro (ERM II): it barely moves.
  DKK: { anchor: 74600, decimals: 4, swing: 15, jitter: 5 },
  USD: { anchor: 11500, decimals: 4, swing: 400, jitter: 40 },
  GBP: { anchor: 87000, decimals: 5, swing: 1500, jitter: 150 },
  CHF: { anchor: 9350, decimals: 4, swing: 200, jitter: 20 },
  JPY: { anchor: 17500, decimals: 2, swing: 600, jitter: 60 },
};

/** How far back the demo rates reach: the treasury-api's 13 months of history, a month to spare. */
export const DEMO_FX_MONTHS = 14;

const EPOCH = "2000-01-03"; // a Monday: week numbers count from it

/** FNV-1a of the text, as an unsigned 32-bit integer. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** A whole number in [-max, max] drawn from the text. */
function draw(text: string, max: number): number {
  return (hash(text) % (2 * max + 1)) - max;
}

/**
 * True on the days the ECB publishes reference rates: the TARGET2 business
 * days of `date` (`YYYY-MM-DD`), i.e. no weekend and no day of the TARGET2
 * closing calendar in lib/payments/bank-holidays.ts.
 */
export function isEcbPublishingDay(date: string): boolean {
  return closingReason(date, ["TARGET2"]) === null;
}

/** Integer units written with `decimals` decimals (117000, 4 → "11.7000"). */
function formatUnits(units: number, decimals: number): string {
  const s = String(units).padStart(decimals + 1, "0");
  return decimals === 0 ? s : `${s.slice(0, -decimals)}.${s.slice(-decimals)}`;
}

/**
 * The demo rate `1 EUR = rate currency` of `date`, as the ECB would write it.
 * @throws RangeError for a currency not in {@link DEMO_FX_CURRENCIES}.
 */
export function demoRate(currency: string, date: string): string {
  const c = DEMO_FX_CURRENCIES[currency];
  if (!c) throw new RangeError(`no demo rate for ${currency}`);
  const day = daysBetween(EPOCH, date);
  const week = Math.floor(day / 7);
  const offset = day - week * 7;
  const a = draw(`${currency}:w${week}`, c.swing);
  const b = draw(`${currency}:w${week + 1}`, c.swing);
  // Linear between this week's and next week's value, rounded to whole units (integers only).
  const mixed = a * (7 - offset) + b * offset;
  const smooth = Math.sign(mixed) * Math.floor((Math.abs(mixed) + 3) / 7);
  return formatUnits(c.anchor + smooth + draw(`${currency}:d${day}`, c.jitter), c.decimals);
}

/** The demo rates of every demo currency on each publishing day from `from` to `to` (inclusive). */
export function demoRates(from: string, to: string): FxRateRow[] {
  const out: FxRateRow[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) {
    if (!isEcbPublishingDay(d)) continue;
    for (const quote of Object.keys(DEMO_FX_CURRENCIES))
      out.push({ date: d, base: "EUR", quote, rate: demoRate(quote, d) });
  }
  return out;
}

/** The first day of the demo rate period ending at `today`: {@link DEMO_FX_MONTHS} months back. */
export function demoRatesStart(today: string): string {
  const d = new Date(`${today}T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() - DEMO_FX_MONTHS);
  return d.toISOString().slice(0, 10);
}

/**
 * Seeds the demo rates for the demo period ending at `today` (UTC date).
 * Idempotent, and never overwrites a stored rate (an imported ECB rate of the
 * same day wins over the demo one).
 */
export async function seedDemoRates(db: DashboardDb, today: string): Promise<FxImportResult> {
  return importRates(db, demoRates(demoRatesStart(today), today), { source: "demo", mode: "keep" });
}
