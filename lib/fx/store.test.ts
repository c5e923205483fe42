import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { memoryDashboardDb } from "../db/test-db";
import { fxRates } from "../db/schema";
import { loadFxRates, sumInCurrency } from "./convert";
import { addDays } from "./dates";
import { DEMO_FX_CURRENCIES, demoRate, demoRatesStart, isEcbPublishingDay, seedDemoRates } from "./demo-rates";
import { parseFxFile } from "./parse";
import type { FxRateRow } from "./rate-file";
import { importRates, listRates } from "./store";

const fixture = (name: string) => readFileSync(path.join(__dirname, "fixtures", name), "utf8");

const database = memoryDashboardDb();
beforeEach(async () => {
  await database.exec("delete from fx_rates");
});

async function count(): Promise<number> {
  const [r] = await database.db.select({ n: sql<number>`count(*)::int` }).from(fxRates);
  return r?.n ?? -1;
}

describe("importRates", () => {
  it("imports a file, and the same file again changes nothing", async () => {
    const file = parseFxFile(fixture("eurofxref-hist.xml"));
    const first = await importRates(database.db, file.rates, { source: "ECB" });
    expect(first).toEqual({ inserted: 203, updated: 0, unchanged: 0, from: "2026-11-12", to: "2026-11-20" });
    const before = await database.db.select().from(fxRates).orderBy(fxRates.quote, fxRates.rateDate);
    const again = await importRates(database.db, file.rates, { source: "ECB" });
    expect(again).toMatchObject({ inserted: 0, updated: 0, unchanged: 203 });
    // Not even imported_at moved: unchanged rows are not written.
    expect(await database.db.select().from(fxRates).orderBy(fxRates.quote, fxRates.rateDate)).toEqual(before);
    // The CSV of the same days holds the same rates: nothing to do either.
    const csv = await importRates(database.db, parseFxFile(fixture("eurofxref-hist.csv")).rates, { source: "ECB" });
    expect(csv).toMatchObject({ inserted: 0, updated: 0, unchanged: 203 });
    // The rate is stored as published (scale kept).
    const [jpy] = await listRates(database.db, { quotes: ["JPY"], from: "2026-11-20", to: "2026-11-20" });
    expect(jpy).toMatchObject({ date: "2026-11-20", base: "EUR", quote: "JPY", rate: "179.81", source: "ECB" });
  });

  it("counts new, changed and unchanged rows; equal decimals are unchanged", async () => {
    await importRates(database.db, parseFxFile(fixture("eurofxref-daily.xml")).rates.slice(0, 3), { source: "ECB" });
    const [usd, jpy, czk] = parseFxFile(fixture("eurofxref-daily.xml")).rates;
    if (!usd || !jpy || !czk) throw new Error("fixture changed");
    const r = await importRates(
      database.db,
      [
        { ...usd, rate: `${usd.rate}000` }, // 1.1573000 = 1.1573
        { ...jpy, rate: "181.00" }, // corrected by the publisher
        czk,
        { date: "2026-11-20", base: "EUR", quote: "NOK", rate: "11.6669" },
      ],
      { source: "ECB" },
    );
    expect(r).toMatchObject({ inserted: 1, updated: 1, unchanged: 2 });
    const stored = await listRates(database.db, { from: "2026-11-20", to: "2026-11-20" });
    expect(stored.map((s) => `${s.quote} ${s.rate}`)).toEqual([
      "CZK 24.231",
      "JPY 181.00",
      "NOK 11.6669",
      "USD 1.1573",
    ]);
    // Another source for the same rate is an update (the row says where it came from).
    expect(await importRates(database.db, [czk], { source: "https://example.test/rates.xml" })).toMatchObject({
      updated: 1,
    });
  });

  it("writes nothing when a row fails in the middle of a large import (one transaction)", async () => {
    const rows: FxRateRow[] = [];
    for (let d = "2020-01-01"; rows.length < 4500; d = addDays(d, 1))
      rows.push({ date: d, base: "EUR", quote: "NOK", rate: "10.5" });
    // The third chunk of the insert hits the database's own check (a zero rate).
    rows.push({ date: "2040-01-01", base: "EUR", quote: "NOK", rate: "0" });
    const failed = await importRates(database.db, rows, { source: "ECB" }).then(
      () => null,
      (err: unknown) => err,
    );
    expect(String((failed as { cause?: unknown })?.cause ?? failed)).toMatch(/fx_rates_rate_positive/);
    expect(await count()).toBe(0);
  });

  it("refuses an empty source and conflicting duplicates before writing", async () => {
    const row = { date: "2026-11-20", base: "EUR", quote: "NOK", rate: "11.7" };
    await expect(importRates(database.db, [row], { source: " " })).rejects.toThrow(/source/);
    await expect(importRates(database.db, [row, { ...row, rate: "11.8" }], { source: "ECB" })).rejects.toThrow(
      /given twice/,
    );
    expect(await count()).toBe(0);
  });
});

describe("loadFxRates", () => {
  it("loads the window and each currency's last older rate, so a too-old rate is told from none", async () => {
    await importRates(database.db, parseFxFile(fixture("eurofxref-hist.csv")).rates, { source: "ECB" });
    const rates = await loadFxRates(database.db, {
      currencies: ["NOK", "SEK", "EUR"],
      from: "2026-12-01",
      to: "2026-12-02",
    });
    expect(rates.convert("10", "NOK", "SEK", "2026-12-01")).toMatchObject({
      status: "unconverted",
      reason: "rate_too_old",
      missing: [
        { currency: "NOK", latestRateDate: "2026-11-20" },
        { currency: "SEK", latestRateDate: "2026-11-20" },
      ],
    });
    const week = await loadFxRates(database.db, { currencies: ["NOK"], from: "2026-11-27", to: "2026-11-27" });
    expect(week.convert("10", "EUR", "NOK", "2026-11-27")).toMatchObject({ rateDate: "2026-11-20", stale: true });
  });
});

describe("demo rates", () => {
  const today = "2026-11-23";

  it("seeds every demo currency on each ECB publishing day of the demo period, idempotently", async () => {
    const first = await seedDemoRates(database.db, today);
    const start = demoRatesStart(today);
    expect(start).toBe("2025-09-23");
    let days = 0;
    for (let d = start; d <= today; d = addDays(d, 1)) if (isEcbPublishingDay(d)) days++;
    const currencies = Object.keys(DEMO_FX_CURRENCIES);
    expect(currencies).toEqual(expect.arrayContaining(["NOK", "SEK", "DKK", "USD", "GBP", "CHF", "JPY"]));
    expect(first).toMatchObject({ inserted: days * currencies.length, updated: 0, unchanged: 0, to: today });
    expect(await seedDemoRates(database.db, today)).toMatchObject({ inserted: 0, unchanged: days * currencies.length });
    // A day later adds that day only; earlier rates are the same whatever day the seed runs.
    const next = await seedDemoRates(database.db, "2026-11-24");
    expect(next.inserted).toBe(currencies.length);
    const [nok] = await listRates(database.db, { quotes: ["NOK"], from: "2026-11-20", to: "2026-11-20" });
    expect(nok).toMatchObject({ rate: demoRate("NOK", "2026-11-20"), source: "demo" });
    // Weekends and TARGET holidays have no rate, like the ECB's.
    expect(await listRates(database.db, { from: "2026-11-21", to: "2026-11-22" })).toEqual([]);
    expect(await listRates(database.db, { from: "2025-12-25", to: "2025-12-26" })).toEqual([]);
  });

  it("keeps an imported rate of the same day rather than the demo one", async () => {
    await importRates(database.db, [{ date: "2026-11-20", base: "EUR", quote: "NOK", rate: "11.6669" }], {
      source: "ECB",
    });
    await seedDemoRates(database.db, today);
    const [nok] = await listRates(database.db, { quotes: ["NOK"], from: "2026-11-20", to: "2026-11-20" });
    expect(nok).toMatchObject({ rate: "11.6669", source: "ECB" });
  });

  it("lets every demo amount of the treasury-api's 13 months be converted, none left out", async () => {
    await seedDemoRates(database.db, today);
    const currencies = ["EUR", ...Object.keys(DEMO_FX_CURRENCIES)];
    const ledgerStart = addDays("2025-10-23", 1); // 13 months before `today`, plus one day
    const rates = await loadFxRates(database.db, { currencies, from: ledgerStart, to: today });
    const amounts = [];
    for (let d = ledgerStart; d <= today; d = addDays(d, 1))
      for (const c of currencies) amounts.push({ amount: "1000.00", currency: c, date: d });
    for (const reporting of ["EUR", "NOK", "JPY"]) {
      const sum = sumInCurrency(rates, amounts, reporting);
      expect(sum.unconverted).toEqual([]);
      expect(sum.items).toHaveLength(amounts.length);
    }
  });
});
