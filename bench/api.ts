/**
 * `npm run bench:api` — the Treasury API benchmark.
 *
 *   npm run bench:api -- [--db pglite,postgres] [--scale 50] [--duration 10] [--connections 10] [--events 2000]
 *                        [--workers N] [--scenario list,upsert]
 *
 * For each database (PGlite in a temp data folder; a temp PostgreSQL cluster
 * when Debian's binaries are installed, else it says so and skips it):
 * seed the demo data at `--scale` (50 ≈ 1.15 million transactions) and time
 * it, start the real server as its own process (the CLI, so the load
 * generator does not share its event loop; rate limit high enough not to interfere), then load every scenario with
 * autocannon for `--duration` seconds on `--connections` connections after a
 * short warm-up, then once more on a single connection (unloaded latency).
 * Prints p50 / p99 latency, requests/s and each as a ratio to
 * the floor (`GET /healthz`) and to the previous run of the same database in
 * bench/results/ (×prev), PASS/FAIL against the targets (on PostgreSQL),
 * and writes JSON to bench/results/. Everything it starts is stopped and
 * removed at the end, on error and on Ctrl-C.
 *
 * Scenarios: the ledger list in bench/lib/ledger-scenarios.ts, then the
 * reporting and payment scenarios of bench/scenarios/ — append to SCENARIOS.
 * `--scenario a,b` runs only the scenarios whose name contains one of the words (case-insensitive; the floor always
 * runs, for the ratios), and the webhook throughput only when one of them is `webhook`: a list-only run is minutes
 * shorter.
 */
import { availableParallelism } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { openDatabase, queryRows } from "@treasury/api/db/client";
import { seedDemo, type DemoFixtures } from "@treasury/api/seed/index";
import { DEMO_TREASURY_B } from "@treasury/api/seed/demo-clients";
import { paymentsScenario } from "./scenarios/payments";
import { measureWebhookThroughput, reportingScenarios } from "./scenarios/reporting-webhooks";
import { onCleanup, runCleanups } from "./lib/cleanup";
import { startServerProcess } from "./lib/server-process";
import { createBenchDatabase, postgresAvailable, type BenchDatabase, type DbKind } from "./lib/databases";
import { ledgerScenarios } from "./lib/ledger-scenarios";
import { runLoad, sendOnce, type LoadOptions } from "./lib/load";
import { formatDatabase, previousRun, writeResults, type DatabaseOutcome, type ScenarioOutcome } from "./lib/report";
import type { BenchScenario, ScenarioContext } from "./lib/scenario";

/** Every scenario, in run order: reads first, then writes (which add rows). */
export const SCENARIOS: BenchScenario[] = [...ledgerScenarios, ...reportingScenarios, paymentsScenario];

const SEED_TARGET_SECONDS = 120;
const RESULTS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "results");

interface Args {
  dbs: DbKind[];
  scale: number;
  duration: number;
  connections: number;
  events: number;
  /** Server processes on PostgreSQL (`--workers`; default the number of cores, the server's default); PGlite: 1. */
  workers: number;
  /** `--scenario`: lower-case words a scenario's name must contain one of; empty = every scenario. */
  only: string[];
}

/** The scenarios a run loads: every one, or the floor and those `only` names (`--scenario`). */
export function selectScenarios(all: readonly BenchScenario[], only: readonly string[]): BenchScenario[] {
  if (only.length === 0) return [...all];
  return all.filter((s) => s.floor || only.some((w) => s.name.toLowerCase().includes(w)));
}

function parseArgs(argv: string[]): Args {
  const get = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const num = (name: string, dflt: number) => {
    const v = get(name);
    const n = v === undefined ? dflt : Number(v);
    if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number`);
    return n;
  };
  const dbs = (get("db") ?? "pglite,postgres").split(",").map((s) => s.trim());
  for (const d of dbs)
    if (d !== "pglite" && d !== "postgres") throw new Error(`--db: unknown database ${d} (pglite, postgres)`);
  return {
    dbs: dbs as DbKind[],
    scale: num("scale", 50),
    duration: num("duration", 10),
    connections: num("connections", 10),
    events: num("events", 2000),
    workers: num("workers", availableParallelism()),
    only: (get("scenario") ?? "")
      .split(",")
      .map((w) => w.trim().toLowerCase())
      .filter(Boolean),
  };
}

const log = (s: string) => process.stdout.write(`${s}\n`);

interface Seeded {
  fixtures: DemoFixtures;
  seconds: number;
  /** The busiest account of demo-treasury-b's companies: the honest worst case for the list scenarios. */
  busiest: { accountId: string; companyId: string };
}

async function seed(target: BenchDatabase, scale: number): Promise<Seeded> {
  const database = await openDatabase(target.url ? { url: target.url } : { dataDir: target.dataDir });
  try {
    const t0 = performance.now();
    let last = t0;
    const fixtures = await seedDemo(database, {
      scale,
      onProgress: (n) => {
        if (performance.now() - last > 10_000) {
          last = performance.now();
          log(`  … ${n.toLocaleString("en")} transactions after ${((last - t0) / 1000).toFixed(0)} s`);
        }
      },
    });
    const seconds = (performance.now() - t0) / 1000;
    const client = fixtures.clients.find((c) => c.client_id === DEMO_TREASURY_B.clientId);
    if (!client) throw new Error("demo-treasury-b missing from the fixtures");
    const [top] = await queryRows<{ account_id: string; company_id: string }>(
      database.db,
      sql`SELECT account_id::text, company_id::text, sum(tx_count)::bigint AS n FROM account_day_flows
          WHERE company_id IN (${sql.join(
            client.company_ids.map((id) => sql`${id}::uuid`),
            sql`, `,
          )})
          GROUP BY account_id, company_id ORDER BY n DESC LIMIT 1`,
    );
    if (!top) throw new Error("no transactions found for demo-treasury-b's companies");
    return { fixtures, seconds, busiest: { accountId: top.account_id, companyId: top.company_id } };
  } finally {
    await database.close();
  }
}

async function benchDatabase(kind: DbKind, args: Args): Promise<DatabaseOutcome> {
  const target = await createBenchDatabase(kind);
  const outcome: DatabaseOutcome = { kind, description: target.description, scenarios: [], extras: [] };
  try {
    log(`\n[${kind}] seeding scale ${args.scale} …`);
    const { fixtures, seconds, busiest } = await seed(target, args.scale);
    const n = fixtures.counts.transactions;
    outcome.seed = { transactions: n, seconds, rowsPerSecond: n / seconds, targetSeconds: SEED_TARGET_SECONDS };
    log(
      `[${kind}] seeded ${n.toLocaleString("en")} transactions in ${seconds.toFixed(1)} s ` +
        `(${Math.round(n / seconds).toLocaleString("en")}/s)`,
    );
    const client = fixtures.clients.find((c) => c.client_id === DEMO_TREASURY_B.clientId);
    const account = fixtures.accounts.find((a) => a.id === busiest.accountId);
    if (!client || !account) throw new Error("demo-treasury-b or its busiest account missing from the fixtures");

    // The server runs as its own process (the CLI), so autocannon does not share its event loop.
    const server = await startServerProcess({ dataDir: target.dataDir, url: target.url }, [
      "--rate-limit",
      "1000000000",
      "--bank-speed",
      "manual",
      "--workers",
      String(kind === "postgres" ? args.workers : 1),
    ]);
    const stopServer = onCleanup(`stop ${kind} server`, () => server.stop());
    try {
      const tokenRes = await fetch(`${server.url}/public/auth/token/`, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          authorization: `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString("base64")}`,
        },
        body: "grant_type=client_credentials",
      });
      if (tokenRes.status !== 200) throw new Error(`token request failed: ${tokenRes.status} ${await tokenRes.text()}`);
      const { access_token: token } = (await tokenRes.json()) as { access_token: string };
      const ctx: ScenarioContext = {
        companyId: busiest.companyId,
        accountId: account.id,
        accountIban: account.iban,
        accountBic: account.bank_id,
        currency: account.currency,
        today: fixtures.today,
        iteration: 0,
      };
      log(
        `[${kind}] server ${server.url} (${kind === "postgres" ? args.workers : 1} worker processes); company ${fixtures.companies.find((c) => c.id === ctx.companyId)?.name}, ` +
          `account ${account.name} (${account.currency})`,
      );

      const load: LoadOptions = {
        baseUrl: server.url,
        token,
        durationSeconds: args.duration,
        connections: args.connections,
      };
      for (const s of selectScenarios(SCENARIOS, args.only)) {
        const o: ScenarioOutcome = { name: s.name, floor: Boolean(s.floor), targetMs: s.targetMs };
        outcome.scenarios.push(o);
        try {
          const smoke = await sendOnce(s, { ...ctx, iteration: -1 }, load);
          if (smoke.status >= 300) throw new Error(`smoke request: ${smoke.status} ${smoke.body.slice(0, 200)}`);
          await runLoad(s, { ...ctx, iteration: 1_000_000 }, { ...load, durationSeconds: Math.min(2, args.duration) });
          o.result = await runLoad(s, { ...ctx, iteration: 0 }, load);
          // Unloaded latency: one connection, so no request queues behind another.
          o.single = await runLoad(
            s,
            { ...ctx, iteration: 2_000_000 },
            { ...load, connections: 1, durationSeconds: Math.min(5, args.duration) },
          );
          log(
            `[${kind}] ${s.name}: p50 ${o.result.p50Ms} ms, p99 ${o.result.p99Ms} ms, ` +
              `${Math.round(o.result.requestsPerSecond)} req/s${
                o.result.non2xx ? `, ` + `${o.result.non2xx} non-2xx` : ""
              }; 1 connection: p50 ${o.single.p50Ms} ms`,
          );
        } catch (err) {
          o.error = err instanceof Error ? err.message : String(err);
          log(`[${kind}] ${s.name}: ERROR ${o.error}`);
        }
      }
    } finally {
      await stopServer();
    }

    if (args.only.length > 0 && !args.only.includes("webhook")) return outcome;
    // Webhook delivery runs the delivery worker in this process, on the database the server has released.
    const database = await openDatabase(target.url ? { url: target.url } : { dataDir: target.dataDir });
    try {
      const w = await measureWebhookThroughput(database, {
        clientId: client.id,
        tenantId: client.tenant_id,
        companyId: busiest.companyId,
        events: args.events,
      });
      const floorRps = outcome.scenarios.find((s) => s.floor)?.result?.requestsPerSecond;
      outcome.extras.push({
        name: "webhook delivery to a loopback receiver",
        value:
          `${w.events} events in ${w.seconds.toFixed(2)} s = ` +
          `${w.eventsPerSecond.toFixed(0)} events/s${
            floorRps ? ` (÷floor req/s ` + `${(w.eventsPerSecond / floorRps).toFixed(3)})` : ""
          }`,
      });
    } catch (err) {
      outcome.extras.push({
        name: "webhook delivery to a loopback receiver",
        value: `ERROR ${err instanceof Error ? err.message : String(err)}`,
      });
    } finally {
      await database.close();
    }
  } catch (err) {
    outcome.error = err instanceof Error ? (err.stack ?? err.message) : String(err);
  } finally {
    await target.dispose();
  }
  return outcome;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const dbs = args.dbs.filter((d) => {
    if (d === "postgres" && !postgresAvailable()) {
      log(
        "PostgreSQL binaries (initdb, pg_ctl) not found: install Debian's postgresql package to benchmark " +
          "PostgreSQL. Running PGlite only.",
      );
      return false;
    }
    return true;
  });
  log(
    `bench:api — scale ${args.scale}, ${args.duration} s × ${args.connections} connections per scenario, node ` +
      `${process.version}`,
  );
  // The runs to compare with are read before this run writes its own.
  const previous = new Map(dbs.map((kind) => [kind, previousRun(RESULTS_DIR, kind)]));
  const outcomes: DatabaseOutcome[] = [];
  for (const kind of dbs) outcomes.push(await benchDatabase(kind, args));
  for (const o of outcomes) log(formatDatabase(o, previous.get(o.kind) ?? null));
  const file = writeResults(RESULTS_DIR, { at: new Date().toISOString(), args, node: process.version, outcomes });
  log(`\nresults: ${path.relative(process.cwd(), file)}`);
  if (outcomes.some((o) => o.error)) process.exitCode = 1;
}

main()
  .catch((err: unknown) => {
    process.stderr.write(`bench:api: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  })
  .finally(() => runCleanups());
