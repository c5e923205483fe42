/**
 * The fast paths of docs/forecast.md#speed give the same numbers as plain exact arithmetic: bucket sums and
 * balances against decimal.js sums of the same flows (with number sums, and with amounts so large the bigint
 * path takes over), the counting sort against the stable `Array.prototype.sort`, the columns of parsed figures
 * against decimal.js and never stale, and the engine's own cents parsing against decimal.js.
 */
import Decimal from "decimal.js";
import { describe, expect, it } from "vitest";
import { addDaysIso } from "../dates";
import { bucket, groupOfFlows } from "./engine";
import { centsMillionths, flowColumns, sortWithColumns } from "./flow-units";
import { applyScenario, balances } from "./scenario";
import { groupBuckets } from "./sources";
import type { Flow } from "./types";

const FROM = "2026-12-01";
const TO = "2027-02-28";

/** Random flows over FROM…TO; `scale` multiplies the amounts (1e12 pushes sums past 2^53 millionths). */
function flows(count: number, scale: number, seed: number): Flow[] {
  let s = seed;
  const rand = () => (s = (s * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  const out: Flow[] = [];
  for (let i = 0; i < count; i++) {
    const cents = Math.round((rand() - 0.4) * 200_000 * scale);
    const amount = new Decimal(cents).div(100).toFixed(i % 7 === 0 ? 6 : 2);
    const band = new Decimal(Math.round(rand() * 5000)).div(100);
    out.push({
      date: addDaysIso(FROM, Math.floor(rand() * 90)),
      company: `c${i % 3}`,
      currency: i % 4 === 0 ? "USD" : "EUR",
      category: `k${i % 5}`,
      amount,
      p10: new Decimal(amount).minus(band).toFixed(),
      p90: new Decimal(amount).plus(band).toFixed(),
      source: "statistical",
    });
  }
  return out;
}

/** Weekly sums by company, currency and category with decimal.js, as `bucket` should give them. */
function reference(fl: readonly Flow[]) {
  const m = new Map<string, [Decimal, Decimal, Decimal]>();
  for (const f of fl) {
    const week = Math.floor((Date.parse(f.date) - Date.parse(FROM)) / (7 * 86_400_000));
    const k = `${addDaysIso(FROM, week * 7)}|${f.company}|${f.currency}|${f.category}`;
    const e = m.get(k) ?? [new Decimal(0), new Decimal(0), new Decimal(0)];
    m.set(k, [e[0].plus(f.amount), e[1].plus(f.p10), e[2].plus(f.p90)]);
  }
  return [...m.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, [a, lo, hi]]) => [k, a.toFixed(), lo.toFixed(), hi.toFixed()]);
}

/** Lowest end-of-day balance per company and currency with decimal.js. */
function lowest(fl: readonly Flow[], openings: Record<string, string>) {
  const out: Record<string, { amount: string; date: string }> = {};
  for (const key of Object.keys(openings)) {
    let bal = new Decimal(openings[key] ?? 0);
    let low: { amount: Decimal; date: string } | undefined;
    for (let d = FROM; d <= TO; d = addDaysIso(d, 1)) {
      for (const f of fl) if (f.date === d && `${f.company}|${f.currency}` === key) bal = bal.plus(f.amount);
      if (!low || bal.lessThan(low.amount)) low = { amount: bal, date: d };
    }
    if (low) out[key] = { amount: low.amount.toFixed(), date: low.date };
  }
  return out;
}

describe.each([
  ["sums as numbers", 1],
  ["sums past 2^53 millionths (bigints)", 1e9],
])("fast paths give the exact numbers: %s", (_, scale) => {
  const fl = flows(600, scale, 7);
  const openings = ["c0", "c1", "c2"].flatMap((company) =>
    ["EUR", "USD"].map((currency) => ({ company, currency, amount: "1000.50" })),
  );

  it("bucket matches decimal.js sums", () => {
    const got = bucket(fl, FROM, "week").map((r) => [
      `${r.start}|${r.company}|${r.currency}|${r.category}`,
      new Decimal(r.amount).toFixed(),
      new Decimal(r.p10).toFixed(),
      new Decimal(r.p90).toFixed(),
    ]);
    expect(got).toEqual(reference(fl));
    // Twice: the second read uses the figures kept on the flows.
    expect(bucket(fl, FROM, "week")).toEqual(bucket(fl, FROM, "week"));
  });

  it("a scenario's group straight from the flows equals the group of its rows", () => {
    const fx = { USD: { rate: "0.912347", date: FROM } };
    for (const granularity of ["week", "day"] as const) {
      expect(groupOfFlows(fl, FROM, granularity, "EUR", fx)).toEqual(
        groupBuckets(bucket(fl, FROM, granularity), "EUR", fx),
      );
      // Without a USD rate, USD is left out and named.
      const none = groupOfFlows(fl, FROM, granularity, "EUR", {});
      expect(none).toEqual(groupBuckets(bucket(fl, FROM, granularity), "EUR", {}));
      expect(none.missing).toEqual(["USD"]);
    }
  });

  it("balances match decimal.js running sums, before and after a scenario", () => {
    const open = Object.fromEntries(openings.map((o) => [`${o.company}|${o.currency}`, o.amount]));
    const check = (f: readonly Flow[]) => {
      const s = balances({ flows: f, openings, from: FROM, to: TO, reportingCurrency: "EUR", fx: {} });
      const got = Object.fromEntries(
        s.byCompany.map((r) => [
          `${r.company}|${r.currency}`,
          { amount: new Decimal(r.lowest.amount).toFixed(), date: r.lowest.date },
        ]),
      );
      expect(got).toEqual(lowest(f, open));
    };
    check(fl);
    const later = applyScenario(
      fl,
      [
        { type: "percent", filter: { category: "k1" }, percent: "-10" },
        { type: "shift", filter: { company: "c0" }, days: 10 },
      ],
      { from: FROM, to: TO },
    );
    check(later.flows);
  });
});

/** `fl` sorted by date through its columns, as the engine and `applyScenario` sort. */
function sortByDate(fl: readonly Flow[]): Flow[] {
  const c = flowColumns(fl);
  return sortWithColumns(fl, c);
}

describe("flow columns", () => {
  it("the counting sort orders like the stable Array.prototype.sort, ties in input order", () => {
    const fl = flows(2000, 1, 3);
    const expected = fl.slice().sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
    expect(sortByDate(fl)).toEqual(expected);
    expect(sortByDate(fl).every((f, i) => f === expected[i])).toBe(true);
  });

  it("the sorted array's columns are its flows' figures, as decimal.js reads them", () => {
    const sorted = sortByDate(flows(500, 1, 11));
    const c = flowColumns(sorted);
    sorted.forEach((f, i) => {
      expect(c.day[i]).toBe(Date.parse(f.date) / 86_400_000);
      expect(c.an[i]).toBe(new Decimal(f.amount).times(1e6).toNumber());
      expect(c.lon[i]).toBe(new Decimal(f.p10).times(1e6).toNumber());
      expect(c.hin[i]).toBe(new Decimal(f.p90).times(1e6).toNumber());
      expect(c.series[c.sid[i] ?? -1]).toEqual({ company: f.company, currency: f.currency, category: f.category });
    });
  });

  it("reads an array again when a flow in it was replaced; nothing is kept on the flows", () => {
    const fl = flows(3, 1, 5);
    expect(flowColumns(fl).an[1]).toBe(new Decimal((fl[1] as Flow).amount).times(1e6).toNumber());
    fl[1] = { ...(fl[1] as Flow), amount: "12.34", date: "2026-12-05" };
    expect(flowColumns(fl).an[1]).toBe(12_340_000);
    expect(flowColumns(fl).day[1]).toBe(Date.parse("2026-12-05") / 86_400_000);
    const f = fl[0] as Flow;
    expect(Object.keys({ ...f }).sort()).toEqual(Object.keys(f).sort());
    expect(JSON.parse(JSON.stringify(f))).toEqual({ ...f });
  });

  it("past 2^51 millionths a figure is NaN and the array's max is Infinity (sums go through bigints)", () => {
    const big = { ...(flows(1, 1, 9)[0] as Flow), amount: "9999999999.99", p10: "1.00", p90: "2.00" };
    const c = flowColumns([big]);
    expect(c.an[0]).toBeNaN();
    expect(c.max).toBe(Infinity);
  });

  it("centsMillionths reads the engine's toFixed(2) strings as decimal.js does", () => {
    let s = 17;
    const rand = () => (s = (s * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    for (let i = 0; i < 2000; i++) {
      const x = (rand() - 0.5) * 2 * 10 ** Math.floor(rand() * 10);
      const str = x.toFixed(2) === "-0.00" ? "0.00" : x.toFixed(2);
      expect(centsMillionths(str)).toBe(new Decimal(str).times(1e6).toNumber());
    }
    expect(centsMillionths("-999999999.99")).toBe(-999_999_999_990_000);
  });
});
