/**
 * `npm run bench:forecast` — the group cash forecast at scale (docs/forecast.md#speed): 50 companies × 4
 * currencies × 20 categories (4,000 series), a year of daily history each plus recurring payees, payment
 * batches and manual lines, 13 weeks ahead. Times, in this process:
 * - backtest: the nightly rolling-origin backtest of every series (cached; not part of a recompute);
 * - recompute: what `computeBaseForecast` does after its reads (lib/bff/queries/cash-forecast.ts): known flows,
 *   recurring detection and the statistical remainder of every series with the cached model choice, and the weekly
 *   actuals the variance compares with; then the page's view (`forecastView`, lib/forecast/view.ts: the weekly
 *   table per company, currency and category, the group, the accuracy, the base case and one scenario
 *   ("customers pay 10 days later") with their lowest balances) — the on-demand recompute, ≤ 2 s;
 * - warm: a second read of the page: `forecastView` on the cached base forecast with the same parameters, and the
 *   answer serialised as `GET /api/forecast` sends it (≤ 300 ms).
 * `--profile FILE` writes a CPU profile of the recompute (node:inspector; open it in Chrome DevTools).
 * The last line reads `forecast: recompute N ms, warm M ms (50 companies × 4 currencies × 20 categories)`.
 */
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector";
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import type { BacktestResult } from "../lib/forecast/backtest";
import { fromDay, toDay } from "../lib/forecast/days";
import { buildForecast } from "../lib/forecast/engine";
import { historyColumns } from "../lib/forecast/history-columns";
import type { ScenarioRow } from "../lib/forecast/store";
import type { HistoryTxn, KnownBatch, ManualLine } from "../lib/forecast/types";
import { actualWeeks } from "../lib/forecast/variance";
import { forecastView, type BaseForecast } from "../lib/forecast/view";

/** `npm run bench:forecast -- --companies 5` for a smaller group. */
const companiesArg = process.argv.indexOf("--companies");
const COMPANIES = companiesArg > 0 ? Number(process.argv[companiesArg + 1]) : 50;
if (!Number.isInteger(COMPANIES) || COMPANIES < 1) throw new Error("--companies takes a whole number from 1");
const profileArg = process.argv.indexOf("--profile");
const PROFILE = profileArg > 0 ? process.argv[profileArg + 1] : undefined;
const CURRENCIES = ["EUR", "USD", "NOK", "SEK"];
const CATEGORIES = 20;
const AS_OF = "2026-11-27";
const DAYS = 364;

let seed = 42;
const rand = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
};

function data() {
  const history: HistoryTxn[] = [];
  const batches: KnownBatch[] = [];
  const manualLines: ManualLine[] = [];
  const end = toDay(AS_OF);
  for (let c = 0; c < COMPANIES; c++)
    for (const currency of CURRENCIES) {
      const company = `company-${c}`;
      for (let k = 0; k < CATEGORIES; k++) {
        const category = `category-${k}`;
        const sign = k < 6 ? 1 : -1;
        const base = 1000 + 200 * k;
        for (let d = end - DAYS + 1; d <= end; d++) {
          const wd = (d + 3) % 7;
          const amount = sign * (base * (wd >= 5 ? 0.2 : 1) * (1 + (d - end) / 3000) + 150 * (rand() - 0.5));
          history.push({ date: fromDay(d), company, currency, category, amount: amount.toFixed(2) });
        }
      }
      // A monthly salary and rent per company and currency.
      for (let m = 0; m < 12; m++) {
        const date = fromDay(toDay(AS_OF) - 30 * (12 - m));
        history.push({
          date,
          company,
          currency,
          category: "category-7",
          amount: "-50000.00",
          counterparty: `Payroll ${c}`,
        });
      }
      batches.push({
        id: `b-${c}-${currency}`,
        status: "approved",
        execution_date: fromDay(end + 3),
        company,
        currency,
        category: "category-8",
        amount: "-12000.00",
      });
      manualLines.push({
        id: `l-${c}-${currency}`,
        date: fromDay(end + 10),
        amount: "-2500.00",
        currency,
        company,
        category: "category-9",
        recurrence: "monthly",
        end_date: null,
      });
    }
  return { history, batches, manualLines };
}

async function main() {
  const { history, batches, manualLines } = data();
  const input = { asOf: AS_OF, weeks: 13, history, batches, manualLines, historyDays: DAYS };
  const openings = CURRENCIES.flatMap((currency) =>
    Array.from({ length: COMPANIES }, (_, c) => ({ company: `company-${c}`, currency, amount: "1000000.00" })),
  );
  const fx = {
    USD: { rate: "0.95", date: AS_OF },
    NOK: { rate: "0.085", date: AS_OF },
    SEK: { rate: "0.087", date: AS_OF },
  };

  let t = performance.now();
  const first = buildForecast(input);
  const backtestMs = performance.now() - t;
  const cached: Map<string, BacktestResult> = first.backtests;

  const companies = Array.from({ length: COMPANIES }, (_, c) => ({ id: `company-${c}`, name: `Company ${c}` }));
  const later: ScenarioRow = {
    id: "s-later",
    team: "finance",
    name: "Customers pay 10 days later",
    adjustments: [{ type: "shift", filter: { category: "category-0" }, days: 10 }],
    owner: "bench@example.com",
    updated_at: "2026-11-27T00:00:00.000Z",
  };
  // The base forecast as computeBaseForecast caches it, then the page's view of it (the base case and one scenario).
  const recompute = (): BaseForecast => {
    // Read once for the engine and the actuals, as computeBaseForecast does.
    const columns = historyColumns(history);
    const forecast = buildForecast({ ...input, backtests: cached, historyColumns: columns });
    return {
      source: "model",
      as_of: AS_OF,
      computed_at: new Date().toISOString(),
      reporting_currency: "EUR",
      forecast,
      openings: openings.map((o) => ({ ...o, date: AS_OF })),
      fx,
      thresholds: {},
      failed_companies: [],
      truncated_companies: [],
      api_rows: [],
      actuals: actualWeeks(history, AS_OF, columns),
    };
  };
  const read = (b: BaseForecast) => forecastView(b, companies, "week", [later]);
  read(recompute()); // warm the JIT once, as a running server would be
  const session = PROFILE ? new Session() : undefined;
  const post = (method: string, params?: object) =>
    new Promise<unknown>((resolve, reject) =>
      session?.post(method, params, (err, res) => (err ? reject(err) : resolve(res))),
    );
  if (session) {
    session.connect();
    await post("Profiler.enable");
    await post("Profiler.start");
  }
  t = performance.now();
  let cpu = process.cpuUsage();
  const baseForecast = recompute();
  const view = read(baseForecast);
  const recomputeMs = performance.now() - t;
  const recomputeCpu = process.cpuUsage(cpu).user / 1000;
  if (session) {
    const { profile } = (await post("Profiler.stop")) as { profile: unknown };
    writeFileSync(PROFILE as string, JSON.stringify(profile));
    session.disconnect();
  }
  const f = baseForecast.forecast;

  t = performance.now();
  cpu = process.cpuUsage();
  const body = JSON.stringify(read(baseForecast));
  const warmMs = performance.now() - t;
  const warmCpu = process.cpuUsage(cpu).user / 1000;
  const base = view.base;
  const scen = view.scenarios[0]?.balances ?? view.base;
  const rows = view.rows;

  console.log(
    `series ${f.series.length}, flows ${f.flows.length}, weekly rows by company, currency and category ${rows.length}, answer ${(body.length / 1e6).toFixed(1)} MB, history ${history.length} transactions`,
  );
  console.log(`backtest (nightly, all series): ${backtestMs.toFixed(0)} ms`);
  console.log(
    `lowest balance base ${base.reporting.lowest.amount} on ${base.reporting.lowest.date}; customers 10 days later ${scen.reporting.lowest.amount} on ${scen.reporting.lowest.date}`,
  );
  // On a shared machine the wall clock includes waiting for a core; the CPU time is the work itself.
  console.log(
    `cpu time: recompute ${recomputeCpu.toFixed(0)} ms, warm ${warmCpu.toFixed(0)} ms; load ${loadavg()[0]?.toFixed(1)}`,
  );
  console.log(
    `forecast: recompute ${recomputeMs.toFixed(0)} ms, warm ${warmMs.toFixed(0)} ms (${COMPANIES} companies × ${CURRENCIES.length} currencies × ${CATEGORIES} categories)`,
  );
}

await main();
