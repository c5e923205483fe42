/**
 * The forecast area's BFF routes (docs/forecast.md#the-routes), declared against ./endpoints.ts: the cash forecast,
 * its variance and exports, the manual lines, scenarios and settings, and the snapshot test seam
 * (docs/architecture.md#the-bff-declared-per-area).
 */
import "server-only";
import { z } from "zod";
import { getCashForecast, getForecastVariance } from "@/lib/bff/queries/cash-forecast";
import {
  addManualLine,
  addScenario,
  changeManualLine,
  changeScenario,
  forecastInputsView,
  removeManualLine,
  removeScenario,
  setThreshold,
  storeTestSnapshot,
  switchRecurring,
} from "@/lib/bff/queries/forecast";
import { resolveReportingCurrency } from "@/lib/bff/queries/group-reports";
import { declareRoute, defineRoutes } from "@/lib/bff/route";
import { csvHeaders } from "@/lib/csv/csv-stream";
import { xlsxHeaders } from "@/lib/csv/xlsx";
import {
  comparisonCsv,
  comparisonXlsx,
  forecastCsv,
  forecastXlsx,
  varianceCsv,
  varianceXlsx,
} from "@/lib/forecast/exports";
import {
  ForecastQuery,
  ManualLineInput,
  RecurringSwitchInput,
  ScenarioInput,
  SnapshotInput,
  ThresholdInput,
  VarianceQuery,
} from "@/lib/forecast/inputs";
import { getConfig } from "@/lib/server/config";
import { adminItems } from "../admin-items";
import { forecastEndpoints as e } from "./endpoints";

const ExportQuery = ForecastQuery.extend({
  kind: z
    .enum(["forecast", "comparison", "variance"], { message: "must be forecast, comparison or variance" })
    .default("forecast"),
  format: z.enum(["csv", "xlsx"], { message: "must be csv or xlsx" }).default("csv"),
  category: VarianceQuery.shape.category,
});

const SettingsBody = z.union([RecurringSwitchInput, ThresholdInput], {
  message: "must be { id, enabled } (a recurring payee) or { company_id, amount } (a minimum-cash threshold)",
});

const line = adminItems(
  { add: e.addLine, change: e.changeLine, remove: e.removeLine },
  { permission: "forecast.manage", objectType: "forecast_line", body: ManualLineInput },
  { add: (input, ctx) => addManualLine(ctx, input), change: changeManualLine, remove: removeManualLine },
);

const scenario = adminItems(
  { add: e.addScenario, change: e.changeScenario, remove: e.removeScenario },
  { permission: "forecast.manage", objectType: "forecast_scenario", body: ScenarioInput },
  { add: (input, ctx) => addScenario(ctx, input), change: changeScenario, remove: removeScenario },
);

export const forecastRoutes = defineRoutes(e, {
  /**
   * GET /api/forecast — the cash forecast of the user's companies (docs/forecast.md#the-routes): `weeks` 1–26
   * (default 13), `granularity` day|week, up to 3 `scenarios` (comma-separated ids), `currency` (reporting currency,
   * default the user's), `refresh=1` recomputes. 400 naming the field for a bad query.
   */
  forecast: declareRoute(
    e.forecast,
    { permission: "reports.read", company: "none", query: ForecastQuery },
    async (ctx) => {
      const rc = await resolveReportingCurrency(ctx.user.id, ctx.query.currency);
      return getCashForecast(
        ctx,
        {
          weeks: ctx.query.weeks,
          granularity: ctx.query.granularity,
          scenarios: ctx.query.scenarios,
          refresh: ctx.query.refresh === "1",
        },
        rc,
      );
    },
  ),

  /**
   * GET /api/forecast/variance — forecast against actuals of the user's companies (docs/forecast.md#variance): the
   * last `weeks` complete ISO weeks (1–26, default 8), each week's forecast from the latest snapshot taken before it
   * began against the booked transactions, with difference, percent and the window's WAPE, per week and per category
   * (`category=` restricts to one), in the reporting `currency` (default the user's). 400 naming the field.
   */
  variance: declareRoute(
    e.variance,
    { permission: "reports.read", company: "none", query: VarianceQuery },
    async (ctx) => {
      const rc = await resolveReportingCurrency(ctx.user.id, ctx.query.currency);
      return getForecastVariance(ctx, { weeks: ctx.query.weeks, category: ctx.query.category ?? null }, rc);
    },
  ),

  /**
   * GET /api/forecast/export — the forecast (`kind=forecast`: per bucket, company, currency and category with the
   * rates and their dates) or the scenario comparison (`kind=comparison`: daily group balance per case, lowest balance
   * marked, rates) or the variance table (`kind=variance`: the last `weeks` complete weeks, per week and category,
   * optionally one `category`; docs/forecast.md#variance), as CSV (`format=csv`, the default) or XLSX (`format=xlsx`: the same rows plus a "Rates" sheet;
   * docs/forecast.md#exports). Same query as `GET /api/forecast`; 400 naming the field.
   */
  export: declareRoute(e.export, { permission: "reports.read", company: "none", query: ExportQuery }, async (ctx) => {
    const q = ctx.query;
    const rc = await resolveReportingCurrency(ctx.user.id, q.currency);
    if (q.kind === "variance") {
      const v = await getForecastVariance(ctx, { weeks: q.weeks, category: q.category ?? null }, rc);
      const file = `forecast_variance_${v.from}_${q.weeks}w_${rc}.${q.format}`;
      return q.format === "xlsx"
        ? new Response(await varianceXlsx(v, v.rates), { status: 200, headers: xlsxHeaders(file) })
        : new Response(varianceCsv(v), { status: 200, headers: csvHeaders(file, null) });
    }
    const v = await getCashForecast(ctx, { weeks: q.weeks, granularity: q.granularity, scenarios: q.scenarios }, rc);
    const cases = [
      { name: "Base case", balances: v.base, fx: v.fx },
      ...v.scenarios.map((s) => ({ name: s.name, balances: s.balances, fx: s.fx })),
    ];
    const name = `forecast_${q.kind}_${v.from}_${v.weeks}w_${rc}.${q.format}`;
    if (q.format === "xlsx") {
      const bytes = q.kind === "forecast" ? await forecastXlsx(v.rows, rc, v.fx) : await comparisonXlsx(cases, rc);
      return new Response(bytes, { status: 200, headers: xlsxHeaders(name) });
    }
    const text = q.kind === "forecast" ? forecastCsv(v.rows, rc, v.fx) : comparisonCsv(cases, rc);
    return new Response(text, { status: 200, headers: csvHeaders(name, null) });
  }),

  /** GET /api/forecast/lines — manual lines, scenarios, recurring switches and thresholds (docs/forecast.md#the-routes). */
  inputs: declareRoute(e.inputs, { permission: "reports.read", company: "none" }, (ctx) => forecastInputsView(ctx)),

  /**
   * POST /api/forecast/lines — 201: a manual line (lib/forecast/inputs.ts `ManualLineInput`), owned by the signed-in
   * user; 400 naming the field (a bad currency: `currency`). Audited `forecast_line.create`.
   */
  addLine: line.add,

  /** PUT /api/forecast/lines/{id} — replaces a manual line (owner kept); 404 unknown; audited before/after. */
  changeLine: line.change,

  /** DELETE /api/forecast/lines/{id} — 204; 404 unknown; audited with the line as it was. */
  removeLine: line.remove,

  /**
   * POST /api/forecast/scenarios — 201: a named scenario of a team with its adjustments (lib/forecast/inputs.ts
   * `ScenarioInput`); 400 naming the field (a shift of 400 days: `adjustments[0].days`), 409 for a name the team
   * already uses. Audited `forecast_scenario.create`.
   */
  addScenario: scenario.add,

  /** PUT /api/forecast/scenarios/{id} — replaces a scenario; 404 unknown, 409 duplicate name; audited before/after. */
  changeScenario: scenario.change,

  /** DELETE /api/forecast/scenarios/{id} — 204; 404 unknown; audited with the scenario as it was. */
  removeScenario: scenario.remove,

  /**
   * POST /api/forecast/settings — `{ id, enabled }` switches a detected recurring payee on or off; `{ company_id,
   * amount }` sets a company's minimum cash in the reporting currency (null removes it). Idempotent; 400 naming the
   * field; audited `forecast_setting.change` with the value before and after.
   */
  settings: declareRoute(
    e.settings,
    {
      permission: "forecast.manage",
      company: "none",
      body: SettingsBody,
      audit: { action: "forecast_setting.change", objectType: "forecast_setting" },
    },
    async (ctx) => {
      const b = ctx.body;
      const r =
        "enabled" in b ? await switchRecurring(ctx, b.id, b.enabled) : await setThreshold(ctx, b.company_id, b.amount);
      ctx.audit.objectId = "enabled" in b ? `recurring:${b.id}` : `threshold:${b.company_id}`;
      ctx.audit.details = { before: r.before, after: "enabled" in b ? r.after : r.after };
      return r;
    },
  ),

  /**
   * POST /api/forecast/snapshots — the test seam of docs/forecast.md#variance (only with `DASHBOARD_TEST_SEAMS=1`,
   * else 404 before anything is read): stores a past week's forecast snapshot of one of the user's companies, as the first forecast of the
   * week of `as_of` would have kept it, so a browser test sees the variance table without waiting a week. 201
   * `{ iso_week, inserted }` (0 when that week already has a snapshot of the company: the first one is kept); 400
   * naming the field. Audited `forecast_snapshot.create`.
   */
  snapshot: declareRoute(
    e.snapshot,
    {
      enabled: () => getConfig().DASHBOARD_TEST_SEAMS,
      permission: "forecast.manage",
      company: "none",
      body: SnapshotInput,
      status: 201,
      audit: { action: "forecast_snapshot.create", objectType: "forecast_snapshot" },
    },
    async (ctx) => {
      const out = await storeTestSnapshot(ctx, ctx.body);
      ctx.audit.objectId = `${out.iso_week}/${ctx.body.company_id}`;
      ctx.audit.details = { before: null, after: { ...ctx.body, iso_week: out.iso_week } };
      return out;
    },
  ),
});
