/**
 * The forecast's own routes (docs/forecast.md#the-routes) through their real handlers, with the dashboard's
 * in-memory database and the real local treasury-api (small demo seed): manual lines and scenarios are created,
 * listed, replaced and deleted, each write audited once; bad input — a manual line with a bad currency, a
 * scenario that shifts by 400 days, an end date before the start, a company the user cannot see — is a 400 naming
 * the field that creates and audits nothing; a viewer gets a 403 naming `forecast.manage`; settings are idempotent.
 * The export route gives the same forecast as CSV and as XLSX (read back with exceljs), and refuses a bad `format`.
 * The variance route: a forecast computation keeps one snapshot per ISO week and company (a second one, or two racing
 * writes, change nothing); a snapshot built in the test is compared with the week's actuals; bad queries are 400s.
 */
import { beforeAll, describe, expect, it, vi } from "vitest";

vi.mock("server-only", () => ({}));
vi.mock("../auth/session", async () => (await import("./testing/local-api")).sessionModule);
vi.mock("next/headers", async () => (await import("./testing/local-api")).headersModule);

import { randomUUID } from "node:crypto";
import ExcelJS from "exceljs";
import Papa from "papaparse";
import { listAudit } from "../db/audit";
import { dashboardDb } from "../server/db";
import { bffSuite, callRouteResponse, errorFields, testUser, type RouteHandler } from "./testing/local-api";
import * as linesRoute from "../../app/api/forecast/lines/route";
import * as lineRoute from "../../app/api/forecast/lines/[id]/route";
import * as scenariosRoute from "../../app/api/forecast/scenarios/route";
import * as scenarioRoute from "../../app/api/forecast/scenarios/[id]/route";
import * as settingsRoute from "../../app/api/forecast/settings/route";
import * as forecastRoute from "../../app/api/forecast/route";
import * as exportRoute from "../../app/api/forecast/export/route";
import * as varianceRoute from "../../app/api/forecast/variance/route";
import * as snapshotsRoute from "../../app/api/forecast/snapshots/route";
import { getConfig } from "../server/config";
import { addDaysIso, todayUtc } from "../dates";
import { listSnapshots, saveSnapshots } from "../forecast/store";
import { isoWeek, weekStart } from "../forecast/variance";

const ORIGIN = "http://127.0.0.1:3996";
const bff = bffSuite({ origin: ORIGIN });
let companyId: string;
const treasurer = testUser("forecast.treasurer", ["treasurer"]);
const viewer = testUser("forecast.viewer", ["viewer"]);

beforeAll(() => {
  companyId = bff.local.company().id;
});

const call = (handler: unknown, method: string, path: string, json?: unknown, who = treasurer, id?: string) =>
  bff.call(handler, who, method, path, { json, ...(id ? { params: { id } } : {}) });

async function auditCount(): Promise<number> {
  return (await listAudit(await dashboardDb(), { companyIds: null })).filter((e) => e.action.startsWith("forecast_"))
    .length;
}

const line = () => ({
  date: "2026-12-15",
  amount: "-250000.00",
  currency: "EUR",
  company_id: companyId,
  category: "Loan repayment",
  recurrence: "quarterly",
  end_date: "2027-12-31",
  note: "Term loan, bank A",
});

/** `GET /api/forecast/export?<query>` as the viewer, through the route handler. */
const exportGet = (query: string) =>
  callRouteResponse(exportRoute.GET as RouteHandler, {
    who: viewer,
    origin: ORIGIN,
    method: "GET",
    path: `/api/forecast/export?${query}`,
  });

/** `answer` to query `q` is a 400 naming `field` (any field when `field` is ""). */
function expectRefused(q: string, field: string, answer: { status: number; body: unknown }): void {
  expect(answer.status, q).toBe(400);
  if (field) expect(errorFields(answer.body as Record<string, unknown>), q).toEqual([field]);
}

/** Each `[query, field]` of `cases`, asked of `get`, is a 400 naming the field (`expectRefused`). */
async function expectEachRefused(
  get: (q: string) => Promise<{ status: number; body: unknown }>,
  cases: readonly (readonly [string, string])[],
): Promise<void> {
  for (const [q, field] of cases) expectRefused(q, field, await get(q));
}

describe("manual lines", () => {
  it("refuses bad input with a 400 naming the field, and a viewer with a 403; nothing is stored or audited", async () => {
    const audited = await auditCount();
    const cases: [Record<string, unknown>, string][] = [
      [{ ...line(), currency: "EURO" }, "currency"],
      [{ ...line(), currency: "XYZ" }, "currency"],
      [{ ...line(), amount: "1e6" }, "amount"],
      [{ ...line(), amount: 250.5 }, "amount"],
      [{ ...line(), amount: "0.00" }, "amount"],
      [{ ...line(), date: "2026-02-30" }, "date"],
      [{ ...line(), end_date: "2026-01-01" }, "end_date"],
      [{ ...line(), recurrence: "yearly" }, "recurrence"],
      [{ ...line(), company_id: randomUUID() }, "company_id"],
      [{ ...line(), category: "a\u0000b" }, "category"],
      [{ ...line(), extra: 1 }, ""],
    ];
    for (const [body, field] of cases) {
      const r = await call(linesRoute.POST, "POST", "/api/forecast/lines", body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      if (field) expect(errorFields(r.body), JSON.stringify(r.body)).toEqual([field]);
    }
    const denied = await call(linesRoute.POST, "POST", "/api/forecast/lines", line(), viewer);
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ details: { permission: "forecast.manage" } });
    const view = await call(linesRoute.GET, "GET", "/api/forecast/lines", undefined, viewer);
    expect(view.status).toBe(200);
    expect(view.body.lines).toEqual([]);
    expect(await auditCount()).toBe(audited);
  });

  it("creates, lists, replaces and deletes a line, each write audited once", async () => {
    const audited = await auditCount();
    const made = await call(linesRoute.POST, "POST", "/api/forecast/lines", line());
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({ ...line(), owner: treasurer.email, amount: "-250000.00" });
    const id = String(made.body.id);
    const view = await call(linesRoute.GET, "GET", "/api/forecast/lines", undefined, viewer);
    expect((view.body.lines as { id: string }[]).map((l) => l.id)).toEqual([id]);
    const put = await call(
      lineRoute.PUT,
      "PUT",
      `/api/forecast/lines/${id}`,
      { ...line(), amount: "-260000" },
      treasurer,
      id,
    );
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ id, amount: "-260000" });
    expect((await call(lineRoute.DELETE, "DELETE", `/api/forecast/lines/${id}`, undefined, treasurer, id)).status).toBe(
      204,
    );
    expect((await call(lineRoute.DELETE, "DELETE", `/api/forecast/lines/${id}`, undefined, treasurer, id)).status).toBe(
      404,
    );
    expect(await auditCount()).toBe(audited + 3);
    const entries = (await listAudit(await dashboardDb(), { companyIds: null, objectIds: [id] })).map((e) => e.action);
    expect(entries.sort()).toEqual(["forecast_line.create", "forecast_line.delete", "forecast_line.update"]);
  });
});

describe("scenarios", () => {
  const later = {
    name: "Customers pay 10 days later",
    adjustments: [{ type: "shift", filter: { category: "Customer receipts" }, days: 10 }],
  };

  it("refuses a shift of 400 days and other bad adjustments, naming the field", async () => {
    const audited = await auditCount();
    const cases: [unknown, string][] = [
      [{ ...later, adjustments: [{ type: "shift", filter: {}, days: 400 }] }, "adjustments[0].days"],
      [{ ...later, adjustments: [{ type: "shift", filter: {}, days: 1.5 }] }, "adjustments[0].days"],
      [{ ...later, adjustments: [{ type: "percent", filter: {}, percent: "-150" }] }, "adjustments[0].percent"],
      [{ ...later, adjustments: [{ type: "fx", currency: "USD", rate: "0" }] }, "adjustments[0].rate"],
      [{ ...later, adjustments: [{ type: "fx", currency: "usd", rate: "1.1" }] }, "adjustments[0].currency"],
      [{ ...later, adjustments: [{ type: "teleport" }] }, "adjustments[0].type"],
      [
        { ...later, adjustments: [{ type: "drop", filter: { from: "2027-01-02", to: "2027-01-01" } }] },
        "adjustments[0].filter.to",
      ],
      [{ ...later, name: "" }, "name"],
    ];
    for (const [body, field] of cases) {
      const r = await call(scenariosRoute.POST, "POST", "/api/forecast/scenarios", body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(errorFields(r.body), JSON.stringify(r.body)).toEqual([field]);
    }
    expect(await auditCount()).toBe(audited);
  });

  it("saves a scenario per team, refuses a duplicate name with a 409, replaces and deletes it", async () => {
    const made = await call(scenariosRoute.POST, "POST", "/api/forecast/scenarios", later);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({ ...later, team: "finance" });
    const id = String(made.body.id);
    const dup = await call(scenariosRoute.POST, "POST", "/api/forecast/scenarios", later);
    expect(dup.status).toBe(409);
    expect(errorFields(dup.body)).toEqual(["name"]);
    const otherTeam = await call(scenariosRoute.POST, "POST", "/api/forecast/scenarios", { ...later, team: "group" });
    expect(otherTeam.status).toBe(201);
    const put = await call(
      scenarioRoute.PUT,
      "PUT",
      `/api/forecast/scenarios/${id}`,
      { ...later, adjustments: [] },
      treasurer,
      id,
    );
    expect(put.body).toMatchObject({ id, adjustments: [] });
    expect(
      (await call(scenarioRoute.DELETE, "DELETE", `/api/forecast/scenarios/${id}`, undefined, treasurer, id)).status,
    ).toBe(204);
    const view = await call(linesRoute.GET, "GET", "/api/forecast/lines", undefined, viewer);
    expect((view.body.scenarios as { team: string }[]).map((s) => s.team)).toEqual(["group"]);
  });
});

describe("settings", () => {
  it("switches a recurring payee off and on and sets a threshold, idempotently", async () => {
    const id = `${companyId}|EUR|payroll bank|debit|monthly`;
    const off = await call(settingsRoute.POST, "POST", "/api/forecast/settings", { id, enabled: false });
    expect(off.body).toMatchObject({ before: { enabled: true }, after: { enabled: false } });
    const again = await call(settingsRoute.POST, "POST", "/api/forecast/settings", { id, enabled: false });
    expect(again.body).toMatchObject({ before: { enabled: false }, after: { enabled: false } });
    const set = await call(settingsRoute.POST, "POST", "/api/forecast/settings", {
      company_id: companyId,
      amount: "500000",
    });
    expect(set.status).toBe(200);
    const bad = await call(settingsRoute.POST, "POST", "/api/forecast/settings", {
      company_id: companyId,
      amount: "lots",
    });
    expect(bad.status).toBe(400);
    const view = await call(linesRoute.GET, "GET", "/api/forecast/lines", undefined, viewer);
    expect(view.body).toMatchObject({ recurring_off: [id], thresholds: { [companyId]: "500000" } });
  });
});

describe("the forecast on real data", () => {
  type View = {
    source: string;
    from: string;
    to: string;
    weeks: number;
    reporting_currency: string;
    rows: { currency: string; amount: string }[];
    group: { start: string; amount: string }[];
    known: { source: string; ref: string; amount: string; date: string }[];
    base: { reporting: { lowest: { amount: string; date: string } }; byCompany: { company: string }[] };
    scenarios: { id: string; name: string; balances: { reporting: { lowest: { amount: string } } } }[];
    failed_companies: string[];
  };
  const get = (query: string) =>
    call(forecastRoute.GET, "GET", `/api/forecast?${query}`, undefined, viewer) as Promise<{
      status: number;
      body: View & Record<string, unknown>;
    }>;

  it("refuses a bad query with a 400 naming the field", () =>
    expectEachRefused(get, [
      ["weeks=27", "weeks"],
      ["weeks=0", "weeks"],
      ["granularity=month", "granularity"],
      ["scenarios=x", "scenarios[0]"],
      ["currency=EURO", "currency"],
      ["refresh=yes", "refresh"],
    ]));

  it("models the company's history, lists a new manual line as a known flow and moves the lowest balance", async () => {
    const before = await get("weeks=4");
    expect(before.status, JSON.stringify(before.body).slice(0, 400)).toBe(200);
    const v = before.body;
    expect(v.source).toBe("model");
    expect(v.failed_companies).toEqual([]);
    expect(v.weeks).toBe(4);
    expect(v.group).toHaveLength(4);
    expect(v.rows.length).toBeGreaterThan(0);
    expect(v.base.byCompany.map((c) => c.company)).toContain(companyId);
    // A manual payment of 1,000,000 on the first forecast day: cached forecasts are dropped, the low falls by it.
    const made = await call(linesRoute.POST, "POST", "/api/forecast/lines", {
      ...line(),
      date: v.from,
      amount: "-1000000.00",
      currency: v.reporting_currency,
      recurrence: "once",
      end_date: null,
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const after = (await get("weeks=4")).body;
    expect(after.known).toContainEqual(
      expect.objectContaining({ source: "manual", ref: made.body.id, amount: "-1000000.00", date: v.from }),
    );
    const low = (x: View) => Number(x.base.reporting.lowest.amount);
    expect(low(after)).toBeLessThanOrEqual(low(v) - 1_000_000 + 0.01);
    // A scenario that drops the line puts the low back where it was.
    const sc = await call(scenariosRoute.POST, "POST", "/api/forecast/scenarios", {
      name: "Without the big payment",
      adjustments: [{ type: "drop", filter: { ref: made.body.id } }],
    });
    expect(sc.status).toBe(201);
    const withScenario = (await get(`weeks=4&scenarios=${String(sc.body.id)}`)).body;
    expect(withScenario.scenarios.map((s) => s.name)).toEqual(["Without the big payment"]);
    expect(withScenario.scenarios[0]?.balances.reporting.lowest.amount).toBe(v.base.reporting.lowest.amount);
    await call(
      lineRoute.DELETE,
      "DELETE",
      `/api/forecast/lines/${String(made.body.id)}`,
      undefined,
      treasurer,
      String(made.body.id),
    );
  });
});

describe("the export route", () => {
  it("refuses a bad format or kind with a 400 naming the field", () =>
    expectEachRefused(
      async (q) => {
        const r = await exportGet(q);
        return { status: r.status, body: await r.json() };
      },
      [
        ["format=pdf", "format"],
        ["format=XLSX", "format"],
        ["kind=varianc&format=xlsx", "kind"],
      ],
    ));

  it("writes the forecast as XLSX with the CSV's rows and a Rates sheet", async () => {
    const csv = await exportGet("weeks=2");
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toContain("text/csv");
    const lines = (await csv.text()).trim().split("\r\n");
    const res = await exportGet("weeks=2&format=xlsx");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    expect(res.headers.get("content-disposition")).toMatch(/filename="forecast_forecast_.*_2w_[A-Z]{3}\.xlsx"/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await res.arrayBuffer());
    const ws = wb.getWorksheet("Forecast");
    const row = (n: number) => (ws?.getRow(n).values as unknown[]).slice(1);
    expect(row(1).join(",")).toBe(lines[0]);
    expect(ws?.rowCount).toBe(lines.length);
    // The first data row: same company, currency, category and amount as the CSV's, the dates as date cells.
    const first = Papa.parse<string[]>(lines[1] ?? "").data[0] ?? [];
    const cells = row(2);
    expect(cells[0]).toEqual(new Date(`${first[0]}T00:00:00Z`));
    expect(cells.slice(2, 5)).toEqual(first.slice(2, 5).map((c) => c.replace(/^'/, "")));
    expect(String(cells[5])).toBe(String(Number(first[5])));
    const rates = wb.getWorksheet("Rates");
    expect((rates?.getRow(1).values as unknown[]).slice(1)).toEqual([
      "currency",
      "reporting_currency",
      "rate",
      "rate_date",
    ]);
    expect(rates?.rowCount).toBeGreaterThanOrEqual(2);
    const comparison = await exportGet("weeks=1&kind=comparison&format=xlsx");
    expect(comparison.status).toBe(200);
    await wb.xlsx.load(await comparison.arrayBuffer());
    expect(wb.getWorksheet("Comparison")?.getCell("A2").value).toBe("Base case");
  });
});

describe("variance", () => {
  type VarianceBody = {
    weeks: {
      week_start: string;
      snapshot_as_of: string;
      forecast: string;
      actual: string;
      difference: string;
      percent: string | null;
      categories: { category: string; forecast: string; actual: string; difference: string; percent: string | null }[];
    }[];
    wape: string | null;
    category: string | null;
    reporting_currency: string;
    first_comparison: string | null;
  };
  const getVariance = (query: string) =>
    call(varianceRoute.GET, "GET", `/api/forecast/variance?${query}`, undefined, viewer) as Promise<{
      status: number;
      body: VarianceBody & Record<string, unknown>;
    }>;
  const thisMonday = () => weekStart(todayUtc());

  it("refuses a bad query with a 400 naming the field", () =>
    expectEachRefused(getVariance, [
      ["weeks=0", "weeks"],
      ["weeks=27", "weeks"],
      ["weeks=2.5", "weeks"],
      ["weeks=abc", "weeks"],
      ["category=" + "x".repeat(61), "category"],
      ["category=a%00b", "category"],
      ["currency=EURO", "currency"],
      ["week=2", ""],
    ]));

  it("keeps one snapshot per ISO week and company, whatever recomputes or races", async () => {
    const db = await dashboardDb();
    expect((await call(forecastRoute.GET, "GET", "/api/forecast?weeks=13&refresh=1", undefined, viewer)).status).toBe(
      200,
    );
    const week = isoWeek(todayUtc());
    const mine = async () => (await listSnapshots(db, [companyId], thisMonday())).filter((s) => s.iso_week === week);
    const first = await mine();
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({ company: companyId, as_of: todayUtc() });
    expect(first[0]?.rows.every((r) => r.week_start > todayUtc() && /^-?\d+(\.\d+)?$/.test(r.amount))).toBe(true);
    // A recompute and two racing writes of the same week change nothing.
    expect((await call(forecastRoute.GET, "GET", "/api/forecast?weeks=4&refresh=1", undefined, viewer)).status).toBe(
      200,
    );
    const [stored] = first;
    if (!stored) throw new Error("no snapshot");
    const other = { ...stored, forecast_to: addDaysIso(todayUtc(), 30), rows: [] };
    expect(await Promise.all([saveSnapshots(db, [other]), saveSnapshots(db, [other])])).toEqual([0, 0]);
    expect(await mine()).toEqual(first);
  });

  it("compares a week's snapshot with the week's actuals, by category, in CSV and XLSX too", async () => {
    const rc = (await call(forecastRoute.GET, "GET", "/api/forecast?weeks=13", undefined, viewer)).body
      .reporting_currency as string;
    const lastMonday = addDaysIso(thisMonday(), -7);
    const asOf = addDaysIso(thisMonday(), -10);
    const before = (await getVariance("weeks=1")).body;
    // A snapshot taken before last week began (in a week no computation of this test ran in).
    const snap = {
      iso_week: isoWeek(asOf),
      company: companyId,
      as_of: asOf,
      forecast_to: addDaysIso(asOf, 91),
      rows: [
        { week_start: lastMonday, currency: rc, category: "Variance test A", amount: "-100.005" },
        { week_start: lastMonday, currency: rc, category: "Variance test B", amount: "40" },
        { week_start: addDaysIso(lastMonday, -7), currency: rc, category: "Variance test A", amount: "-999" },
      ],
    };
    expect(await saveSnapshots(await dashboardDb(), [snap])).toBe(1);
    const r = await getVariance("weeks=1");
    expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200);
    expect(r.body.reporting_currency).toBe(rc);
    expect(r.body.first_comparison).toBeNull();
    const [w] = r.body.weeks;
    if (!w) throw new Error("no week compared");
    expect(w).toMatchObject({ week_start: lastMonday, snapshot_as_of: asOf });
    const a = w.categories.find((c) => c.category === "Variance test A");
    expect(a).toEqual({
      category: "Variance test A",
      forecast: "-100.01",
      actual: "0.00",
      difference: "100.01",
      percent: null,
    });
    // The week's actual is every category's booked flows; the difference is actual − forecast, exactly.
    const sum = (xs: string[]) => xs.reduce((s, x) => s + Math.round(Number(x) * 100), 0);
    expect(Math.round(Number(w.actual) * 100)).toBe(sum(w.categories.map((c) => c.actual)));
    expect(Math.round(Number(w.forecast) * 100)).toBe(-10001 + 4000);
    expect(Math.round(Number(w.difference) * 100)).toBe(Math.round(Number(w.actual) * 100) - (-10001 + 4000));
    if (before.weeks.length === 0) expect(before.first_comparison).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    // Only one category.
    const onlyB = (await getVariance("weeks=1&category=Variance%20test%20B")).body;
    expect(onlyB.category).toBe("Variance test B");
    expect(onlyB.weeks[0]).toMatchObject({ forecast: "40.00", actual: "0.00", difference: "-40.00", percent: null });
    expect(onlyB.weeks[0]?.categories.map((c) => c.category)).toEqual(["Variance test B"]);
    expect(onlyB.wape).toBeNull();

    const csv = await exportGet("kind=variance&weeks=1");
    expect(csv.status).toBe(200);
    const rows = Papa.parse<Record<string, string>>((await csv.text()).trim(), { header: true }).data;
    expect(rows.find((x) => x.category === "Variance test A")).toMatchObject({
      week_start: lastMonday,
      forecast: "-100.01",
      difference: "100.01",
      percent: "",
      reporting_currency: rc,
    });
    expect(rows.filter((x) => x.category === "(all)")).toHaveLength(1);
    const xlsx = await exportGet("kind=variance&weeks=1&format=xlsx");
    expect(xlsx.status).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await xlsx.arrayBuffer());
    expect(wb.getWorksheet("Variance")?.rowCount).toBe(rows.length + 1);
    expect(wb.getWorksheet("Rates")).toBeDefined();
  });

  it("the snapshot test seam: a 404 unless DASHBOARD_TEST_SEAMS=1; then one snapshot per week, bad input a 400", async () => {
    const monday = addDaysIso(thisMonday(), -21);
    const asOf = addDaysIso(monday, -1);
    const body = (company = companyId) => ({
      company_id: company,
      as_of: asOf,
      forecast_to: addDaysIso(asOf, 91),
      rows: [{ week_start: monday, currency: "EUR", category: "Seam test", amount: "-10.00" }],
    });
    const post = (json: unknown) => call(snapshotsRoute.POST, "POST", "/api/forecast/snapshots", json);
    const stored = async () =>
      (await listSnapshots(await dashboardDb(), [companyId], asOf)).filter((x) => x.as_of === asOf);
    const audits = await auditCount();
    expect(getConfig().DASHBOARD_TEST_SEAMS).toBe(false);
    expect((await post(body())).status).toBe(404);
    // Switched off, the route is not there: a malformed body is a 404 too, not a 400 that would show it exists.
    expect((await post({ company_id: 7 })).status).toBe(404);
    expect(await stored()).toEqual([]);
    const config = getConfig();
    config.DASHBOARD_TEST_SEAMS = true;
    try {
      for (const [json, field] of [
        [{ ...body(), forecast_to: addDaysIso(asOf, 400) }, "forecast_to"],
        [{ ...body(), rows: [{ ...body().rows[0], week_start: addDaysIso(monday, 1) }] }, "rows[0].week_start"],
        [{ ...body(), rows: [{ ...body().rows[0], amount: "1e9" }] }, "rows[0].amount"],
        [{ ...body(), rows: [] }, "rows"],
        [body(randomUUID()), "company_id"],
      ] as const) {
        const r = await post(json);
        expect(r.status, JSON.stringify(r.body)).toBe(400);
        expect(errorFields(r.body), JSON.stringify(r.body)).toEqual([field]);
      }
      expect(await stored()).toEqual([]);
      expect(await auditCount()).toBe(audits);
      const first = await post(body());
      expect(first.status, JSON.stringify(first.body)).toBe(201);
      expect(first.body).toEqual({ iso_week: isoWeek(asOf), inserted: 1 });
      // The first snapshot of a week is kept, as the forecast's own.
      const again = await post({ ...body(), rows: [{ ...body().rows[0], amount: "-99.00" }] });
      expect(again.body).toEqual({ iso_week: isoWeek(asOf), inserted: 0 });
      const [kept] = await stored();
      expect(kept?.rows).toEqual([{ week_start: monday, currency: "EUR", category: "Seam test", amount: "-10.00" }]);
      expect(await auditCount()).toBe(audits + 2);
    } finally {
      config.DASHBOARD_TEST_SEAMS = false;
    }
  });
});
