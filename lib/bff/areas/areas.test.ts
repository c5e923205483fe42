/**
 * The BFF declared per area (docs/architecture.md#the-bff-declared-per-area): every route file under app/api is one
 * line per method, exporting its area's declaration, and that declaration's endpoint has the file's path and the
 * exported method; every declared endpoint is served by exactly one route file. Read from the files and the
 * isomorphic endpoint modules, so nothing server-side is started.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Endpoint } from "../endpoint";

const ROOT = path.resolve(__dirname, "../../..");
const APP_API = path.join(ROOT, "app/api");
const AREAS = __dirname;

/** Route files that are not the BFF's: NextAuth's own handler and the 404 for unknown /api paths. */
const NOT_DECLARED = new Set(["auth/[...nextauth]", "[...missing]"]);

/** Every route file below app/api, as its path relative to app/api (`admin/users/[id]`). */
function routeFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(path.join(dir, e.name));
      else if (e.name === "route.ts") out.push(path.relative(APP_API, dir).split(path.sep).join("/"));
    }
  };
  walk(APP_API);
  return out.sort();
}

/** Every area's endpoints, by area folder name. */
async function areaEndpoints(): Promise<Map<string, Record<string, Endpoint>>> {
  const areas = new Map<string, Record<string, Endpoint>>();
  for (const e of readdirSync(AREAS, { withFileTypes: true })) {
    if (!e.isDirectory()) continue;
    const mod = (await import(path.join(AREAS, e.name, "endpoints.ts"))) as Record<string, unknown>;
    const name = `${e.name.replace(/-(\w)/g, (_, c: string) => c.toUpperCase())}Endpoints`;
    expect(mod[name], `lib/bff/areas/${e.name}/endpoints.ts exports ${name}`).toBeTypeOf("object");
    areas.set(e.name, mod[name] as Record<string, Endpoint>);
  }
  return areas;
}

const EXPORT = /^export const (GET|POST|PUT|PATCH|DELETE) = (\w+)Routes\.(\w+);$/;
const IMPORT = /^import \{ (\w+)Routes \} from "@\/lib\/bff\/areas\/([\w-]+)\/routes";$/;
const SEGMENT_CONFIG = /^export const (dynamic|runtime|maxDuration) = .+;$/;

describe("the BFF declared per area", () => {
  it("each route file only exports its area's declarations, at their own path and method", async () => {
    const areas = await areaEndpoints();
    const served = new Set<Endpoint>();
    const problems: string[] = [];
    for (const rel of routeFiles()) {
      if (NOT_DECLARED.has(rel)) continue;
      const lines = readFileSync(path.join(APP_API, rel, "route.ts"), "utf8")
        .split("\n")
        .map((l) => l.trim())
        .filter((l) => l !== "" && !l.startsWith("//"));
      const imports = new Map<string, string>();
      for (const line of lines) {
        const im = IMPORT.exec(line);
        if (im) {
          imports.set(im[1] ?? "", im[2] ?? "");
          continue;
        }
        const ex = EXPORT.exec(line);
        if (!ex) {
          if (!SEGMENT_CONFIG.test(line)) problems.push(`app/api/${rel}/route.ts: "${line}" is not a declaration`);
          continue;
        }
        const [, method, variable = "", key = ""] = ex;
        const area = imports.get(variable);
        const e = area === undefined ? undefined : areas.get(area)?.[key];
        if (!e) {
          problems.push(`app/api/${rel}/route.ts: ${variable}Routes.${key} is not a declared endpoint`);
          continue;
        }
        if (e.method !== method || e.path !== `/api/${rel}`)
          problems.push(`app/api/${rel}/route.ts: ${method} serves ${e.method} ${e.path}`);
        if (served.has(e)) problems.push(`${e.method} ${e.path} is served twice`);
        served.add(e);
      }
    }
    for (const [area, endpoints] of areas)
      for (const [key, e] of Object.entries(endpoints))
        if (!served.has(e)) problems.push(`${area}.${key} (${e.method} ${e.path}) has no route file`);
    expect(problems).toEqual([]);
  });
});
