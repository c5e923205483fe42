/**
 * Reporting endpoints (docs/treasury-api.md#reporting; docs/architecture.md#reports): every figure
 * is checked against sums computed here, independently, with decimal.js from
 * the raw fixture rows — for both forms, the aliases, paging, defaults and
 * bad inputs.
 */
import Decimal from "decimal.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, inArray } from "drizzle-orm";
import * as s from "../../db/schema";
import { CLIENTS, IDS, daysAgo, type ClientKey, noonTransaction } from "../../test/harness";
import { harnessForFile } from "../../test/file-harness";
import { AVERAGE_SCALE, FORECAST_LOOKBACK_DAYS, shiftDate, todayUtc } from "../../domain/reporting";
import type { Envelope as Page } from "@treasury/contract/pagination";

const h = harnessForFile();

type Row = Record<string, string>;
type Envelope = Page<Row>;

/** Company ids each caller sees without a company header. */
const TENANT_COMPANIES = [IDS.companyA, IDS.companyB, IDS.companyC];

async function rows(client: ClientKey, path: string, company?: string): Promise<Row[]> {
  const res = await h.call("GET", path, { client, company });
  expect(res.status, `${path}: ${await res.clone().text()}`).toBe(200);
  const json = (await res.json()) as Row[] | Envelope;
  if (CLIENTS[client].form === "A") {
    expect(Array.isArray(json)).toBe(true);
    return json as Row[];
  }
  const env = json as Envelope;
  expect(env).toMatchObject({ page: 1 });
  return env.results;
}

/** Cashflow computed here from the transactions table (not from the aggregate the API reads). */
async function expectedCashflow(companies: string[], from: string, to: string): Promise<Row[]> {
  const txs = await h.database.db.select().from(s.transactions).where(inArray(s.transactions.companyId, companies));
  const acc = new Map<string, { inflow: Decimal; outflow: Decimal }>();
  for (const t of txs) {
    if (t.bookedDate < from || t.bookedDate > to) continue;
    const key = `${t.bookedDate}|${t.currency}`;
    const e = acc.get(key) ?? { inflow: new Decimal(0), outflow: new Decimal(0) };
    if (t.direction === "credit") e.inflow = e.inflow.plus(t.amount);
    else e.outflow = e.outflow.plus(t.amount);
    acc.set(key, e);
  }
  return [...acc.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, e]) => {
      const [date = "", currency = ""] = k.split("|");
      return {
        date,
        currency,
        inflow: e.inflow.toFixed(2),
        outflow: e.outflow.toFixed(2),
        net: e.inflow.minus(e.outflow).toFixed(2),
      };
    });
}

async function expectedPositions(companies: string[], from: string, to: string): Promise<Row[]> {
  const snaps = await h.database.db
    .select()
    .from(s.balanceSnapshots)
    .where(and(inArray(s.balanceSnapshots.companyId, companies), eq(s.balanceSnapshots.balanceType, "closing_booked")));
  const acc = new Map<string, Decimal>();
  for (const b of snaps) {
    if (b.asOfDate < from || b.asOfDate > to) continue;
    const key = `${b.asOfDate}|${b.currency}`;
    acc.set(key, (acc.get(key) ?? new Decimal(0)).plus(b.balance));
  }
  return [...acc.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, v]) => {
      const [date = "", currency = ""] = k.split("|");
      return { date, currency, balance: v.toFixed(2) };
    });
}

describe("cashflow daily", () => {
  it.each([
    ["fullB", IDS.companyA, [IDS.companyA]],
    ["readB", IDS.companyA, [IDS.companyA]],
    ["partnerA", undefined, TENANT_COMPANIES],
    ["partnerA", IDS.companyB, [IDS.companyB]],
  ] as [ClientKey, string | undefined, string[]][])(
    "%s (company %s): default range is the last 30 days, figures equal independent sums",
    async (client, company, companies) => {
      const got = await rows(client, "/reporting/cashflow/daily?limit=1000", company);
      const want = await expectedCashflow(companies, daysAgo(29), daysAgo(0));
      expect(want.length).toBeGreaterThan(29);
      expect(got).toEqual(want);
    },
  );

  it("the alias /reporting/cashflow answers the same, with and without trailing slash", async () => {
    const q = `?from_date=${daysAgo(39)}&to_date=${daysAgo(10)}`;
    const daily = await rows("fullB", `/reporting/cashflow/daily${q}`, IDS.companyA);
    expect(await rows("fullB", `/reporting/cashflow${q}`, IDS.companyA)).toEqual(daily);
    expect(await rows("fullB", `/reporting/cashflow/${q}`, IDS.companyA)).toEqual(daily);
    expect(daily).toEqual(await expectedCashflow([IDS.companyA], daysAgo(39), daysAgo(10)));
  });

  it("currency filter and sort by date then currency", async () => {
    const got = await rows("partnerA", `/reporting/cashflow/daily?from_date=${daysAgo(5)}&to_date=${daysAgo(0)}`);
    const keys = got.map((r) => `${r.date}|${r.currency}`);
    expect(keys).toEqual([...keys].sort());
    const nok = await rows(
      "partnerA",
      `/reporting/cashflow/daily?from_date=${daysAgo(5)}&to_date=${daysAgo(0)}&currency=NOK`,
    );
    expect(nok.length).toBeGreaterThan(0);
    expect(nok).toEqual(got.filter((r) => r.currency === "NOK"));
  });

  it("follows new bookings (the aggregate is kept by the trigger)", async () => {
    const date = daysAgo(2);
    const before = await rows(
      "fullB",
      `/reporting/cashflow/daily?from_date=${date}&to_date=${date}&currency=NOK`,
      IDS.companyA,
    );
    await h.database.db.insert(s.transactions).values(
      noonTransaction(date, {
        id: "61000000-0000-4000-8000-000000000001",
        amount: "0.07",
        direction: "credit",
        source: "api",
      }),
    );
    const after = await rows(
      "fullB",
      `/reporting/cashflow/daily?from_date=${date}&to_date=${date}&currency=NOK`,
      IDS.companyA,
    );
    expect(new Decimal(after[0]?.inflow ?? "0").minus(before[0]?.inflow ?? "0").toFixed(2)).toBe("0.07");
    expect(after).toEqual(
      await expectedCashflow([IDS.companyA], date, date).then((r) => r.filter((x) => x.currency === "NOK")),
    );
  });
});

describe("positions daily", () => {
  it.each([
    ["fullB", IDS.companyB, [IDS.companyB]],
    ["partnerA", undefined, TENANT_COMPANIES],
  ] as [ClientKey, string | undefined, string[]][])(
    "%s (company %s): sums of closing_booked equal independent sums",
    async (client, company, companies) => {
      const got = await rows(client, "/reporting/positions/daily?limit=1000", company);
      expect(got).toEqual(await expectedPositions(companies, daysAgo(29), daysAgo(0)));
      const ranged = await rows(
        client,
        `/reporting/positions?from_date=${daysAgo(39)}&to_date=${daysAgo(35)}&limit=1000`,
        company,
      );
      expect(ranged).toEqual(await expectedPositions(companies, daysAgo(39), daysAgo(35)));
    },
  );
});

describe("paging in the form's shape", () => {
  it("Form B: envelope with count, pages and absolute next/previous links", async () => {
    const q = `from_date=${daysAgo(39)}&to_date=${daysAgo(0)}`;
    const res = await h.call("GET", `/reporting/positions/daily?${q}&page_size=15&page=2`, {
      client: "fullB",
      company: IDS.companyA,
    });
    const env = (await res.json()) as Envelope;
    expect(env).toMatchObject({ count: 80, total_pages: 6, page: 2, page_size: 15 });
    expect(env.results).toHaveLength(15);
    expect(env.next).toMatch(/^http.*\/public\/reporting\/positions\/daily\?.*page=3/);
    expect(env.previous).toMatch(/page=1/);
    const all = await expectedPositions([IDS.companyA], daysAgo(39), daysAgo(0));
    expect(env.results).toEqual(all.slice(15, 30));
    const past = (await (
      await h.call("GET", `/reporting/positions/daily?${q}&page_size=15&page=9`, {
        client: "fullB",
        company: IDS.companyA,
      })
    ).json()) as Envelope;
    expect(past).toMatchObject({ count: 80, results: [], next: null });
  });

  it("Form A: bare array cut at limit; page is refused", async () => {
    expect(await rows("partnerA", "/reporting/cashflow/daily?limit=7")).toHaveLength(7);
    expect((await h.call("GET", "/reporting/cashflow/daily?page=2", { client: "partnerA" })).status).toBe(400);
  });
});

describe("forecast", () => {
  const today = todayUtc();
  const batchId = "62000000-0000-4000-8000-000000000001";

  beforeAll(async () => {
    const creator = { createdByClientId: CLIENTS.fullB.id, initiator: CLIENTS.fullB.clientId };
    const base = { tenantId: IDS.tenant, companyId: IDS.companyA, ...creator, currency: "NOK", instructionCount: 1 };
    await h.database.db.insert(s.paymentBatches).values([
      {
        ...base,
        id: batchId,
        status: "approved",
        totalAmount: "12345.67",
        requestedExecutionDate: shiftDate(today, 3),
      },
      // Overdue but still open: counts on the first projected day.
      {
        ...base,
        id: "62000000-0000-4000-8000-000000000002",
        status: "pending_approval",
        totalAmount: "100.01",
        requestedExecutionDate: shiftDate(today, -2),
      },
      // Finished or rejected batches do not count.
      {
        ...base,
        id: "62000000-0000-4000-8000-000000000003",
        status: "completed",
        totalAmount: "99999.00",
        requestedExecutionDate: shiftDate(today, 2),
      },
      {
        ...base,
        id: "62000000-0000-4000-8000-000000000004",
        status: "rejected",
        totalAmount: "99999.00",
        requestedExecutionDate: shiftDate(today, 2),
      },
    ]);
  });

  /** The forecast computed here from raw rows with decimal.js (the formula of docs/architecture.md#reports). */
  async function expectedForecast(companies: string[], currency: string, from: string, to: string): Promise<Row[]> {
    const db = h.database.db;
    const accts = await db
      .select()
      .from(s.accounts)
      .where(and(inArray(s.accounts.companyId, companies), eq(s.accounts.currency, currency)));
    const snaps = await db
      .select()
      .from(s.balanceSnapshots)
      .where(eq(s.balanceSnapshots.balanceType, "closing_booked"));
    let position = new Decimal(0);
    let baseDate = "";
    for (const a of accts) {
      const latest = snaps
        .filter((b) => b.accountId === a.id && b.asOfDate <= today)
        .sort((x, y) => (x.asOfDate < y.asOfDate ? 1 : -1))[0];
      if (!latest) continue;
      position = position.plus(latest.balance);
      if (latest.asOfDate > baseDate) baseDate = latest.asOfDate;
    }
    const weekday = (d: string) => new Date(`${d}T00:00:00Z`).getUTCDay();
    const lookFrom = shiftDate(today, -FORECAST_LOOKBACK_DAYS);
    const lookTo = shiftDate(today, -1);
    const netByDay = new Map<number, Decimal>();
    const daysByWeekday = new Map<number, number>();
    for (let d = lookFrom; d <= lookTo; d = shiftDate(d, 1))
      daysByWeekday.set(weekday(d), (daysByWeekday.get(weekday(d)) ?? 0) + 1);
    const txs = await db
      .select()
      .from(s.transactions)
      .where(and(inArray(s.transactions.companyId, companies), eq(s.transactions.currency, currency)));
    for (const t of txs) {
      if (t.bookedDate < lookFrom || t.bookedDate > lookTo) continue;
      const signed = t.direction === "credit" ? new Decimal(t.amount) : new Decimal(t.amount).neg();
      netByDay.set(weekday(t.bookedDate), (netByDay.get(weekday(t.bookedDate)) ?? new Decimal(0)).plus(signed));
    }
    const batches = await db
      .select()
      .from(s.paymentBatches)
      .where(and(inArray(s.paymentBatches.companyId, companies), eq(s.paymentBatches.currency, currency)));
    const open = batches.filter((b) => ["created", "pending_approval", "approved", "processing"].includes(b.status));
    const out: Row[] = [];
    let running = position;
    const start = from < shiftDate(baseDate, 1) ? from : shiftDate(baseDate, 1);
    for (let d = start; d <= to; d = shiftDate(d, 1)) {
      const w = weekday(d);
      if (d > baseDate)
        running = running.plus(
          (netByDay.get(w) ?? new Decimal(0))
            .div(daysByWeekday.get(w) ?? 1)
            .toDecimalPlaces(AVERAGE_SCALE, Decimal.ROUND_HALF_UP),
        );
      for (const b of open) {
        const due = b.requestedExecutionDate ?? b.createdAt.slice(0, 10);
        const effective = due < shiftDate(baseDate, 1) ? shiftDate(baseDate, 1) : due;
        if (effective === d) running = running.minus(b.totalAmount);
      }
      if (d >= from)
        out.push({ date: d, currency, amount: running.toDecimalPlaces(2, Decimal.ROUND_HALF_EVEN).toFixed(2) });
    }
    return out;
  }

  it("default: the next 30 days per currency, sorted by date then currency", async () => {
    const got = await rows("fullB", "/reporting/forecast", IDS.companyA);
    expect(got).toHaveLength(60); // NOK and EUR
    expect(got[0]).toMatchObject({ date: shiftDate(today, 1), currency: "EUR" });
    expect(got.at(-1)).toMatchObject({ date: shiftDate(today, 30), currency: "NOK" });
    expect(got.filter((r) => r.currency === "NOK")).toMatchObject(
      await expectedForecast([IDS.companyA], "NOK", shiftDate(today, 1), shiftDate(today, 30)),
    );
    expect(got.filter((r) => r.currency === "EUR")).toMatchObject(
      await expectedForecast([IDS.companyA], "EUR", shiftDate(today, 1), shiftDate(today, 30)),
    );
  });

  it("the outgoing batch lowers the projection on its execution date", async () => {
    const got = await rows("fullB", `/reporting/forecast?currency=NOK&from_date=${today}&days=6`, IDS.companyA);
    expect(got.map((r) => r.date)).toEqual([0, 1, 2, 3, 4, 5].map((n) => shiftDate(today, n)));
    expect(got).toMatchObject(await expectedForecast([IDS.companyA], "NOK", today, shiftDate(today, 5)));
  });

  it("each entry carries its breakdown (extension): opening + expected flows − outgoing batches = amount", async () => {
    const got = await rows("fullB", `/reporting/forecast?currency=NOK&from_date=${today}&days=6`, IDS.companyA);
    const expected = await expectedForecast([IDS.companyA], "NOK", today, shiftDate(today, 5));
    let previousOutgoing = new Decimal(0);
    for (const [i, r] of got.entries()) {
      const b = r.breakdown as unknown as {
        opening: string;
        expected_flows: string;
        outgoing_batches: string;
        outgoing_today: string;
      };
      expect(b).toMatchObject({ opening: expect.stringMatching(/^-?\d+\.\d{2}$/), opening_date: expect.any(String) });
      const sum = new Decimal(b.opening).plus(b.expected_flows).minus(b.outgoing_batches);
      expect(sum.toFixed(2)).toBe(expected[i]?.amount);
      // The day's own batches are the step of the cumulative outgoing.
      expect(new Decimal(b.outgoing_batches).minus(previousOutgoing).toFixed(2)).toBe(b.outgoing_today);
      previousOutgoing = new Decimal(b.outgoing_batches);
    }
    expect(got.some((r) => (r.breakdown as unknown as Record<string, string>).outgoing_today !== "0.00")).toBe(true);
  });

  it("advertises the breakdown in the OpenAPI document", async () => {
    const doc = (await (await h.call("GET", "/openapi.json", {})).json()) as {
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
    };
    expect(doc.components.schemas.ForecastEntry?.properties).toHaveProperty("breakdown");
    expect(JSON.stringify(doc.components.schemas.ForecastEntry)).toContain("expected_flows");
  });

  it("Form A over the whole tenant equals the independent figures", async () => {
    const to = shiftDate(today, 10);
    const got = await rows("partnerA", `/reporting/forecast?to_date=${to}`);
    for (const currency of ["DKK", "EUR", "NOK", "SEK"]) {
      expect(got.filter((r) => r.currency === currency)).toMatchObject(
        await expectedForecast(TENANT_COMPANIES, currency, shiftDate(today, 1), to),
      );
    }
  });

  describe("hand-computed figures (a company of its own, removed afterwards)", () => {
    const F = "20000000-0000-4000-8000-0000000000f1";
    const ACCOUNT = "40000000-0000-4000-8000-0000000000f1";
    const ids = {
      tx: [
        "61000000-0000-4000-8000-0000000000f1",
        "61000000-0000-4000-8000-0000000000f2",
        "61000000-0000-4000-8000-0000000000f3",
      ],
    };

    beforeAll(async () => {
      const db = h.database.db;
      const own = { tenantId: IDS.tenant, companyId: F };
      await db
        .insert(s.companies)
        .values({ id: F, tenantId: IDS.tenant, orgnr: "FC-1", name: "Forecast Check AS", country: "NO" });
      await db.insert(s.accounts).values({
        ...own,
        id: ACCOUNT,
        bankId: "DNBANOKK",
        externalRef: "NO6512345678946",
        name: "Forecast USD",
        currency: "USD",
        bankName: "DNB Bank",
      });
      await db.insert(s.balanceSnapshots).values({
        ...own,
        id: "70000000-0000-4000-8000-0000000000f1",
        accountId: ACCOUNT,
        balanceType: "closing_booked",
        asOfDate: shiftDate(today, -1),
        balance: "1000.00",
        currency: "USD",
      });
      const tx = (id: string, days: number, amount: string, direction: "credit" | "debit") => {
        const date = shiftDate(today, -days);
        return {
          ...own,
          id,
          accountId: ACCOUNT,
          amount,
          currency: "USD",
          direction,
          bookedDate: date,
          bookedAt: `${date}T10:00:00Z`,
          valueDate: date,
          valueAt: `${date}T10:00:00Z`,
          counterpartyName: "X",
          remittance: id,
          source: "api",
        };
      };
      // The 90-day window (today−90 … today−1) holds today's weekday 12 times and the other six weekdays 13
      // times each.
      await db
        .insert(s.transactions)
        .values([
          tx(ids.tx[0] ?? "", 7, "120.00", "credit"),
          tx(ids.tx[1] ?? "", 1, "13.00", "debit"),
          tx(ids.tx[2] ?? "", 2, "1.00", "credit"),
        ]);
      const batch = {
        ...own,
        createdByClientId: CLIENTS.partnerA.id,
        initiator: CLIENTS.partnerA.clientId,
        currency: "USD",
        instructionCount: 1,
      };
      await db.insert(s.paymentBatches).values([
        {
          ...batch,
          id: "62000000-0000-4000-8000-0000000000f1",
          status: "approved",
          totalAmount: "50.00",
          requestedExecutionDate: shiftDate(today, 3),
        },
        {
          ...batch,
          id: "62000000-0000-4000-8000-0000000000f2",
          status: "pending_approval",
          totalAmount: "5.00",
          requestedExecutionDate: shiftDate(today, -5),
        },
      ]);
    });
    afterAll(async () => {
      const db = h.database.db;
      await db.delete(s.paymentBatches).where(eq(s.paymentBatches.companyId, F));
      await db.delete(s.transactions).where(eq(s.transactions.companyId, F));
      await db.delete(s.accountDayFlows).where(eq(s.accountDayFlows.companyId, F));
      await db.delete(s.balanceSnapshots).where(eq(s.balanceSnapshots.companyId, F));
      await db.delete(s.accounts).where(eq(s.accounts.companyId, F));
      await db.delete(s.companies).where(eq(s.companies.id, F));
    });

    it(
      "position 1000.00; weekday averages +120/12, −13/13, +1/13 (6 decimals); batches −5 (overdue, first day) " +
        "and " +
        "−50",
      async () => {
        const got = await rows("partnerA", `/reporting/forecast?from_date=${today}&days=8`, F);
        // Day by day: today +10 −5 | 0 | 0 | −50 | 0 | +0.076923 | −1 | +10 (today's weekday again).
        expect(got.map((r) => [r.date, r.currency, r.amount])).toEqual([
          [today, "USD", "1005.00"],
          [shiftDate(today, 1), "USD", "1005.00"],
          [shiftDate(today, 2), "USD", "1005.00"],
          [shiftDate(today, 3), "USD", "955.00"],
          [shiftDate(today, 4), "USD", "955.00"],
          [shiftDate(today, 5), "USD", "955.08"],
          [shiftDate(today, 6), "USD", "954.08"],
          [shiftDate(today, 7), "USD", "964.08"],
        ]);
      },
    );
  });

  it("400 for a past from_date, days with to_date, days out of range, a range over 366 days", async () => {
    for (const q of [
      `from_date=${daysAgo(1)}`,
      `days=5&to_date=${shiftDate(today, 9)}`,
      "days=0",
      "days=367",
      "days=abc",
      `to_date=${shiftDate(today, 400)}`,
    ]) {
      const res = await h.call("GET", `/reporting/forecast?${q}`, { client: "fullB", company: IDS.companyA });
      expect(res.status, q).toBe(400);
      expect(((await res.json()) as { error: string }).error).toBe("validation_error");
    }
  });

  it("needs read:forecast (read:reporting is not enough)", async () => {
    const res = await h.call("GET", "/reporting/forecast", {
      client: "fullB",
      scope: "read:reporting",
      company: IDS.companyA,
    });
    expect(res.status).toBe(403);
  });
});

describe("bad requests and access", () => {
  const paths = [
    "/reporting/cashflow/daily",
    "/reporting/cashflow",
    "/reporting/positions/daily",
    "/reporting/positions",
    "/reporting/forecast",
  ];

  it.each(paths)("%s: 400 for unknown parameter, bad dates, bad currency, reversed range", async (path) => {
    for (const q of [
      "foo=1",
      "from_date=2026-02-30",
      "to_date=yesterday",
      "currency=nok",
      "currency=XXY",
      `from_date=${daysAgo(1)}&to_date=${daysAgo(3)}`,
    ]) {
      const res = await h.call("GET", `${path}?${q}`, { client: "fullB", company: IDS.companyA });
      expect(res.status, `${path}?${q}`).toBe(400);
    }
  });

  it.each(paths)("%s: Form B needs X-Company-ID (400), a foreign company is 403, a missing scope 403", async (path) => {
    expect((await h.call("GET", path, { client: "fullB" })).status).toBe(400);
    expect((await h.call("GET", path, { client: "fullB", company: IDS.companyC })).status).toBe(403);
    expect((await h.call("GET", path, { client: "otherB", company: IDS.companyA })).status).toBe(403);
    expect((await h.call("GET", path, { client: "fullB", scope: "read:ledger", company: IDS.companyA })).status).toBe(
      403,
    );
  });

  it("another tenant's client sees only its own data", async () => {
    const got = await rows("otherB", "/reporting/cashflow/daily", IDS.companyD);
    expect(got).toEqual(await expectedCashflow([IDS.companyD], daysAgo(29), daysAgo(0)));
  });
});
