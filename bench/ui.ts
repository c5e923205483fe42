/**
 * `npm run bench:ui`. On the production build (run
 * `npm run build` first; BENCH_BUILD=1 builds here) it starts the dashboard
 * with the local treasury-api (in-memory demo data) and, in headless
 * Chromium (the one scripts/chromium.ts finds), measures per route:
 * - first-load JS: the `<script src>` chunks of the server HTML, gzip
 *   (level 9) from `.next/static`, and whether Recharts is among them
 *   (target ≤ 200 KB for routes without charts). `nomodule` scripts (Next's
 *   legacy polyfills) are left out: a browser that runs ES modules — every
 *   browser the dashboard supports — never downloads them; their size is
 *   printed under the table;
 * - FCP (`first-contentful-paint`) and time to data (navigation start until
 *   the view's figures are in the DOM);
 * and the time to render 100,000 transaction rows and an intraday chart of
 * 8,640 points (the `/bench/ui` harness, enabled by DASHBOARD_BENCH=1).
 * The read routes are measured as the viewer; the write routes (payments,
 * approvals, reconciliation, webhooks, audit) as the users whose roles open
 * them. Prints one table; exits 1 when a chart-free route is over budget.
 *
 * `--js-only` (quick iterations on bundle size): one load per route, the
 * first-load JS columns only, no timings and no render harness.
 */
import { execSync } from "node:child_process";
import { readFileSync, existsSync } from "node:fs";
import { gzipSync } from "node:zlib";
import path from "node:path";
import { chromium, type Page } from "@playwright/test";
import { findChromium } from "../scripts/chromium";
import { CHROMIUM_ARGS, markdownTable as table, requireBuild, signInPage, startDashboard } from "./lib/dashboard";

const PORT = Number(process.env.BENCH_PORT ?? 3230);
const BASE = `http://127.0.0.1:${PORT}`;
const BUDGET_KB = 200;
const JS_ONLY = process.argv.includes("--js-only");

/**
 * Demo users the routes are opened as (lib/db/demo-users.ts): the viewer reads, the lead (treasurer + approver) and
 * the admin open the write routes.
 */
type BenchUser = "viewer@demo.local" | "lead@demo.local" | "admin@demo.local";

interface Route {
  name: string;
  path: string | ((page: Page) => Promise<string>);
  /** Selector that means "the data is shown" (or the view's empty state). */
  ready: string;
  charts: boolean;
  user: BenchUser;
}

const gzCache = new Map<string, { gz: number; recharts: boolean }>();
function chunkInfo(src: string): { gz: number; recharts: boolean } {
  const hit = gzCache.get(src);
  if (hit) return hit;
  const rel = decodeURIComponent(new URL(src, BASE).pathname).replace(/^\/_next\//, "");
  const file = path.join(".next", rel);
  const buf = existsSync(file) ? readFileSync(file) : Buffer.alloc(0);
  const info = {
    gz: gzipSync(buf, { level: 9 }).length,
    recharts: buf.includes("recharts-wrapper") || buf.includes("recharts-surface"),
  };
  gzCache.set(src, info);
  return info;
}

async function measure(page: Page, url: string, ready: string) {
  const res = await page.goto(url, { waitUntil: "commit", timeout: 120_000 });
  const html = (await res?.text()) ?? "";
  await page.waitForSelector(ready, { timeout: 120_000 });
  const tData = await page.evaluate(() => performance.now());
  await page.waitForLoadState("load");
  const fcp = await page.evaluate(() => performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? NaN);
  const tags = [...html.matchAll(/<script([^>]+)src="([^"]+)"([^>]*)>/g)].map((m) => ({
    src: (m[2] ?? "").replace(/&amp;/g, "&"),
    noModule: /\snomodule\b/i.test(`${m[1] ?? ""} ${m[3] ?? ""}`),
  }));
  const srcs = new Set(tags.filter((t) => !t.noModule).map((t) => t.src));
  let gz = 0;
  let recharts = false;
  for (const s of srcs) {
    const i = chunkInfo(s);
    gz += i.gz;
    recharts ||= i.recharts;
  }
  let noModuleGz = 0;
  for (const s of new Set(tags.filter((t) => t.noModule && !srcs.has(t.src)).map((t) => t.src)))
    noModuleGz += chunkInfo(s).gz;
  return { fcp, tData, gzKb: gz / 1024, noModuleKb: noModuleGz / 1024, recharts, chunks: srcs.size };
}

async function main() {
  if (process.env.BENCH_BUILD === "1") execSync("npm run build", { stdio: "inherit" });
  requireBuild();
  const server = await startDashboard(PORT, {
    TREASURY_API_PORT: "0",
    TREASURY_API_DATA: "memory",
    DASHBOARD_DATA_DIR: "memory",
    DASHBOARD_BENCH: "1",
  });
  const browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
  try {
    const pages = new Map<BenchUser, Page>();
    const pageAs = async (user: BenchUser): Promise<Page> => {
      const known = pages.get(user);
      if (known) return known;
      const page = await signInPage(browser, BASE, user);
      pages.set(user, page);
      return page;
    };

    const accountPath = async (page: Page) => {
      await page.goto(`${BASE}/accounts`);
      return (await page.locator("[data-testid=account-row] a").first().getAttribute("href")) ?? "/accounts";
    };
    const viewer = "viewer@demo.local";
    const lead = "lead@demo.local";
    const empty = "[data-testid=empty-state]";
    const routes: Route[] = [
      { name: "/", path: "/", ready: "[data-testid^=position-balance-]", charts: true, user: viewer },
      { name: "/accounts", path: "/accounts", ready: "[data-testid=account-row]", charts: false, user: viewer },
      { name: "/accounts/[id]", path: accountPath, ready: "[data-testid=transaction-row]", charts: true, user: viewer },
      {
        name: "/transactions",
        path: "/transactions",
        ready: "[data-testid=transaction-row]",
        charts: false,
        user: viewer,
      },
      {
        name: "/reports/cashflow",
        path: "/reports/cashflow",
        ready: "[data-testid^=total-]",
        charts: true,
        user: viewer,
      },
      {
        name: "/reports/positions",
        path: "/reports/positions",
        ready: "[data-testid^=total-]",
        charts: true,
        user: viewer,
      },
      {
        name: "/reports/forecast",
        path: "/reports/forecast",
        ready: "[data-testid^=report-]",
        charts: true,
        user: viewer,
      },
      { name: "/organization", path: "/organization", ready: "table", charts: false, user: viewer },
      { name: "/payments", path: "/payments", ready: `[data-testid=batch-row], ${empty}`, charts: false, user: lead },
      { name: "/payments/new", path: "/payments/new", ready: "[data-testid=running-total]", charts: false, user: lead },
      {
        name: "/approvals",
        path: "/approvals",
        ready: `[data-testid=approval-row], ${empty}`,
        charts: false,
        user: lead,
      },
      {
        name: "/reconciliation",
        path: "/reconciliation",
        ready: `[data-testid=match-row], ${empty}`,
        charts: false,
        user: lead,
      },
      {
        name: "/webhooks",
        path: "/webhooks",
        ready: `[data-testid=webhook-row], ${empty}`,
        charts: false,
        user: "admin@demo.local",
      },
      { name: "/audit", path: "/audit", ready: `[data-testid=audit-row], ${empty}`, charts: false, user: lead },
    ];
    const rows: string[][] = [];
    let over = false;
    let noModuleKb = 0;
    for (const r of routes) {
      const page = await pageAs(r.user);
      const p = typeof r.path === "string" ? r.path : await r.path(page);
      // The first load warms the server's caches; the second is measured. `--js-only` needs no timing, so one load.
      const m = JS_ONLY
        ? await measure(page, `${BASE}${p}`, r.ready)
        : (await measure(page, `${BASE}${p}`, r.ready), await measure(page, `${BASE}${p}`, r.ready));
      const ok = r.charts || (m.gzKb <= BUDGET_KB && !m.recharts);
      over ||= !ok;
      noModuleKb = Math.max(noModuleKb, m.noModuleKb);
      const timings = JS_ONLY ? ["—", "—"] : [m.fcp.toFixed(0), m.tData.toFixed(0)];
      rows.push([
        r.name,
        m.gzKb.toFixed(1),
        String(m.chunks),
        m.recharts ? "yes" : "no",
        r.charts ? "—" : ok ? "ok" : "OVER",
        ...timings,
      ]);
    }
    const render: string[][] = [];
    const page = await pageAs(viewer);
    for (const kind of JS_ONLY ? [] : (["transactions", "intraday"] as const)) {
      const times: number[] = [];
      for (let i = 0; i < 3; i++) {
        await page.goto(`${BASE}/bench/ui?kind=${kind}`);
        const v = await page.waitForSelector("[data-render-ms]", { timeout: 120_000 });
        times.push(Number(await v.getAttribute("data-render-ms")));
      }
      times.sort((a, b) => a - b);
      render.push([
        kind === "transactions"
          ? "100,000 transaction rows (virtualized)"
          : "intraday chart, 8,640 points (LTTB to 1,500)",
        (times[1] ?? NaN).toFixed(0),
        times.map((t) => t.toFixed(0)).join(" / "),
      ]);
    }
    console.log(
      `\nbench:ui — production build, headless Chromium, demo data; read routes as the viewer, write routes as the ` +
        `lead (treasurer + approver) or admin; ${
          JS_ONLY ? "first-load JS only (--js-only)" : "timings from the " + "second (warm) load of each route"
        }\n`,
    );
    console.log(
      table(
        [
          "route",
          "first-load JS gz KB",
          "chunks",
          "recharts in first load",
          `≤ ${BUDGET_KB} KB`,
          "FCP ms",
          "data shown ms",
        ],
        rows,
      ),
    );
    console.log(
      `\nNot counted: Next's nomodule polyfills (${noModuleKb.toFixed(1)} KB gz), which browsers with ES modules ` +
        `never download.`,
    );
    if (render.length > 0) {
      console.log("");
      console.log(table(["render", "median ms", "runs"], render));
    }
    process.exitCode = over ? 1 : 0;
  } finally {
    await browser.close();
    await server.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
