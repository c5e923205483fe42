/**
 * The printed table and the JSON result file of `npm run bench:api`.
 * Latencies are milliseconds; every scenario is also shown as a ratio to the
 * floor scenario of the same database (p50, p99: ×slower; req/s: share).
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { DbKind } from "./databases";
import type { LoadResult } from "./load";

export interface ScenarioOutcome {
  name: string;
  floor: boolean;
  targetMs?: number;
  /** Under load: `--connections` connections. */
  result?: LoadResult;
  /** Unloaded: one connection. */
  single?: LoadResult;
  /** Set when the smoke request failed or the run threw. */
  error?: string;
}

export interface SeedOutcome {
  transactions: number;
  seconds: number;
  rowsPerSecond: number;
  /** Target for seeding a million transactions, seconds (checked on PostgreSQL). */
  targetSeconds: number;
}

export interface DatabaseOutcome {
  kind: DbKind;
  description: string;
  seed?: SeedOutcome;
  scenarios: ScenarioOutcome[];
  extras: { name: string; value: string }[];
  error?: string;
}

function fmt(n: number, digits = 1): string {
  return Number.isFinite(n) ? n.toFixed(digits) : "—";
}

function verdict(kind: DbKind, ok: boolean): string {
  if (kind !== "postgres") return "(info)";
  return ok ? "PASS" : "FAIL";
}

/** A earlier run's outcome of the same database, to compare with (`previousRun`). */
export interface PreviousOutcome {
  /** When that run was, ISO 8601. */
  at: string;
  outcome: DatabaseOutcome;
}

/**
 * The newest result file in `dir` (bench/results/api-*.json) that has an outcome for `kind`, or null. Unreadable or
 * foreign files are skipped.
 */
export function previousRun(dir: string, kind: DbKind): PreviousOutcome | null {
  if (!existsSync(dir)) return null;
  const files = readdirSync(dir)
    .filter((f) => /^api-.*\.json$/.test(f))
    .sort()
    .reverse();
  for (const f of files) {
    try {
      const run = JSON.parse(readFileSync(path.join(dir, f), "utf8")) as { at?: string; outcomes?: DatabaseOutcome[] };
      const outcome = run.outcomes?.find((x) => x.kind === kind && x.scenarios.some((s) => s.result));
      if (outcome && run.at) return { at: run.at, outcome };
    } catch {
      // not a result file of this version: skip it
    }
  }
  return null;
}

/** `now / before` as "×1.23", or "—" when either is missing or zero. */
function ratio(now: number | undefined, before: number | undefined): string {
  if (now === undefined || before === undefined || !Number.isFinite(now) || !Number.isFinite(before) || before <= 0)
    return "—";
  return `×${(Math.max(now, 0.5) / Math.max(before, 0.5)).toFixed(2)}`;
}

/**
 * The human-readable report of one database; with `previous`, each scenario's p50 (loaded), req/s and one-connection
 * p50 also as a ratio to the same scenario of that run (p50 above ×1 is slower, req/s below ×1 is slower).
 */
export function formatDatabase(o: DatabaseOutcome, previous: PreviousOutcome | null = null): string {
  const lines: string[] = [`\n=== ${o.description} ===`];
  if (o.error) lines.push(`ERROR: ${o.error}`);
  if (o.seed) {
    const s = o.seed;
    const ok = s.transactions >= 1_000_000 && s.seconds <= s.targetSeconds;
    lines.push(
      `seed: ${s.transactions.toLocaleString("en")} transactions in ${fmt(s.seconds)} s = ` +
        `${Math.round(s.rowsPerSecond).toLocaleString("en")} transactions/s` +
        `   target ≥ 1,000,000 in ≤ ${s.targetSeconds} s: ${verdict(o.kind, ok)}`,
    );
  }
  const floor = o.scenarios.find((s) => s.floor)?.result;
  const header = [
    "scenario",
    "p50 ms",
    "p99 ms",
    "req/s",
    "p50 ×floor",
    "p99 ×floor",
    "req/s ÷floor",
    "p50 1conn",
    "p50 ×prev",
    "req/s ×prev",
    "1conn ×prev",
    "non2xx",
    "target",
  ];
  const rows: string[][] = [header];
  for (const s of o.scenarios) {
    const r = s.result;
    if (!r) {
      rows.push([s.name, ...header.slice(1, -1).map(() => "—"), s.error ? `ERROR ${s.error}` : ""]);
      continue;
    }
    // A run in which no request completed has a p50 of 0: that is a failure, not a pass.
    const met = (x: LoadResult, targetMs: number) => x.requests > 0 && x.p50Ms <= targetMs && x.non2xx === 0;
    const target =
      s.targetMs !== undefined
        ? `p50 ≤ ${s.targetMs} ms: loaded ${verdict(o.kind, met(r, s.targetMs))}, 1 conn ` +
          `${s.single ? verdict(o.kind, met(s.single, s.targetMs)) : "—"}`
        : "";
    const before = previous?.outcome.scenarios.find((p) => p.name === s.name);
    rows.push([
      s.name,
      fmt(r.p50Ms),
      fmt(r.p99Ms),
      fmt(r.requestsPerSecond, 0),
      floor ? fmt(r.p50Ms / Math.max(floor.p50Ms, 0.5)) : "—",
      floor ? fmt(r.p99Ms / Math.max(floor.p99Ms, 0.5)) : "—",
      floor ? fmt(r.requestsPerSecond / floor.requestsPerSecond, 3) : "—",
      s.single ? fmt(s.single.p50Ms) : "—",
      ratio(r.p50Ms, before?.result?.p50Ms),
      before?.result && r.requestsPerSecond > 0 && before.result.requestsPerSecond > 0
        ? `×${(r.requestsPerSecond / before.result.requestsPerSecond).toFixed(2)}`
        : "—",
      ratio(s.single?.p50Ms, before?.single?.p50Ms),
      String(r.non2xx + r.errors + r.timeouts + (s.single ? s.single.non2xx + s.single.errors : 0)),
      target,
    ]);
  }
  const widths = header.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length)));
  for (const [i, r] of rows.entries()) {
    lines.push(
      r
        .map((c, j) => (j === 0 || j === r.length - 1 ? c.padEnd(widths[j] ?? 0) : c.padStart(widths[j] ?? 0)))
        .join("  ")
        .trimEnd(),
    );
    if (i === 0) lines.push(widths.map((w) => "-".repeat(w)).join("  "));
  }
  lines.push(
    "(p50/p99/req/s under load; ratios use a floor latency of at least 0.5 ms; floor = GET /healthz on the same " +
      "server and load; p50 1conn = one connection, unloaded; target verdicts are given for both: loaded, where p50 " +
      "includes queueing behind the other connections on 2 cores, and one connection, the request's own latency)",
  );
  lines.push(
    previous
      ? `×prev = this run ÷ the run of ${previous.at} in bench/results/ (latency above ×1 and req/s below ×1 are ` +
          "slower; latencies of at least 0.5 ms)"
      : "×prev: no earlier run of this database in bench/results/ to compare with",
  );
  for (const e of o.extras) lines.push(`${e.name}: ${e.value}`);
  return lines.join("\n");
}

/** Writes the results as JSON into bench/results/ (git-ignored) and returns the file path. */
export function writeResults(dir: string, payload: unknown): string {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `api-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
  writeFileSync(file, `${JSON.stringify(payload, null, 2)}\n`);
  return file;
}
