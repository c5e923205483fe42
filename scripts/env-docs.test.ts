/**
 * Every environment variable the code reads is documented: a row in docs/configuration.md and an entry in
 * .env.example (docs/configuration.md says what each one does). The names are collected from the code itself:
 * `process.env.NAME`, `env.NAME`, `env["NAME"]`, the flags the API's config reads by name, and the keys of the
 * dashboard's zod schema (lib/server/env.ts).
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "..");

/** Variables of the platform or of Node itself: not ours to document. */
const NOT_OURS = new Set(["PATH", "NODE_OPTIONS", "NEXT_RUNTIME", "HOME", "TZ"]);

function codeFiles(): string[] {
  return execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z"], {
    cwd: ROOT,
    encoding: "utf8",
  })
    .split("\0")
    .filter((f) => /\.(ts|tsx|mjs)$/.test(f) && !f.includes("node_modules/") && !f.endsWith("env-docs.test.ts"));
}

/** Every variable name the code reads. */
function variablesRead(): Set<string> {
  const names = new Set<string>();
  for (const file of codeFiles()) {
    let text: string;
    try {
      text = readFileSync(path.join(ROOT, file), "utf8");
    } catch {
      continue;
    }
    for (const m of text.matchAll(/\b(?:process\.env|env)\.([A-Z][A-Z0-9_]+)\b/g)) if (m[1]) names.add(m[1]);
    for (const m of text.matchAll(/\benv\[\s*["']([A-Z][A-Z0-9_]+)["']\s*\]/g)) if (m[1]) names.add(m[1]);
    for (const m of text.matchAll(/\bflag\(\s*"([A-Z][A-Z0-9_]+)"\s*\)/g)) if (m[1]) names.add(m[1]);
  }
  const schema = readFileSync(path.join(ROOT, "lib/server/env.ts"), "utf8");
  for (const m of schema.matchAll(/^ {4}([A-Z][A-Z0-9_]+):/gm)) if (m[1]) names.add(m[1]);
  for (const n of NOT_OURS) names.delete(n);
  return names;
}

describe("environment variables are documented", () => {
  const names = [...variablesRead()].sort();
  const configuration = readFileSync(path.join(ROOT, "docs/configuration.md"), "utf8");
  const example = readFileSync(path.join(ROOT, ".env.example"), "utf8");

  it("finds the variables the code reads", () => {
    expect(names).toEqual(expect.arrayContaining(["TREASURY_API_BASE_URL", "REDIS_URL", "TRUST_PROXY", "PORT"]));
  });

  it("documents each one in docs/configuration.md", () => {
    expect(names.filter((n) => !configuration.includes(`\`${n}\``))).toEqual([]);
  });

  it("lists each one in .env.example", () => {
    expect(names.filter((n) => !new RegExp(`^# ${n}=`, "m").test(example))).toEqual([]);
  });
});
