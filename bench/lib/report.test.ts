import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { formatDatabase, previousRun, type DatabaseOutcome } from "./report";
import type { LoadResult } from "./load";

const load = (p50Ms: number, requestsPerSecond: number, requests = 100): LoadResult => ({
  p50Ms,
  p99Ms: p50Ms * 2,
  requestsPerSecond,
  requests,
  non2xx: 0,
  errors: 0,
  timeouts: 0,
});

const outcome = (list: number, upsert: number, batchRequests = 10): DatabaseOutcome => ({
  kind: "postgres",
  description: "PostgreSQL (test)",
  extras: [],
  scenarios: [
    { name: "GET /healthz (floor)", floor: true, result: load(1, 1000), single: load(0, 3000) },
    { name: "list", floor: false, targetMs: 25, result: load(list, 100), single: load(list / 10, 50) },
    { name: "upsert", floor: false, result: load(upsert, 200), single: load(upsert / 10, 100) },
    { name: "batch", floor: false, targetMs: 500, result: load(0, 0, batchRequests), single: load(300, 3) },
  ],
});

const rowOf = (text: string, name: string) => text.split("\n").find((l) => l.startsWith(name)) ?? "";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe("bench:api report", () => {
  it("shows each scenario's p50, req/s and one-connection p50 as a ratio to the previous run", () => {
    const text = formatDatabase(outcome(60, 20), { at: "2026-11-23T10:00:00.000Z", outcome: outcome(30, 10) });
    expect(rowOf(text, "list")).toContain("×2.00");
    expect(rowOf(text, "upsert")).toContain("×2.00");
    expect(rowOf(text, "list")).toContain("×1.00"); // the same req/s
    expect(text).toContain("the run of 2026-11-23T10:00:00.000Z");
    const header = rowOf(text, "scenario");
    expect(header).toContain("p50 ×prev");
    expect(header).toContain("req/s ×prev");
    expect(header).toContain("1conn ×prev");
  });

  it("says when there is no earlier run, and shows — for a scenario the earlier run did not have", () => {
    expect(formatDatabase(outcome(60, 20))).toContain("no earlier run of this database");
    const before = outcome(30, 10);
    before.scenarios = before.scenarios.filter((s) => s.name !== "upsert");
    const row = rowOf(formatDatabase(outcome(60, 20), { at: "x", outcome: before }), "upsert");
    expect(row.match(/—/g)?.length).toBeGreaterThanOrEqual(3);
  });

  it("fails a target when no request completed (p50 0 is not a pass)", () => {
    const none = outcome(10, 10, 0);
    expect(rowOf(formatDatabase(none), "batch")).toContain("loaded FAIL, 1 conn PASS");
    expect(rowOf(formatDatabase(outcome(10, 10, 5)), "batch")).toContain("loaded PASS");
  });

  it("previousRun picks the newest result file that has the database, skipping others and broken files", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "bench-report-"));
    dirs.push(dir);
    expect(previousRun(path.join(dir, "missing"), "postgres")).toBeNull();
    expect(previousRun(dir, "postgres")).toBeNull();
    const write = (name: string, body: unknown) => writeFileSync(path.join(dir, name), JSON.stringify(body));
    write("api-2026-11-20T00-00-00-000Z.json", { at: "2026-11-20", outcomes: [outcome(1, 1)] });
    write("api-2026-11-21T00-00-00-000Z.json", { at: "2026-11-21", outcomes: [{ ...outcome(2, 2), kind: "pglite" }] });
    writeFileSync(path.join(dir, "api-2026-11-22T00-00-00-000Z.json"), "{ not json");
    write("other-2026-11-23.json", { at: "2026-11-23", outcomes: [outcome(3, 3)] });
    expect(previousRun(dir, "postgres")?.at).toBe("2026-11-20");
    expect(previousRun(dir, "pglite")?.at).toBe("2026-11-21");
  });
});
