/**
 * Property-based fuzzing of every write route of the dashboard (fast-check), as treasury-api/test/fuzz.test.ts does
 * for the API: the real route handlers (found by walking app/api, so a new route is fuzzed without touching this
 * file), the real local treasury-api (in-memory PGlite) and the real dashboard database (in memory).
 *
 * Bodies and query strings are generated from each route's own zod schemas (`withUser` exposes them as
 * `routeInput`, turned into JSON Schema with `z.toJSONSchema`), valid or mutated — a NUL in a string, a huge string,
 * a wrong type, an unknown key, deep nesting, malformed JSON, a missing body — and sent as each role (viewer,
 * treasurer, approver, admin, and a treasurer limited to one company), with or without a selected company.
 * Properties:
 * - no 5xx;
 * - no stack trace or source path in any answer;
 * - a 4xx writes nothing: no audit entry (refusals the audit log records on purpose, outcome `refused`, aside) and
 *   no row in any table of the dashboard database.
 *
 * Seeded and bounded: FUZZ_SEED and FUZZ_RUNS (samples per route) may be set to explore further.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.mock("server-only", () => ({}));
vi.mock("../auth/session", async () => (await import("./testing/local-api")).sessionModule);
vi.mock("next/headers", async () => (await import("./testing/local-api")).headersModule);

import { randomUUID } from "node:crypto";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { sql, type SQL } from "drizzle-orm";
import { NextRequest } from "next/server";
import { z } from "zod";
import { can, type Role } from "../auth/roles";
import { upsertUser, type DashboardUser } from "../db/users";
import { dashboardDb } from "../server/db";
import type { RouteInput } from "./route";
import { session, startLocalApi, testUser, useBffEnv, type LocalApi, type RouteHandler } from "./testing/local-api";
import type { JsonSchema } from "@treasury/test-support/json-schema";

const SEED = Number(process.env.FUZZ_SEED ?? 20261127);
const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS ?? 8);
const ORIGIN = "http://127.0.0.1:3993";
const APP_API = path.resolve(__dirname, "../../app/api");
const WRITE_METHODS = ["POST", "PUT", "PATCH", "DELETE"] as const;

interface WriteRoute {
  method: (typeof WRITE_METHODS)[number];
  /** The URL path with `[id]`-style segments. */
  template: string;
  segments: string[];
  handler: RouteHandler;
  input: RouteInput | undefined;
}

/** Every `route.ts` below app/api (NextAuth's own catch-all aside) and its write handlers. */
async function writeRoutes(): Promise<WriteRoute[]> {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(path.join(dir, e.name));
      else if (e.name === "route.ts") files.push(path.join(dir, e.name));
    }
  };
  walk(APP_API);
  const out: WriteRoute[] = [];
  for (const file of files.sort()) {
    const rel = path.relative(APP_API, path.dirname(file)).split(path.sep).join("/");
    if (rel.includes("[...")) continue;
    // Only modules with a write handler are imported (importing every route would double the start-up).
    if (!/export const (POST|PUT|PATCH|DELETE)\b/.test(readFileSync(file, "utf8"))) continue;
    const mod = (await import(file)) as Record<string, unknown>;
    for (const method of WRITE_METHODS) {
      const handler = mod[method];
      // A route without a session (declareOpenRoute) does its own checks and has its own tests.
      if (typeof handler !== "function" || (handler as { open?: boolean }).open) continue;
      const segments = [...rel.matchAll(/\[(\w+)\]/g)].map((m) => m[1] ?? "");
      out.push({
        method,
        template: `/api/${rel}`,
        segments,
        handler: handler as RouteHandler,
        input: (handler as { routeInput?: RouteInput }).routeInput,
      });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// JSON Schema (from zod) → fast-check arbitraries of valid-looking values.

type Schema = JsonSchema;

const jsonLeaf = fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean(), fc.constant(null));

function arbitraryOf(schema: Schema, defs: Record<string, Schema>, depth = 0): fc.Arbitrary<unknown> {
  if (depth > 6) return jsonLeaf;
  if (schema.$ref) {
    const target = defs[schema.$ref.replace(/^#\/\$defs\//, "")];
    return target ? arbitraryOf(target, defs, depth + 1) : jsonLeaf;
  }
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives?.length) return fc.oneof(...alternatives.map((s) => arbitraryOf(s, defs, depth + 1)));
  if (schema.allOf?.[0]) return arbitraryOf(schema.allOf[0], defs, depth + 1);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case "string":
      return stringOf(schema);
    case "integer":
    case "number": {
      const min = schema.minimum ?? schema.exclusiveMinimum ?? -1_000_000;
      const max = schema.maximum ?? schema.exclusiveMaximum ?? 1_000_000;
      return fc.integer({ min: Math.ceil(Math.max(min, -1e9)), max: Math.floor(Math.min(max, 1e9)) });
    }
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array": {
      const item = schema.items ? arbitraryOf(schema.items, defs, depth + 1) : jsonLeaf;
      const minLength = Math.min(schema.minItems ?? 0, 3);
      return fc.array(item, { minLength, maxLength: Math.max(minLength, Math.min(schema.maxItems ?? 3, 3)) });
    }
    case "object": {
      const props = schema.properties ?? {};
      const required = new Set(schema.required ?? []);
      const keys = Object.keys(props);
      if (keys.length === 0) return fc.dictionary(fc.string({ maxLength: 6 }), jsonLeaf, { maxKeys: 3 });
      return fc.record(Object.fromEntries(keys.map((k) => [k, arbitraryOf(props[k] ?? {}, defs, depth + 1)])), {
        requiredKeys: keys.filter((k) => required.has(k)),
      });
    }
    default:
      return jsonLeaf;
  }
}

function stringOf(schema: Schema): fc.Arbitrary<string> {
  switch (schema.format) {
    case "uuid":
      return fc.uuid();
    case "date":
      return fc
        .date({ min: new Date("2020-01-01"), max: new Date("2030-12-31"), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10));
    case "date-time":
      return fc
        .date({ min: new Date("2020-01-01"), max: new Date("2030-12-31"), noInvalidDate: true })
        .map((d) => d.toISOString());
    case "email":
      return fc.constantFrom("a@example.com", "treasury@demo.local");
    case "uri":
    case "url":
      return fc.constantFrom("https://hooks.example.com/x", "http://127.0.0.1:9/hook");
    case "base64":
      return fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b).toString("base64"));
  }
  if (schema.pattern) {
    try {
      return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length <= (schema.maxLength ?? 200));
    } catch {
      // A pattern fast-check cannot generate from: plain strings.
    }
  }
  return fc.string({ minLength: Math.min(schema.minLength ?? 0, 20), maxLength: Math.min(schema.maxLength ?? 40, 40) });
}

function schemaArbitrary(schema: z.ZodType | undefined): fc.Arbitrary<unknown> {
  if (!schema) return fc.constant(undefined);
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Schema;
  return arbitraryOf(json, json.$defs ?? {});
}

// ---------------------------------------------------------------------------------------------------------------
// Mutations of a generated value.

type Mutation = (v: unknown) => unknown;

/** Applies `f` to one leaf of `v` chosen by `pick` (a fraction), or to `v` itself when it has no leaves. */
function atLeaf(v: unknown, pick: number, f: (leaf: unknown) => unknown): unknown {
  const paths: (string | number)[][] = [];
  const walk = (x: unknown, p: (string | number)[]) => {
    if (Array.isArray(x)) x.forEach((c, i) => walk(c, [...p, i]));
    else if (x && typeof x === "object") for (const [k, c] of Object.entries(x)) walk(c, [...p, k]);
    else paths.push(p);
  };
  walk(v, []);
  const target = paths[Math.floor(pick * paths.length)];
  if (!target || target.length === 0) return f(v);
  const copy = structuredClone(v) as Record<string | number, unknown>;
  let at = copy;
  for (const k of target.slice(0, -1)) at = at[k] as Record<string | number, unknown>;
  const last = target[target.length - 1] as string | number;
  at[last] = f(at[last]);
  return copy;
}

const mutation: fc.Arbitrary<{ name: string; apply: Mutation }> = fc.oneof(
  fc.constant({ name: "valid", apply: (v: unknown) => v }),
  fc.double({ min: 0, max: 0.999, noNaN: true }).map((p) => ({
    name: "nul",
    apply: (v: unknown) => atLeaf(v, p, (leaf) => `${typeof leaf === "string" ? leaf : "x"}\u0000y`),
  })),
  fc.double({ min: 0, max: 0.999, noNaN: true }).map((p) => ({
    name: "huge string",
    apply: (v: unknown) => atLeaf(v, p, () => "x".repeat(40_000)),
  })),
  fc
    .tuple(fc.double({ min: 0, max: 0.999, noNaN: true }), fc.constantFrom<unknown>(1e308, -1, true, null, [], {}, "1"))
    .map(([p, wrong]) => ({ name: "wrong type", apply: (v: unknown) => atLeaf(v, p, () => wrong) })),
  fc.constantFrom("__proto__", "constructor", "zz_unknown", "").map((key) => ({
    name: "unknown key",
    apply: (v: unknown) => (v && typeof v === "object" && !Array.isArray(v) ? { ...v, [key]: { x: 1 } } : { [key]: v }),
  })),
  fc.integer({ min: 50, max: 3000 }).map((depth) => ({
    name: "deep nesting",
    apply: (v: unknown) => {
      let out: unknown = v;
      for (let i = 0; i < depth; i++) out = i % 2 ? [out] : { a: out };
      return out;
    },
  })),
  fc.constantFrom<unknown>(null, 0, "text", [], true).map((whole) => ({ name: "wrong body", apply: () => whole })),
);

// ---------------------------------------------------------------------------------------------------------------

let local: LocalApi;
let routes: WriteRoute[] = [];
const ROLES: Role[][] = [["viewer"], ["treasurer"], ["approver"], ["admin"], ["treasurer", "approver"]];
const users: DashboardUser[] = [];

/** Row counts of every table of the dashboard database, and the audit entries other than recorded refusals. */
async function snapshot(): Promise<Record<string, number>> {
  const db = await dashboardDb();
  // PGlite and node-postgres both answer `{ rows }`.
  const queryRows = async <T>(_db: unknown, q: SQL): Promise<T[]> =>
    ((await db.execute(q)) as unknown as { rows: T[] }).rows;
  const tables = (
    await queryRows<{ table_name: string }>(
      db,
      sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
    )
  ).map((r) => r.table_name);
  const out: Record<string, number> = {};
  for (const t of tables.sort()) {
    const where = t === "audit_events" ? sql` where outcome <> 'refused'` : sql``;
    const [row] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from ${sql.identifier(t)}${where}`);
    out[t] = Number(row?.n ?? 0);
  }
  return out;
}

const STACK = /\n\s+at |node_modules|\.tsx?:\d+|\/work\/|webpack-internal/;

beforeAll(async () => {
  local = await startLocalApi();
  useBffEnv(local, ORIGIN);
  routes = await writeRoutes();
  // Stored users, as every signed-in user is: a route that writes a row keyed by the user (an e-mail opt-out) needs
  // the user's row, and an unstored test user made PUT /api/notifications/settings fail on the foreign key (500).
  const db = await dashboardDb();
  const store = (u: DashboardUser) =>
    upsertUser(db, { email: u.email, name: u.name, roles: u.roles, companyIds: u.companyIds });
  for (const roles of ROLES) users.push(await store(testUser(`fuzz-${roles.join("-")}`, roles)));
  const first = local.companies()[0];
  if (first) users.push(await store(testUser("fuzz-limited", ["treasurer"], [first.id])));
});
afterAll(async () => {
  await local?.api.close();
});

describe("fuzzing every dashboard write route", () => {
  it("finds the write routes, each declared through withUser with its schemas", () => {
    expect(routes.length).toBeGreaterThanOrEqual(40);
    const undeclared = routes.filter((r) => !r.input).map((r) => `${r.method} ${r.template}`);
    expect(undeclared).toEqual([]);
  });

  it("no 5xx, no stack trace, and nothing stored or audited on a 4xx", { timeout: 600_000 }, async () => {
    const companies = local.companies().map((c) => c.id);
    let requests = 0;
    const statuses = new Map<number, number>();
    for (const [index, route] of routes.entries()) {
      const permitted = users.flatMap((u, i) => (route.input && can(u.roles, route.input.permission) ? [i] : []));
      const request = fc.record({
        body: schemaArbitrary(route.input?.body),
        query: schemaArbitrary(route.input?.query),
        mutate: mutation,
        mutateQuery: fc.boolean(),
        malformed: fc.constantFrom(false, false, false, false, true),
        // Mostly a user whose role may call the route (so the input checks are reached), sometimes anyone.
        user: permitted.length
          ? fc.oneof(
              { weight: 3, arbitrary: fc.constantFrom(...permitted) },
              { weight: 1, arbitrary: fc.integer({ min: 0, max: users.length - 1 }) },
            )
          : fc.integer({ min: 0, max: users.length - 1 }),
        company: fc.option(fc.constantFrom(...companies), { freq: 4 }),
        id: fc.oneof(fc.uuid(), fc.constantFrom("not-a-uuid", "1", "a\u0000b", "../..", "x".repeat(300))),
      });
      await fc.assert(
        fc.asyncProperty(request, async (r) => {
          const who = users[r.user] as DashboardUser;
          session.user = who;
          session.cookie = r.company ?? undefined;
          const params = Object.fromEntries(route.segments.map((s) => [s, r.id]));
          const urlPath = route.template.replace(/\[(\w+)\]/g, (_, s: string) => encodeURIComponent(params[s] ?? ""));
          const query = r.mutateQuery ? r.mutate.apply(r.query) : r.query;
          const search = new URLSearchParams();
          if (query && typeof query === "object" && !Array.isArray(query))
            for (const [k, v] of Object.entries(query)) search.set(k, typeof v === "string" ? v : JSON.stringify(v));
          const body = r.mutate.apply(r.body);
          const text = r.malformed ? '{"unterminated": ' : body === undefined ? undefined : JSON.stringify(body);
          const req = new NextRequest(`${ORIGIN}${urlPath}${search.size ? `?${search}` : ""}`, {
            method: route.method,
            headers: {
              origin: ORIGIN,
              "idempotency-key": randomUUID(),
              ...(text !== undefined ? { "content-type": "application/json" } : {}),
            },
            body: text,
          });
          const before = await snapshot();
          const res = await route.handler(req, { params: Promise.resolve(params) });
          const answer = await res.text();
          requests++;
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          const what = `${route.method} ${urlPath} as ${who.name} (${r.mutate.name}): ${res.status} ${answer.slice(0, 300)}`;
          expect(res.status, what).toBeLessThan(500);
          expect(STACK.test(answer), what).toBe(false);
          if (res.status >= 400) expect(await snapshot(), what).toEqual(before);
        }),
        { seed: SEED + index, numRuns: RUNS_PER_ROUTE, endOnFailure: true },
      );
    }
    console.log(
      `dashboard fuzz: ${routes.length} write routes, ${requests} requests (seed ${SEED}); statuses ${JSON.stringify(
        Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])),
      )}`,
    );
    expect(requests).toBe(routes.length * RUNS_PER_ROUTE);
  });
});
