/**
 * `npm run bench:bff` — the dashboard's upstream budget and BFF overhead.
 *
 *   npm run bench:bff -- [--duration 60] [--users 20] [--requests 200]
 *
 * On the production build (run `npm run build` first; BENCH_BUILD=1 builds
 * here) it starts the local treasury-api as its own process (demo data in
 * memory, the API's default rate limit of 600 requests a minute per client,
 * its JSON request log on stdout) and the production dashboard against it,
 * signs in as the treasurer (treasurer@demo.local, the demo password), and
 * prints markdown tables of:
 *
 * 1. upstream calls per page view, per route: headless Chromium opens the
 *    route and waits for network idle (a page view = the server render and
 *    every BFF request the page then makes); the calls are the API's request
 *    log lines in between (every `/public` request: token, reads, the OpenAPI
 *    document). Cold = the first view of the route since the dashboard
 *    started (routes in the order listed, so reads shared with an earlier
 *    route — token, companies — may already be cached, as when a person
 *    browses); warm = the same view again at once. Target: ≤ 8 cold, ≤ 3 warm;
 * 2. BFF vs direct p50 for the transactions (100 rows) and accounts lists:
 *    `--requests` sequential requests on one connection each after 20
 *    warm-up requests, BFF (session cookie) and direct (bearer token and
 *    X-Company-ID of the same company); overhead = BFF p50 − direct p50
 *    (target ≤ 3 ms). Each series starts in a fresh rate-limit window when the
 *    one under way could not hold it, so no 429 distorts it;
 * 3. a load run with autocannon: `--users` signed-in sessions of the
 *    treasurer (one company selected) each browsing the main pages for
 *    `--duration` seconds, a page view being the page's document plus the BFF
 *    requests the browser made for it in (1), one after the other on the
 *    user's connection. It starts at the beginning of a rate-limit window and
 *    reports page-view p50 / p95, upstream calls per minute, upstream 429s and
 *    the error answers people got (target: no 429 under the default 600/min).
 */
import { execSync } from "node:child_process";
import autocannon from "autocannon";
import { chromium, type Page } from "@playwright/test";
import { findChromium } from "../scripts/chromium";
import { DEMO_TREASURY_B } from "@treasury/api/seed/demo-clients";
import { onCleanup, runCleanups } from "./lib/cleanup";
import { CHROMIUM_ARGS, markdownTable, requireBuild, signInHttp, startDashboard } from "./lib/dashboard";
import { startServerProcess, type ServerProcess } from "./lib/server-process";

const PORT = Number(process.env.BENCH_PORT ?? 3231);
const TREASURER = "treasurer@demo.local";
/** The API's default limit per OAuth client and window (treasury-api/config.ts). */
const RATE_LIMIT = 600;
const WARM_UP = 20;

interface Args {
  duration: number;
  users: number;
  requests: number;
}

function parseArgs(argv: string[]): Args {
  const num = (name: string, dflt: number) => {
    const i = argv.indexOf(`--${name}`);
    const v = i >= 0 ? argv[i + 1] : undefined;
    const n = v === undefined ? dflt : Number(v);
    if (!Number.isInteger(n) || n <= 0) throw new Error(`--${name} must be a positive whole number`);
    return n;
  };
  return { duration: num("duration", 60), users: num("users", 20), requests: num("requests", 200) };
}

const log = (s: string) => process.stdout.write(`${s}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One line of the treasury-api request log. */
interface ApiRequest {
  method: string;
  path: string;
  status: number;
  requestId?: string;
}

/** Reads the API's request log (JSON lines on its stdout) as it grows. */
class RequestLog {
  private offset = 0;
  readonly entries: ApiRequest[] = [];
  constructor(private readonly api: ServerProcess) {}

  /** Every `/public` request logged so far. */
  read(): ApiRequest[] {
    const out = this.api.output();
    const end = out.lastIndexOf("\n") + 1;
    for (const line of out.slice(this.offset, end).split("\n")) {
      if (!line.startsWith("{") || !line.includes('"method"')) continue;
      try {
        const e = JSON.parse(line) as Partial<ApiRequest>;
        if (typeof e.method === "string" && typeof e.path === "string" && e.path.startsWith("/public"))
          this.entries.push({ method: e.method, path: e.path, status: Number(e.status), requestId: e.requestId });
      } catch {
        /* a line of the fixtures dump */
      }
    }
    this.offset = end;
    return this.entries;
  }

  get count(): number {
    return this.read().length;
  }

  /** Waits until no request was logged for `quietMs` (the page's last upstream calls have landed). */
  async settle(quietMs = 400, maxMs = 10_000): Promise<number> {
    const until = Date.now() + maxMs;
    let n = this.count;
    let since = Date.now();
    while (Date.now() < until) {
      await sleep(100);
      const m = this.count;
      if (m !== n) {
        n = m;
        since = Date.now();
      } else if (Date.now() - since >= quietMs) break;
    }
    return n;
  }
}

interface RouteSpec {
  name: string;
  path: string | ((page: Page) => Promise<string>);
  /** Part of the load run's browsing. */
  main: boolean;
}

interface ViewResult {
  route: string;
  cold: number;
  warm: number;
  bff: number;
  /** The page's document and BFF GETs, for the load run. */
  requests: string[];
  note: string;
}

/** Opens `url` and waits for network idle; returns the upstream calls logged and the BFF requests the page made. */
async function pageView(page: Page, url: string, upstream: RequestLog) {
  const before = await upstream.settle(300);
  const bff: string[] = [];
  const onRequest = (req: { url(): string; method(): string }) => {
    const u = new URL(req.url());
    if (u.pathname.startsWith("/api/") && !u.pathname.startsWith("/api/auth/"))
      bff.push(`${req.method()} ${u.pathname}${u.search}`);
  };
  page.on("request", onRequest);
  try {
    await page.goto(url, { waitUntil: "networkidle", timeout: 120_000 });
  } finally {
    page.off("request", onRequest);
  }
  const after = await upstream.settle();
  const denied = (await page.getByText("No access", { exact: true }).count()) > 0;
  const byPath = new Map<string, number>();
  for (const e of upstream.entries.slice(before, after)) byPath.set(e.path, (byPath.get(e.path) ?? 0) + 1);
  const paths = [...byPath].map(([p, n]) => `${p.replace(/^\/public/, "")}×${n}`).join(" ");
  return { calls: after - before, bff, denied, paths };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

const ms = (n: number, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : "—");

/** A Form B access token of the dashboard's demo client. */
async function directToken(apiUrl: string): Promise<string> {
  const res = await fetch(`${apiUrl}/public/auth/token/`, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      authorization: `Basic ${Buffer.from(`${DEMO_TREASURY_B.clientId}:${DEMO_TREASURY_B.clientSecret}`).toString("base64")}`,
    },
    body: "grant_type=client_credentials",
  });
  if (!res.ok) throw new Error(`token request failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

/**
 * Waits for the start of the next rate-limit window when the current one has fewer than `need` requests left (the
 * API counts per client in fixed 60 s windows; one direct call reads the headers).
 */
async function ensureBudget(apiUrl: string, token: string, need: number): Promise<void> {
  const res = await fetch(`${apiUrl}/public/companies`, { headers: { authorization: `Bearer ${token}` } });
  await res.arrayBuffer();
  const remaining = Number(res.headers.get("x-ratelimit-remaining") ?? RATE_LIMIT);
  const reset = Number(res.headers.get("x-ratelimit-reset") ?? 0);
  if (remaining >= need) return;
  const wait = reset * 1000 - Date.now() + 250;
  if (wait > 0) {
    log(`  (waiting ${(wait / 1000).toFixed(0)} s for a fresh rate-limit window: ${remaining} left, ${need} needed)`);
    await sleep(wait);
  }
}

/** Timings (ms) of `n` sequential GETs of `url` with `headers` after WARM_UP unmeasured ones; throws on non-2xx. */
async function series(url: string, headers: Record<string, string>, n: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < WARM_UP + n; i++) {
    const t0 = performance.now();
    const res = await fetch(url, { headers });
    await res.arrayBuffer();
    const t = performance.now() - t0;
    if (!res.ok) throw new Error(`${url}: ${res.status}`);
    if (i >= WARM_UP) times.push(t);
  }
  return times.sort((a, b) => a - b);
}

interface LoadOutcome {
  pageViews: number[];
  upstream: ApiRequest[];
  seconds: number;
  userErrors: Map<number, number>;
  requests: number;
}

/**
 * `users` connections, one session each, browsing `pages` (each a list of request lines `METHOD /path?query`, the
 * document first) round-robin from a different start page per user, for `seconds`.
 */
async function loadRun(
  base: string,
  cookies: string[],
  pages: string[][],
  seconds: number,
  upstream: RequestLog,
): Promise<LoadOutcome> {
  const steps = pages.flatMap((reqs, p) =>
    reqs.map((line, i) => {
      const [method, path] = line.split(" ") as [string, string];
      return { method, path, first: i === 0, last: i === reqs.length - 1, page: p };
    }),
  );
  const pageViews: number[] = [];
  const userErrors = new Map<number, number>();
  let nextUser = 0;
  type Ctx = { user?: number; started?: number };
  const start = upstream.count;
  const t0 = Date.now();
  const result = await autocannon({
    url: base,
    connections: cookies.length,
    duration: seconds,
    timeout: 60,
    requests: steps.map((s) => ({
      method: s.method as "GET",
      path: s.path,
      setupRequest: (req: autocannon.Request, context: Ctx) => {
        context.user ??= nextUser++ % cookies.length;
        if (s.first) context.started = performance.now();
        return {
          ...req,
          headers: {
            ...req.headers,
            cookie: cookies[context.user] ?? "",
            accept: s.first ? "text/html" : "application/json",
          },
        };
      },
      onResponse: (status: number, _body: string, context: Ctx) => {
        if (status >= 400) userErrors.set(status, (userErrors.get(status) ?? 0) + 1);
        if (s.last && context.started !== undefined) pageViews.push(performance.now() - context.started);
      },
    })) as autocannon.Request[],
  });
  const elapsed = (Date.now() - t0) / 1000;
  await upstream.settle(500);
  return {
    pageViews: pageViews.sort((a, b) => a - b),
    upstream: upstream.entries.slice(start),
    seconds: elapsed,
    userErrors,
    requests: result.requests.total,
  };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  if (process.env.BENCH_BUILD === "1") execSync("npm run build", { stdio: "inherit" });
  requireBuild();
  log(
    `bench:bff — production build, local treasury-api (demo data, default rate limit ${RATE_LIMIT}/min per client), ` +
      `node ${process.version}`,
  );

  const api = await startServerProcess({ dataDir: "memory" }, ["--seed", "demo", "--seed-scale", "1"], {
    requestLog: true,
  });
  onCleanup("stop treasury-api", () => api.stop());
  const upstream = new RequestLog(api);
  const dashboard = await startDashboard(PORT, {
    TREASURY_API_BASE_URL: `${api.url}/public`,
    TREASURY_API_FORM: "B",
    TREASURY_CLIENT_ID: DEMO_TREASURY_B.clientId,
    TREASURY_CLIENT_SECRET: DEMO_TREASURY_B.clientSecret,
    DASHBOARD_DEMO: "1",
    DASHBOARD_DATA_DIR: "memory",
    NEXTAUTH_SECRET: "bench-bff-secret-not-for-production-0123456789",
  });
  onCleanup("stop dashboard", () => dashboard.stop());
  const base = dashboard.base;
  log(`API ${api.url}/public; dashboard ${base}`);

  // Sessions: the treasurer signs in over HTTP (no page is rendered, so "/" is still cold below).
  const cookie = await signInHttp(base, TREASURER);
  const token = await directToken(api.url);
  const companies = (await (
    await fetch(`${api.url}/public/companies`, { headers: { authorization: `Bearer ${token}` } })
  ).json()) as { results: { id: string; name: string }[] };
  const company = companies.results.find((c) => c.name === "Nordlys Norge AS") ?? companies.results[0];
  if (!company) throw new Error("no company in the demo data");
  const sessionCookie = `${cookie}; td_company=${company.id}`;

  // 1. Upstream calls per page view.
  const browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
  onCleanup("close browser", () => browser.close());
  const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
  await context.addCookies(
    sessionCookie.split("; ").map((c) => {
      const [name, ...v] = c.split("=");
      return { name: name ?? "", value: v.join("="), url: base };
    }),
  );
  const page = await context.newPage();
  const accountPath = async (p: Page) =>
    (await p.locator("[data-testid=account-row] a").first().getAttribute("href")) ?? "/accounts";
  const routes: RouteSpec[] = [
    { name: "/", path: "/", main: true },
    { name: "/accounts", path: "/accounts", main: true },
    { name: "/accounts/[id]", path: accountPath, main: false },
    { name: "/transactions", path: "/transactions", main: true },
    { name: "/payments", path: "/payments", main: true },
    { name: "/payments/new", path: "/payments/new", main: false },
    { name: "/approvals", path: "/approvals", main: true },
    { name: "/reconciliation", path: "/reconciliation", main: true },
    { name: "/reconciliation?tab=decided", path: "/reconciliation?tab=decided", main: false },
    { name: "/reports/cashflow", path: "/reports/cashflow", main: true },
    { name: "/reports/positions", path: "/reports/positions", main: false },
    { name: "/reports/forecast", path: "/reports/forecast", main: false },
    { name: "/statements", path: "/statements", main: false },
    { name: "/counterparties", path: "/counterparties", main: false },
    { name: "/organization", path: "/organization", main: false },
    { name: "/audit", path: "/audit", main: false },
    { name: "/webhooks", path: "/webhooks", main: false },
  ];
  const views: ViewResult[] = [];
  for (const r of routes) {
    const path = typeof r.path === "string" ? r.path : await r.path(page);
    const cold = await pageView(page, `${base}${path}`, upstream);
    const warm = await pageView(page, `${base}${path}`, upstream);
    views.push({
      route: r.name,
      cold: cold.calls,
      warm: warm.calls,
      bff: cold.bff.length,
      requests: [`GET ${path}`, ...cold.bff.filter((l) => l.startsWith("GET "))],
      note: cold.denied ? "no access (treasurer)" : "",
    });
    log(`  ${r.name}: ${cold.calls} cold (${cold.paths || "—"}), ${warm.calls} warm, ${cold.bff.length} BFF requests`);
  }
  await browser.close();

  // 2. BFF vs direct, one connection.
  const latency: string[][] = [];
  const lists = [
    {
      name: "transactions (100 rows)",
      bff: `${base}/api/treasury/transactions?page_size=100`,
      direct: `${api.url}/public/transactions?page_size=100`,
    },
    { name: "accounts", bff: `${base}/api/treasury/accounts`, direct: `${api.url}/public/accounts` },
  ];
  const n = args.requests;
  for (const l of lists) {
    // The BFF may read more than once per call (cold); the direct series reads exactly once per request.
    await ensureBudget(api.url, token, Math.min(RATE_LIMIT - 10, 2 * (WARM_UP + n)));
    const bff = await series(l.bff, { cookie: sessionCookie, accept: "application/json" }, n);
    await ensureBudget(api.url, token, WARM_UP + n + 5);
    const direct = await series(l.direct, { authorization: `Bearer ${token}`, "x-company-id": company.id }, n);
    const b50 = percentile(bff, 50);
    const d50 = percentile(direct, 50);
    latency.push([l.name, ms(b50), ms(d50), ms(b50 / d50, 2), ms(b50 - d50), b50 - d50 <= 3 ? "ok" : "OVER"]);
    log(`  ${l.name}: BFF p50 ${ms(b50)} ms, direct p50 ${ms(d50)} ms`);
  }

  // 3. Load run: the users' sessions, then a fresh rate-limit window.
  const cookies: string[] = [];
  for (let i = 0; i < args.users; i++) cookies.push(`${await signInHttp(base, TREASURER)}; td_company=${company.id}`);
  const main = views.filter((v) => routes.find((r) => r.name === v.route)?.main);
  const pages = main.map((v) => v.requests);
  await ensureBudget(api.url, token, RATE_LIMIT);
  log(`  load: ${args.users} users × ${pages.length} pages for ${args.duration} s …`);
  const load = await loadRun(base, cookies, pages, args.duration, upstream);
  const upstream429 = load.upstream.filter((e) => e.status === 429).length;
  const perMinute = (load.upstream.length / load.seconds) * 60;
  const userErrors = [...load.userErrors.entries()].map(([s, c]) => `${c}×${s}`).join(", ") || "none";

  // The report.
  log("\n### Upstream calls per page view (treasurer; target ≤ 8 cold, ≤ 3 warm)\n");
  log(
    markdownTable(
      ["route", "cold", "warm", "BFF requests from the browser", "within budget", "note"],
      views.map((v) => [
        v.route,
        String(v.cold),
        String(v.warm),
        String(v.bff),
        v.cold <= 8 && v.warm <= 3 ? "ok" : "OVER",
        v.note,
      ]),
    ),
  );
  log(`\n### BFF vs direct, one connection, ${n} sequential requests after ${WARM_UP} warm-up (target ≤ 3 ms)\n`);
  log(markdownTable(["list", "BFF p50 ms", "direct p50 ms", "ratio", "overhead ms", "≤ 3 ms"], latency));
  log(`\n### Load: ${args.users} treasurer sessions browsing ${main.map((v) => v.route).join(", ")}\n`);
  log(
    markdownTable(
      [
        "duration s",
        "page views",
        "page view p50 ms",
        "page view p95 ms",
        "HTTP requests",
        "upstream calls",
        "upstream calls / min",
        "upstream 429s",
        "errors to users",
      ],
      [
        [
          ms(load.seconds, 0),
          String(load.pageViews.length),
          ms(percentile(load.pageViews, 50), 0),
          ms(percentile(load.pageViews, 95), 0),
          String(load.requests),
          String(load.upstream.length),
          ms(perMinute, 0),
          String(upstream429),
          userErrors,
        ],
      ],
    ),
  );
  const over = views.some((v) => v.cold > 8 || v.warm > 3) || upstream429 > 0;
  process.exitCode = over ? 1 : 0;
}

main()
  .catch((err: unknown) => {
    process.stderr.write(`bench:bff: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  })
  .finally(() => runCleanups());
