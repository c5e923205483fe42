/**
 * The printed table and the JSON result file of `npm run bench:api`.
 * Latencies are milliseconds; every scenario is also shown as a ratio to the
 * floor scenario of the same database (p50, p99: ×slower; req/s: share).
 */
import { mkdirSync, writeFileSync } from "node:fs";
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

/** The human-readable report of one database. */
export function formatDatabase(o: DatabaseOutcome): string {
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
    "non2xx",
    "target",
  ];
  const rows: string[][] = [header];
  for (const s of o.scenarios) {
    const r = s.result;
    if (!r) {
      rows.push([s.name, "—", "—", "—", "—", "—", "—", "—", "—", s.error ? `ERROR ${s.error}` : ""]);
      continue;
    }
    const target =
      s.targetMs !== undefined
        ? `p50 ≤ ${s.targetMs} ms: loaded ${verdict(o.kind, r.p50Ms <= s.targetMs && r.non2xx === 0)}, 1 conn ` +
          `${s.single ? verdict(o.kind, s.single.p50Ms <= s.targetMs && s.single.non2xx === 0) : "—"}`
        : "";
    rows.push([
      s.name,
      fmt(r.p50Ms),
      fmt(r.p99Ms),
      fmt(r.requestsPerSecond, 0),
      floor ? fmt(r.p50Ms / Math.max(floor.p50Ms, 0.5)) : "—",
      floor ? fmt(r.p99Ms / Math.max(floor.p99Ms, 0.5)) : "—",
      floor ? fmt(r.requestsPerSecond / floor.requestsPerSecond, 3) : "—",
      s.single ? fmt(s.single.p50Ms) : "—",
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
