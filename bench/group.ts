/**
 * `npm run bench:group`. On the production build (run `npm run build`
 * first) it starts the dashboard with the local treasury-api (in-memory demo
 * data: the demo group, 5 companies) and, in headless
 * Chromium signed in as the treasurer (every company), measures for the group
 * overview (`/`) and the group cashflow report (`/reports/cashflow?scope=group`):
 * - time to data: navigation start until the group total is in the DOM;
 * - upstream calls: the `fetch` calls from the dashboard to the treasury API
 *   during that load (counted by bench/lib/count-fetch.mjs, preloaded into
 *   the server; OAuth token calls included);
 * - for the report, also until its by-category table (streamed in after the
 *   total: it reads every company's transactions) is in the DOM, counted from
 *   the same navigation;
 * cold (first load after start, empty caches; for the overview that is the
 * landing page after signing in, timed from the sign-in click) and warm (the
 * same page again right after, within the 30 s caches). Prints one table.
 *
 * `npm run bench:group -- --companies 50 --accounts 20` seeds a larger
 * organisation instead (treasury-api/seed/size.ts: 50 koncern companies with
 * at least 20 accounts each, linked to the treasurer's client); seeding it
 * takes a few minutes before the first page load.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { chromium, type Page } from "@playwright/test";
import { DEMO_PASSWORD } from "../lib/db/demo-users";
import { findChromium } from "../scripts/chromium";
import { waitReady } from "./lib/dashboard";
import { parseSeedSize } from "@treasury/api/seed/size";

/** `--companies N --accounts M` (treasury-api/seed/size.ts bounds); neither: the demo group. */
function benchSize(argv: string[]) {
  const values: { companies?: string; accountsPerCompany?: string } = {};
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    if (flag === "--companies" && value !== undefined) values.companies = value;
    else if (flag === "--accounts" && value !== undefined) values.accountsPerCompany = value;
    else throw new Error(`bench:group: unknown or incomplete argument ${flag} (use --companies N --accounts M)`);
    i++;
  }
  return parseSeedSize(values, { companies: "--companies", accountsPerCompany: "--accounts" });
}
const SIZE = benchSize(process.argv.slice(2));
const SIZED = SIZE.accountsPerCompany !== null || SIZE.companies !== 5;

const PORT = Number(process.env.BENCH_PORT ?? 3231);
const BASE = `http://127.0.0.1:${PORT}`;
const LOG = path.resolve(`/tmp/bench-group-fetch-${process.pid}.log`);

/** Upstream calls logged so far (calls to the dashboard's own port left out). */
function upstreamCalls(): number {
  if (!existsSync(LOG)) return 0;
  return readFileSync(LOG, "utf8")
    .split("\n")
    .filter((l) => l && !l.includes(`:${PORT}/`)).length;
}

async function load(page: Page, url: string, ready: string, then?: string) {
  const before = upstreamCalls();
  await page.goto(`${BASE}${url}`, { waitUntil: "commit", timeout: 180_000 });
  const shown = async (selector: string) => {
    await page.waitForSelector(selector, { timeout: 600_000 }).catch(async (err: unknown) => {
      await page.screenshot({ path: "/tmp/bench-group-failed.png", fullPage: true });
      throw err;
    });
    return { ms: await page.evaluate(() => performance.now()), calls: upstreamCalls() - before };
  };
  const first = await shown(ready);
  // A section streamed in after `ready` (same navigation): waited for, so its reads are not counted in the next load.
  return { ...first, then: then ? await shown(then) : null };
}

/** Milliseconds since the navigation began, and the upstream calls made meanwhile. */
interface Timing {
  ms: number;
  calls: number;
}

/** A row of the table: the view, then cold and warm whole milliseconds and upstream calls; blank for a null timing. */
function timingRow(view: string, cold: Timing | null, warm: Timing | null): string[] {
  return [
    view,
    cold?.ms.toFixed(0) ?? "",
    String(cold?.calls ?? ""),
    warm?.ms.toFixed(0) ?? "",
    String(warm?.calls ?? ""),
  ];
}

async function main() {
  if (!existsSync(".next/BUILD_ID")) throw new Error("No production build: run `npm run build` first.");
  rmSync(LOG, { force: true });
  const server = spawn(process.execPath, ["--import", "tsx", "scripts/launch.ts", "start"], {
    env: {
      ...process.env,
      PORT: String(PORT),
      TREASURY_API_PORT: "0",
      TREASURY_API_DATA: "memory",
      DASHBOARD_DATA_DIR: "memory",
      NEXTAUTH_URL: BASE,
      LOG_LEVEL: "warn",
      NEXT_TELEMETRY_DISABLED: "1",
      BENCH_FETCH_LOG: LOG,
      ...(SIZED
        ? {
            TREASURY_API_SEED_COMPANIES: String(SIZE.companies),
            ...(SIZE.accountsPerCompany !== null
              ? { TREASURY_API_SEED_ACCOUNTS_PER_COMPANY: String(SIZE.accountsPerCompany) }
              : {}),
          }
        : {}),
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --import ${path.resolve("bench/lib/count-fetch.mjs")}`.trim(),
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const browser = await chromium.launch({ executablePath: findChromium(), args: ["--no-sandbox", "--disable-gpu"] });
  try {
    const seedStart = Date.now();
    await waitReady(`${BASE}/readyz`, 1_200_000);
    const seedSeconds = ((Date.now() - seedStart) / 1000).toFixed(0);
    const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${BASE}/login`);
    await page.getByLabel("E-mail").fill("treasurer@demo.local");
    await page.getByLabel("Password").fill(DEMO_PASSWORD);
    const rows: string[][] = [];
    const overviewReady = "[data-testid=group-total] [data-amount]";
    const before = upstreamCalls();
    const t0 = Date.now();
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForSelector(overviewReady, { timeout: 600_000 });
    const coldOverview = { ms: Date.now() - t0, calls: upstreamCalls() - before };
    const warmOverview = await load(page, "/", overviewReady);
    rows.push(timingRow("group overview (/)", coldOverview, warmOverview));
    const reportUrl = "/reports/cashflow?scope=group";
    const reportReady = "[data-testid=group-report-total-net] [data-amount]";
    // The group cashflow report's by-category table streams in after the total (every company's transactions).
    const categoriesReady = "[data-testid=group-categories]";
    const coldReport = await load(page, reportUrl, reportReady, categoriesReady);
    const warmReport = await load(page, reportUrl, reportReady, categoriesReady);
    rows.push(timingRow("group cashflow report", coldReport, warmReport));
    rows.push(timingRow("  + its by-category table", coldReport.then, warmReport.then));
    const header = ["view", "cold ms", "cold upstream calls", "warm ms", "warm upstream calls"];
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
    const line = (r: readonly string[]) => r.map((c, i) => c.padEnd(widths[i] ?? 0)).join("  ");
    const group = SIZED
      ? `${SIZE.companies} koncern companies × ${SIZE.accountsPerCompany ?? "demo"} accounts (seed scale 1)`
      : "demo group (seed scale 1)";
    console.log(`${group}, treasurer; cold overview timed from the sign-in click; start with seeding ${seedSeconds} s`);
    console.log(line(header));
    for (const r of rows) console.log(line(r));
  } finally {
    await browser.close();
    server.kill("SIGTERM");
    rmSync(LOG, { force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
