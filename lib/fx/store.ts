/**
 * Writes FX reference rates into the dashboard database (table `fx_rates`)
 * and reads them back. An import is one transaction: all rows of a file or
 * none. It is idempotent: a row is keyed by (base, quote, rate_date); a rate
 * already stored with the same value (compared as decimals, so "1.09" equals
 * "1.0900") and the same source is left alone, anything else is inserted or
 * overwritten, and the counts say which.
 */
import { chunk as chunked } from "es-toolkit";
import Decimal from "decimal.js";
import { and, between, desc, eq, inArray, lt, sql } from "drizzle-orm";
import type { DashboardDb } from "../db/client";
import { fxRates } from "../db/schema";
import type { FxRateRow } from "./rate-file";

/** What an import did: rows inserted, overwritten (other rate or source) and left as they were. */
export interface FxImportResult {
  inserted: number;
  updated: number;
  unchanged: number;
  /** First and last date of the imported rows; null for an empty list. */
  from: string | null;
  to: string | null;
}

/** Rows per INSERT statement (5 parameters each, well below PostgreSQL's 65,535). */
const CHUNK = 2000;

const key = (base: string, quote: string, date: string) => `${base}|${quote}|${date}`;

/**
 * Stores `rows` with their `source` ("ECB", "demo", a URL) in one transaction.
 * `mode: "keep"` never overwrites a stored rate (used by the demo seed, so an
 * imported real rate wins); the default "replace" overwrites a differing one.
 * Concurrent imports are serialised by a table lock (readers are not blocked),
 * so the counts are exact.
 * @throws RangeError for an empty source or two rows with one key but other
 *   rates (the parsers refuse such files already); database errors as they come
 *   (and then nothing is written).
 */
export async function importRates(
  db: DashboardDb,
  rows: readonly FxRateRow[],
  opts: { source: string; mode?: "replace" | "keep" },
): Promise<FxImportResult> {
  const source = opts.source.trim();
  if (!source) throw new RangeError("source must not be empty");
  const wanted = new Map<string, FxRateRow>();
  for (const r of rows) {
    const k = key(r.base, r.quote, r.date);
    const prior = wanted.get(k);
    if (prior && !new Decimal(prior.rate).eq(r.rate))
      throw new RangeError(`${r.base}/${r.quote} on ${r.date} given twice with different rates`);
    wanted.set(k, r);
  }
  if (wanted.size === 0) return { inserted: 0, updated: 0, unchanged: 0, from: null, to: null };
  const dates = [...wanted.values()].map((r) => r.date).sort();
  const from = dates[0] ?? null;
  const to = dates[dates.length - 1] ?? null;
  const bases = [...new Set([...wanted.values()].map((r) => r.base))];
  const quotes = [...new Set([...wanted.values()].map((r) => r.quote))];

  return db.transaction(async (tx) => {
    await tx.execute(sql`lock table ${fxRates} in share row exclusive mode`);
    const stored = new Map<string, { rate: string; source: string }>();
    if (from && to) {
      const existing = await tx
        .select({
          base: fxRates.base,
          quote: fxRates.quote,
          date: fxRates.rateDate,
          rate: fxRates.rate,
          source: fxRates.source,
        })
        .from(fxRates)
        .where(and(inArray(fxRates.base, bases), inArray(fxRates.quote, quotes), between(fxRates.rateDate, from, to)));
      for (const e of existing) stored.set(key(e.base, e.quote, e.date), { rate: e.rate, source: e.source });
    }
    let inserted = 0;
    let updated = 0;
    let unchanged = 0;
    const writes: FxRateRow[] = [];
    for (const [k, r] of wanted) {
      const s = stored.get(k);
      if (!s) inserted++;
      else if (opts.mode === "keep" || (s.source === source && new Decimal(s.rate).eq(r.rate))) {
        unchanged++;
        continue;
      } else updated++;
      writes.push(r);
    }
    for (const part of chunked(writes, CHUNK)) {
      await tx
        .insert(fxRates)
        .values(part.map((r) => ({ rateDate: r.date, base: r.base, quote: r.quote, rate: r.rate, source })))
        .onConflictDoUpdate({
          target: [fxRates.base, fxRates.quote, fxRates.rateDate],
          set: { rate: sql`excluded.rate`, source: sql`excluded.source`, importedAt: sql`now()` },
        });
    }
    return { inserted, updated, unchanged, from, to };
  });
}

/** A stored rate as read back: `1 base = rate quote` on `date`. */
export interface StoredFxRate extends FxRateRow {
  source: string;
  importedAt: string;
}

/** An `fx_rates` row as a {@link StoredFxRate} (the rate stays the exact decimal string stored). */
const toStoredRate = ({ rateDate: date, ...r }: typeof fxRates.$inferSelect): StoredFxRate => ({ date, ...r });

/**
 * The stored rates with base `base` (default EUR) for `quotes` (all when
 * omitted) from `from` to `to` (both inclusive, `YYYY-MM-DD`), oldest first.
 */
export async function listRates(
  db: DashboardDb,
  opts: { base?: string; quotes?: readonly string[]; from: string; to: string },
): Promise<StoredFxRate[]> {
  const conditions = [eq(fxRates.base, opts.base ?? "EUR"), between(fxRates.rateDate, opts.from, opts.to)];
  if (opts.quotes) {
    if (opts.quotes.length === 0) return [];
    conditions.push(inArray(fxRates.quote, [...opts.quotes]));
  }
  const rows = await db
    .select()
    .from(fxRates)
    .where(and(...conditions))
    .orderBy(fxRates.rateDate, fxRates.quote);
  return rows.map(toStoredRate);
}

/**
 * For each of `quotes` (base `base`, default EUR), its latest stored rate
 * dated before `date`; currencies with none are absent. Lets a caller that
 * loaded only a window of rates tell "too old" from "never quoted".
 */
export async function latestRatesBefore(
  db: DashboardDb,
  opts: { base?: string; quotes: readonly string[]; date: string },
): Promise<StoredFxRate[]> {
  if (opts.quotes.length === 0) return [];
  const rows = await db
    .selectDistinctOn([fxRates.quote])
    .from(fxRates)
    .where(
      and(
        eq(fxRates.base, opts.base ?? "EUR"),
        inArray(fxRates.quote, [...opts.quotes]),
        lt(fxRates.rateDate, opts.date),
      ),
    )
    .orderBy(fxRates.quote, desc(fxRates.rateDate));
  return rows.map(toStoredRate);
}
