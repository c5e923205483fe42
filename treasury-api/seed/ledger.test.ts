/**
 * The demo ledger's today: bookings and intraday points never later than the
 * current time, and no closing for today (pure generator, no database).
 */
import { describe, expect, it } from "vitest";
import { DEMO_SEED } from "./demo";
import { generateAccountLedger, todayCutoffSeconds } from "./ledger";
import { MONTHS } from "./ledger-text";
import { buildDemoOrganization } from "./organization";

const TODAY = "2026-11-23";
const org = buildDemoOrganization(DEMO_SEED);

function todayOf(now?: Date) {
  return org.accounts.map((account) => {
    const days = [...generateAccountLedger(org, account, { seed: DEMO_SEED, scale: 1, today: TODAY, now })];
    return days[days.length - 1];
  });
}

describe("MONTHS", () => {
  it("has each country's twelve month names from Intl, in its language (a build without locale data would fail)", () => {
    for (const names of Object.values(MONTHS)) expect(names).toHaveLength(12);
    expect([MONTHS.NO[4], MONTHS.SE[4], MONTHS.DK[2], MONTHS.FI[0], MONTHS.NO[11]]).toEqual([
      "mai",
      "maj",
      "marts",
      "tammikuu",
      "desember",
    ]);
  });
});

describe("todayCutoffSeconds", () => {
  it("is 08:00 without a time, the time when earlier that day, 08:00 for another day", () => {
    expect(todayCutoffSeconds(TODAY)).toBe(8 * 3600);
    expect(todayCutoffSeconds(TODAY, new Date("2026-11-23T07:08:30Z"))).toBe(7 * 3600 + 8 * 60 + 30);
    expect(todayCutoffSeconds(TODAY, new Date("2026-11-23T21:00:00Z"))).toBe(8 * 3600);
    expect(todayCutoffSeconds(TODAY, new Date("2026-11-24T01:00:00Z"))).toBe(8 * 3600);
  });
});

describe("generateAccountLedger today", () => {
  it("at 07:08 has no intraday point and no booking later than 07:08", () => {
    const now = new Date("2026-11-23T07:08:00Z");
    const days = todayOf(now);
    expect(days.every((d) => d?.date === TODAY && d.isToday)).toBe(true);
    const points = days.flatMap((d) => d?.intraday ?? []);
    const bookings = days.flatMap((d) => d?.transactions ?? []);
    expect(points.length).toBeGreaterThan(0);
    expect(bookings.length).toBeGreaterThan(0);
    for (const p of points) expect(Date.parse(p.timestamp)).toBeLessThanOrEqual(now.getTime());
    for (const t of bookings) expect(Date.parse(t.bookedAt)).toBeLessThanOrEqual(now.getTime());
    // 00:00 … 07:00 in quarters: 29 points per account.
    for (const d of days) expect(d?.intraday).toHaveLength(29);
  });

  it("keeps today's interim equal to the last closing plus today's bookings so far", () => {
    const now = new Date("2026-11-23T06:00:00Z");
    for (const account of org.accounts.slice(0, 10)) {
      const days = [...generateAccountLedger(org, account, { seed: DEMO_SEED, scale: 1, today: TODAY, now })];
      const [prev, today] = days.slice(-2);
      const net = (today?.transactions ?? []).reduce(
        (s, t) => s + (t.direction === "credit" ? t.amountMinor : -t.amountMinor),
        0,
      );
      expect(today?.bookedMinor).toBe((prev?.bookedMinor ?? 0) + net);
      const last = today?.intraday[today.intraday.length - 1];
      expect(last?.timestamp).toBe("2026-11-23T06:00:00Z");
      expect(last?.balanceMinor).toBe(today?.bookedMinor);
    }
  });

  it("without a time runs today to 08:00 (pinned demo data unchanged)", () => {
    for (const d of todayOf()) expect(d?.intraday).toHaveLength(33);
  });
});
