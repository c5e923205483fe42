/**
 * `npm run lint:openapi` (part of `npm run checks`): lints the OpenAPI document the local Treasury API serves, as
 * integrators' tools read it (docs/treasury-api.md, "OpenAPI document"). The document is generated from the app to a
 * temporary file (scripts/openapi.ts, no server started), then:
 *
 * - Redocly CLI, `recommended` rules: no error;
 * - Spectral, `spectral:oas` rules: no error and no warning.
 *
 * One problem is allowed, by both: the trailing slash of `/auth/token/`, which the spec prescribes (both linters
 * report it under their trailing-slash rule; nothing else is filtered). Exit code 1 on any other problem, with the
 * problems printed.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
const bin = (name: string) => path.join(ROOT, "node_modules", ".bin", name);

/** The one problem the spec makes us keep: the trailing slash of the Form B token path. */
const TOKEN_PATH = "/auth/token/";

interface Problem {
  tool: string;
  rule: string;
  severity: string;
  where: string;
  message: string;
}

function run(cmd: string, args: string[]): string {
  const r = spawnSync(cmd, args, { cwd: ROOT, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (r.error) throw r.error;
  return r.stdout;
}

function redocly(file: string): Problem[] {
  const out = JSON.parse(run(bin("redocly"), ["lint", "--extends=recommended", "--format=json", file])) as {
    problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
  };
  return out.problems
    .filter((p) => p.severity === "error" || p.severity === "warn")
    .map((p) => ({
      tool: "redocly",
      rule: p.ruleId,
      severity: p.severity,
      where: p.location[0]?.pointer ?? "",
      message: p.message,
    }))
    .filter((p) => !(p.rule === "no-path-trailing-slash" && p.where === "#/paths/~1auth~1token~1"));
}

function spectral(file: string, ruleset: string): Problem[] {
  const text = run(bin("spectral"), ["lint", "--quiet", "-r", ruleset, "-f", "json", file]).trim();
  const out = (text ? JSON.parse(text) : []) as { code: string; severity: number; path: string[]; message: string }[];
  return out
    .filter((p) => p.severity <= 1) // 0 error, 1 warning (2 info, 3 hint are not failures)
    .map((p) => ({
      tool: "spectral",
      rule: p.code,
      severity: p.severity === 0 ? "error" : "warning",
      where: p.path.join("."),
      message: p.message,
    }))
    .filter((p) => !(p.rule === "path-keys-no-trailing-slash" && p.where === `paths.${TOKEN_PATH}`));
}

function main(): void {
  const dir = mkdtempSync(path.join(tmpdir(), "openapi-lint-"));
  try {
    const file = path.join(dir, "openapi.json");
    const gen = spawnSync(bin("tsx"), [path.join(ROOT, "scripts", "openapi.ts"), file], {
      cwd: ROOT,
      stdio: "inherit",
    });
    if (gen.status !== 0) throw new Error("could not generate the OpenAPI document");
    const ruleset = path.join(dir, ".spectral.yaml");
    writeFileSync(ruleset, 'extends: ["spectral:oas"]\n');
    const problems = [...redocly(file), ...spectral(file, ruleset)];
    for (const p of problems) process.stdout.write(`${p.tool} ${p.severity} ${p.rule} at ${p.where}: ${p.message}\n`);
    if (problems.length > 0) {
      process.stdout.write(`OpenAPI lint: ${problems.length} problem(s)\n`);
      process.exitCode = 1;
    } else {
      process.stdout.write(
        `OpenAPI lint: Redocly (recommended) and Spectral (spectral:oas) clean; ${TOKEN_PATH} kept\n`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main();
