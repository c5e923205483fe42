/**
 * `npm run bench:ui` (issue 5 §9). On the production build (run
 * `npm run build` first; BENCH_BUILD=1 builds here) it starts the dashboard
 * with the local treasury-api (in-memory demo data) and, in headless
 * Debian Chromium, measures per route:
 * - first-load JS: the `<script src>` chunks of the server HTML, gzip
 *   (level 9) from `.next/static`, and whether Recharts is among them
 *   (target ≤ 200 KB for routes without charts);
 * - FCP (`first-contentful-paint`) and time to data (navigation start until
 *   the view's figures are in the DOM);
 * and the time to render 100,000 transaction rows and an intraday chart of
 * 8,640 points (the `/bench/ui` harness, enabled by DASHBOARD_BENCH=1).
 * Prints one table; exits 1 when a chart-free route is over budget.
 */
import { spawn, execSync } from "node:child_process";
import { readFileSync, existsSync } from "node:fs";
import { gzipSync } from "node:zlib";
import path from "node:path";
import { chromium, type Page } from "@playwright/test";
import { DEMO_PASSWORD } from "../lib/db/demo-users";

const PORT = Number(process.env.BENCH_PORT ?? 3230);
const BASE = `http://127.0.0.1:${PORT}`;
const BUDGET_KB = 200;
const CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

interface Route {
  name: string;
  path: string | (() => Promise<string>);
  /** Selector that means "the data is shown". */
  ready: string;
  charts: boolean;
}

const gzCache = new Map<string, { gz: number; recharts: boolean }>();
function chunkInfo(src: string): { gz: number; recharts: boolean } {
  const hit = gzCache.get(src);
  if (hit) return hit;
  const rel = decodeURIComponent(new URL(src, BASE).pathname).replace(/^\/_next\//, "");
  const file = path.join(".next", rel);
  const buf = existsSync(file) ? readFileSync(file) : Buffer.alloc(0);
  const info = { gz: gzipSync(buf, { level: 9 }).length, recharts: buf.includes("recharts-wrapper") || buf.includes("recharts-surface") };
  gzCache.set(src, info);
  return info;
}

async function waitReady(url: string, ms: number) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`server not ready at ${url}`);
}

async function measure(page: Page, url: string, ready: string) {
  const res = await page.goto(url, { waitUntil: "commit", timeout: 120_000 });
  const html = (await res?.text()) ?? "";
  await page.waitForSelector(ready, { timeout: 120_000 });
  const tData = await page.evaluate(() => performance.now());
  await page.waitForLoadState("load");
  const fcp = await page.evaluate(() => performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? NaN);
  const srcs = [...html.matchAll(/<script[^>]+src="([^"]+)"/g)].map((m) => (m[1] ?? "").replace(/&amp;/g, "&"));
  let gz = 0;
  let recharts = false;
  for (const s of new Set(srcs)) {
    const i = chunkInfo(s);
    gz += i.gz;
    recharts ||= i.recharts;
  }
  return { fcp, tData, gzKb: gz / 1024, recharts, chunks: new Set(srcs).size };
}

async function main() {
  if (process.env.BENCH_BUILD === "1") execSync("npm run build", { stdio: "inherit" });
  if (!existsSync(".next/BUILD_ID")) throw new Error("No production build: run `npm run build` first (or BENCH_BUILD=1).");
  const server = spawn(process.execPath, ["--import", "tsx", "scripts/launch.ts", "start"], {
    env: { ...process.env, PORT: String(PORT), TREASURY_API_PORT: "0", TREASURY_API_DATA: "memory", DASHBOARD_DATA_DIR: "memory", NEXTAUTH_URL: BASE, DASHBOARD_BENCH: "1", LOG_LEVEL: "warn", NEXT_TELEMETRY_DISABLED: "1" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: CHROMIUM_ARGS });
  try {
    await waitReady(`${BASE}/readyz`, 300_000);
    const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${BASE}/login`);
    await page.getByLabel("E-mail").fill("viewer@demo.local");
    await page.getByLabel("Password").fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL((u) => !u.pathname.startsWith("/login"), { timeout: 60_000 });

    const accountPath = async () => {
      await page.goto(`${BASE}/accounts`);
      return (await page.locator("[data-testid=account-row] a").first().getAttribute("href")) ?? "/accounts";
    };
    const routes: Route[] = [
      { name: "/", path: "/", ready: "[data-testid^=position-balance-]", charts: true },
      { name: "/accounts", path: "/accounts", ready: "[data-testid=account-row]", charts: false },
      { name: "/accounts/[id]", path: accountPath, ready: "[data-testid=transaction-row]", charts: true },
      { name: "/transactions", path: "/transactions", ready: "[data-testid=transaction-row]", charts: false },
      { name: "/reports/cashflow", path: "/reports/cashflow", ready: "[data-testid^=total-]", charts: true },
      { name: "/reports/positions", path: "/reports/positions", ready: "[data-testid^=total-]", charts: true },
      { name: "/reports/forecast", path: "/reports/forecast", ready: "[data-testid^=report-]", charts: true },
      { name: "/organization", path: "/organization", ready: "table", charts: false },
    ];
    const rows: string[][] = [];
    let over = false;
    for (const r of routes) {
      const p = typeof r.path === "string" ? r.path : await r.path();
      await measure(page, `${BASE}${p}`, r.ready); // warm the server's caches and compile nothing
      const m = await measure(page, `${BASE}${p}`, r.ready);
      const ok = r.charts || (m.gzKb <= BUDGET_KB && !m.recharts);
      over ||= !ok;
      rows.push([r.name, m.gzKb.toFixed(1), String(m.chunks), m.recharts ? "yes" : "no", r.charts ? "—" : ok ? "ok" : "OVER", m.fcp.toFixed(0), m.tData.toFixed(0)]);
    }
    const render: string[][] = [];
    for (const kind of ["transactions", "intraday"] as const) {
      const times: number[] = [];
      for (let i = 0; i < 3; i++) {
        await page.goto(`${BASE}/bench/ui?kind=${kind}`);
        const v = await page.waitForSelector("[data-render-ms]", { timeout: 120_000 });
        times.push(Number(await v.getAttribute("data-render-ms")));
      }
      times.sort((a, b) => a - b);
      render.push([kind === "transactions" ? "100,000 transaction rows (virtualized)" : "intraday chart, 8,640 points (LTTB to 1,500)", (times[1] ?? NaN).toFixed(0), times.map((t) => t.toFixed(0)).join(" / ")]);
    }
    const table = (head: string[], body: string[][]) => {
      const w = head.map((h, i) => Math.max(h.length, ...body.map((b) => (b[i] ?? "").length)));
      const line = (c: string[]) => `| ${c.map((x, i) => (i === 0 ? x.padEnd(w[i] ?? 0) : x.padStart(w[i] ?? 0))).join(" | ")} |`;
      return [line(head), `|${w.map((n) => "-".repeat(n + 2)).join("|")}|`, ...body.map(line)].join("\n");
    };
    console.log(`\nbench:ui — production build, headless Chromium, viewer, demo data (median of one warm run per route)\n`);
    console.log(table(["route", "first-load JS gz KB", "chunks", "recharts in first load", `≤ ${BUDGET_KB} KB`, "FCP ms", "data shown ms"], rows));
    console.log("");
    console.log(table(["render", "median ms", "runs"], render));
    process.exitCode = over ? 1 : 0;
  } finally {
    await browser.close();
    server.kill("SIGTERM");
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
