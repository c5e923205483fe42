/**
 * Missing statements: the learned schedule, the expected days, and through the real app GET /statements/missing,
 * PUT /statements/schedules/{id} (bad input 400, another company's account 404) and the `statement.missing` event
 * emitted once per overdue statement. One PGlite database for the file.
 */
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { balanceSnapshots, statementSchedules, webhookEvents } from "../db/schema";
import { newId } from "../lib/secrets";
import { IDS } from "../test/harness";
import { harnessForFile } from "../test/file-harness";
import { dueAt, expectedDays, learnSchedule, noticeMissingStatements } from "./statement-schedule";

describe("learnSchedule and expectedDays", () => {
  it("learns daily (weekends skipped), weekly, monthly, and none from too little or irregular history", () => {
    expect(
      learnSchedule(["2026-03-02", "2026-03-03", "2026-03-04", "2026-03-05", "2026-03-06", "2026-03-09"]).cadence,
    ).toBe("daily");
    expect(learnSchedule(["2026-03-06", "2026-03-13", "2026-03-20", "2026-03-27"]).cadence).toBe("weekly");
    expect(learnSchedule(["2026-01-31", "2026-02-28", "2026-03-31", "2026-04-30"]).cadence).toBe("monthly");
    expect(learnSchedule(["2026-03-02", "2026-03-03"]).cadence).toBe("none");
    expect(learnSchedule(["2026-01-01", "2026-01-15", "2026-03-01", "2026-03-02"]).cadence).toBe("none");
  });

  it("expects the business days after the last statement, week steps and month ends", () => {
    expect(expectedDays("daily", "2026-03-05", "2026-03-10")).toEqual(["2026-03-06", "2026-03-09", "2026-03-10"]);
    expect(expectedDays("weekly", "2026-03-06", "2026-03-21")).toEqual(["2026-03-13", "2026-03-20"]);
    expect(expectedDays("monthly", "2026-01-31", "2026-04-29")).toEqual(["2026-02-28", "2026-03-31"]);
    expect(expectedDays("none", "2026-01-31", "2026-04-29")).toEqual([]);
    expect(dueAt("2026-03-06", { lagDays: 1, dueHour: 10 })).toBe("2026-03-07T10:00:00.000Z");
  });
});

describe("through the app", () => {
  const h = harnessForFile();

  const day = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
  const weekday = (d: string) => new Date(`${d}T00:00:00Z`).getUTCDay();

  /** Statement closings (as an import writes them) on the weekdays from `from` to `to` days ago. */
  async function statements(accountId: string, companyId: string, from: number, to: number) {
    const rows = [];
    for (let n = from; n >= to; n--) {
      const d = day(n);
      if (weekday(d) % 6 === 0) continue;
      rows.push({
        id: newId(),
        tenantId: IDS.tenant,
        companyId,
        accountId,
        balanceType: "closing_booked",
        asOfDate: d,
        balance: "100.00",
        currency: "NOK",
        source: "camt.053",
      });
    }
    await h.database.db
      .insert(balanceSnapshots)
      .values(rows)
      .onConflictDoUpdate({
        target: [balanceSnapshots.accountId, balanceSnapshots.balanceType, balanceSnapshots.asOfDate],
        set: { source: "camt.053" },
      });
  }

  const missingEvents = async () =>
    (
      await h.database.db
        .select({ n: sql<number>`count(*)::int` })
        .from(webhookEvents)
        .where(eq(webhookEvents.type, "statement.missing"))
    )[0]?.n ?? 0;

  type Missing = {
    account_id: string;
    expected_date: string;
    due_at: string;
    cadence: string;
    schedule_source: string;
  };

  it("lists the overdue statements of a daily account and emits statement.missing once per statement", async () => {
    // Daily statements from 40 to 10 days ago, then nothing.
    await statements(IDS.accountA1, IDS.companyA, 40, 10);
    const res = await h.call("GET", "/statements/missing", { client: "fullB", company: IDS.companyA });
    expect(res.status).toBe(200);
    const mine = ((await res.json()) as { results: Missing[] }).results.filter((m) => m.account_id === IDS.accountA1);
    const expected = Array.from({ length: 9 }, (_, i) => day(9 - i)).filter(
      (d) => weekday(d) % 6 !== 0 && dueAt(d, { lagDays: 1, dueHour: 10 }) < new Date().toISOString(),
    );
    expect(mine.map((m) => m.expected_date)).toEqual(expected);
    expect(mine.every((m) => m.cadence === "daily" && m.schedule_source === "learned")).toBe(true);

    const before = await missingEvents();
    const first = await noticeMissingStatements(h.database.db);
    expect(first).toBeGreaterThanOrEqual(expected.length);
    expect(await missingEvents()).toBe(before + first);
    // Again: nothing new.
    expect(await noticeMissingStatements(h.database.db)).toBe(0);
    expect(await missingEvents()).toBe(before + first);
    const [event] = await h.database.db
      .select()
      .from(webhookEvents)
      .where(and(eq(webhookEvents.type, "statement.missing"), eq(webhookEvents.companyId, IDS.companyA)))
      .limit(1);
    expect((event?.payload as { data: Missing }).data).toMatchObject({ account_id: IDS.accountA1, cadence: "daily" });
  });

  it("a schedule set to none silences the account; bad input is 400; another company's account 404", async () => {
    const put = (id: string, json: unknown, company = IDS.companyA) =>
      h.call("PUT", `/statements/schedules/${id}`, { client: "fullB", company, idem: true, json });
    expect((await put(IDS.accountA1, { cadence: "none", lag_days: 1, due_hour: 10 })).status).toBe(200);
    const res = await h.call("GET", "/statements/missing", { client: "fullB", company: IDS.companyA });
    const list = ((await res.json()) as { results: Missing[] }).results;
    expect(list.filter((m) => m.account_id === IDS.accountA1)).toEqual([]);
    for (const bad of [
      { cadence: "hourly", lag_days: 1, due_hour: 10 },
      { cadence: "daily", lag_days: -1, due_hour: 10 },
      { cadence: "daily", lag_days: 1, due_hour: 24 },
      { cadence: "daily", lag_days: 1.5, due_hour: 10 },
      { cadence: "daily", lag_days: 1, due_hour: 10, extra: true },
    ]) {
      const r = await put(IDS.accountA2, bad);
      expect(r.status, JSON.stringify(bad)).toBe(400);
    }
    expect(
      await h.database.db.select().from(statementSchedules).where(eq(statementSchedules.accountId, IDS.accountA2)),
    ).toEqual([]);
    expect((await put(IDS.accountC1, { cadence: "daily", lag_days: 1, due_hour: 10 })).status).toBe(404);
  });

  it("statement.missing is an event kind endpoints can subscribe to", async () => {
    const res = await h.call("POST", "/webhooks", {
      client: "fullB",
      idem: true,
      json: { url: "http://127.0.0.1:9/hook", events: ["statement.missing"] },
    });
    expect(res.status, await res.clone().text()).toBe(201);
  });
});
