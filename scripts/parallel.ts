/**
 * Runs npm scripts side by side: `tsx scripts/parallel.ts format:check lint typecheck`.
 *
 * `npm test` uses it for the static checks: eslint and tsc each keep one core
 * busy, so on a machine with two or more cores running them together takes about
 * as long as the slower one instead of the sum. Each script's output is held
 * back and printed in one piece when it ends (no interleaved lines), headed by
 * its name, result and duration. All of them run to the end, so every failing
 * check reports; the exit code is 1 when any failed, 0 otherwise, 2 without names.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** How one script ended. */
export interface ScriptResult {
  name: string;
  /** Exit code; null when killed by a signal or not started. */
  code: number | null;
  output: string;
  seconds: number;
}

/** Runs `npm run <name>` with its output captured. */
function runScript(name: string): Promise<ScriptResult> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn("npm", ["run", name], { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    const done = (code: number | null) => resolve({ name, code, output, seconds: (Date.now() - started) / 1000 });
    child.once("error", (err) => {
      output += `${err.message}\n`;
      done(null);
    });
    child.once("close", (code) => done(code));
  });
}

/** The header line of a finished script, e.g. `── lint: ok (41.3 s)`. */
export function headline(r: ScriptResult): string {
  const result = r.code === 0 ? "ok" : `FAILED (exit ${r.code === null ? "by signal" : String(r.code)})`;
  return `── ${r.name}: ${result} (${r.seconds.toFixed(1)} s)`;
}

/**
 * Runs the scripts together, printing each one's output as it finishes.
 * @returns the process exit code: 0 when all passed, 1 when any failed, 2 when no script was named
 */
export async function main(names: string[], write: (text: string) => void): Promise<number> {
  if (names.length === 0) {
    write("usage: tsx scripts/parallel.ts SCRIPT...   (npm scripts to run side by side)\n");
    return 2;
  }
  const results = await Promise.all(
    names.map(async (name) => {
      const r = await runScript(name);
      write(`${headline(r)}\n${r.output}${r.output.endsWith("\n") || r.output === "" ? "" : "\n"}`);
      return r;
    }),
  );
  return results.every((r) => r.code === 0) ? 0 : 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2), (t) => process.stdout.write(t));
}
