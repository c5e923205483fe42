import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const dir = mkdtempSync(path.join(tmpdir(), "fx-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the CLI against a throw-away PGlite folder. */
function fx(...args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, DASHBOARD_DATA_DIR: path.join(dir, "db") };
  delete env.DATABASE_URL;
  const r = spawnSync(process.execPath, ["--import", "tsx", "scripts/fx.ts", ...args], { env, encoding: "utf8" });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe("npm run fx", () => {
  it("imports files idempotently, refuses a bad file whole, converts, and exits 2 on usage errors", () => {
    const first = fx("import", "lib/fx/fixtures/eurofxref-hist.xml");
    expect(first).toMatchObject({ code: 0, err: "" });
    expect(first.out).toContain("imported: 203 inserted, 0 updated, 0 unchanged (2026-11-12 to 2026-11-20)");

    const bad = path.join(dir, "bad.csv");
    writeFileSync(bad, "Date,USD,NOK,\n2026-11-23,1.2,11.7,\n2026-11-24,1.2,N/A,x\n");
    const refused = fx("import", "lib/fx/fixtures/eurofxref-hist.csv", bad);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain(`${bad}: line 3: 4 cells where the header has 3 columns\nnothing imported`);

    const again = fx("import", "lib/fx/fixtures/eurofxref-hist.csv", "lib/fx/fixtures/eurofxref-daily.xml");
    expect(again.out).toContain("imported: 0 inserted, 0 updated, 203 unchanged");

    const converted = fx("convert", "1000.00", "NOK", "JPY", "2026-11-22");
    expect(converted.code).toBe(0);
    expect(converted.out).toMatch(/^15412 JPY {2}\(rate .*STALE: rate of 2026-11-20\)/);

    const usage = fx("import");
    expect(usage.code).toBe(2);
    expect(usage.err).toMatch(/^import needs at least one FILE/);
    expect(fx("--help")).toMatchObject({ code: 0, out: expect.stringContaining("npm run fx -- import FILE...") });
  }, 180_000); // six CLI processes, each starting tsx and (four of them) PGlite
});
