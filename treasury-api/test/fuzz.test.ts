/**
 * Property-based fuzzing of every operation of the API (fast-check), through
 * the real app on PGlite. The operations, their parameters and their body
 * schemas are read from GET /public/openapi.json, which is generated from the
 * contract's zod schemas, so a new route is fuzzed without touching this file
 * (and a route missing from the description fails the first test).
 *
 * Each request is valid or mutated — wrong types, huge / empty strings, NUL
 * and other control characters, extreme dates and numbers, extra and missing
 * fields, malformed JSON, unknown or repeated query parameters, bad ids — and
 * is sent with a valid token of either form (Form B, Form A with X-Tenant-ID)
 * and varying company headers. Properties:
 * - no 5xx;
 * - no stack trace or internal path in any body;
 * - a 4xx changes no business data (`stateChecksum` before and after).
 *
 * Seeded and bounded: FUZZ_SEED and FUZZ_RUNS (samples per operation) may be
 * set to explore further; the test prints the seed and the number of requests.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLIENTS, IDS, createHarness, daysAgo, type ClientKey, type Harness, TEST_IBANS } from "./harness";
import { stateChecksum } from "./state";
import type { JsonSchema } from "@treasury/test-support/json-schema";

const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const RUNS_PER_OPERATION = Number(process.env.FUZZ_RUNS ?? 14);

/** The subset of JSON Schema / OpenAPI the generated description uses. */
type Schema = JsonSchema;

interface Parameter {
  name: string;
  in: "path" | "query" | "header";
  required?: boolean;
  schema?: Schema;
}

interface Operation {
  method: string;
  path: string;
  parameters: Parameter[];
  body?: { mediaType: string; required: boolean; schema: Schema };
  secured: boolean;
}

interface OpenApiDoc {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: Parameter[];
        security?: unknown[];
        requestBody?: { required?: boolean; content: Record<string, { schema: Schema }> };
      }
    >
  >;
  components?: { schemas?: Record<string, Schema> };
}

interface FuzzRequest {
  client: ClientKey;
  path: string;
  query: string;
  headers: Record<string, string>;
  body?: string;
}

let h: Harness;
let doc: OpenApiDoc;

beforeAll(async () => {
  // A closed local port and a short timeout: POST /webhooks/{id}/test delivers for real.
  h = await createHarness({ webhookTimeoutMs: 300 });
  doc = (await (await h.call("GET", "/openapi.json")).json()) as OpenApiDoc;
});
afterAll(async () => {
  await h.close();
});

function operationsOf(d: OpenApiDoc): Operation[] {
  return Object.entries(d.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => {
      const [mediaType, content] = Object.entries(op.requestBody?.content ?? {})[0] ?? [];
      return {
        method: method.toUpperCase(),
        path,
        parameters: op.parameters ?? [],
        body:
          mediaType && content
            ? { mediaType, required: Boolean(op.requestBody?.required), schema: content.schema }
            : undefined,
        secured: Boolean(op.security),
      };
    }),
  );
}

function resolve(schema: Schema): Schema {
  if (!schema.$ref) return schema;
  const name = schema.$ref.replace("#/components/schemas/", "");
  const target = doc.components?.schemas?.[name];
  if (!target) throw new Error(`unresolved ${schema.$ref}`);
  return resolve(target);
}

// ---------------------------------------------------------------- values

const IBANS = TEST_IBANS;
const CURRENCIES = ["NOK", "EUR", "SEK", "DKK", "USD", "JPY", "KWD"];
const COMPANIES = [IDS.companyA, IDS.companyB, IDS.companyC, IDS.companyD];

/** Ids of real objects (fixture and created while fuzzing), so that id routes reach their handlers. */
const knownIds = new Set<string>(Object.values(IDS));

const isoDate = (d: Date) => d.toISOString().slice(0, 10);
const dateArb = fc.oneof(
  fc.integer({ min: -40, max: 400 }).map((n) => daysAgo(-n)),
  fc
    .date({ min: new Date("0001-01-01T00:00:00Z"), max: new Date("9999-12-31T00:00:00Z"), noInvalidDate: true })
    .map(isoDate),
  fc.constantFrom("0001-01-01", "9999-12-31", "9999-12-20"),
);

/** Values for fields whose random strings would never pass (IBANs, ISO codes): mostly plausible, sometimes random. */
function hint(name: string | undefined): fc.Arbitrary<unknown> | null {
  switch (name) {
    case "creditor_iban":
    case "external_ref":
      return fc.constantFrom(...IBANS);
    case "currency":
      // Mostly the currency of the fixture's company A account, so that batches agree with their instructions.
      return fc.oneof(
        { weight: 4, arbitrary: fc.constant("NOK") },
        { weight: 1, arbitrary: fc.constantFrom(...CURRENCIES) },
      );
    case "company_id":
      return fc.oneof(
        { weight: 4, arbitrary: fc.constant(IDS.companyA) },
        { weight: 1, arbitrary: fc.constantFrom(...COMPANIES) },
      );
    case "country":
      return fc.constantFrom("NO", "SE", "DK", "FI");
    case "bank_id":
      return fc.constantFrom("DNBANOKK", "NDEANOKK", "ESSESESS");
    case "url":
      return fc.constantFrom("http://127.0.0.1:9/hook", "https://127.0.0.1:9/hook");
    case "tenant_id":
      return fc.constantFrom(IDS.tenant, IDS.tenant2);
    case "grant_type":
      return fc.constant("client_credentials");
    case "requested_execution_date":
      return dateArb;
    case "amount":
      return fc.oneof(fc.stringMatching(/^\d{1,6}\.\d{2}$/), fc.constantFrom("999999999999999999.99", "0.01", "1"));
    default:
      return null;
  }
}

/** A value that satisfies `schema` as far as the description tells (refinements may still refuse it). */
function valid(schema: Schema, name?: string, depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(schema);
  const hinted = hint(name);
  if (hinted) return hinted;
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((a) => valid(a, name, depth)));
  if (s.allOf?.[0]) return valid(s.allOf[0], name, depth);
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== "null") : s.type;
  switch (type) {
    case "string":
      if (s.format === "uuid") return fc.oneof(fc.constantFrom(...knownIds), fc.uuid());
      if (s.format === "date") return dateArb;
      if (s.format === "date-time") return fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
      if (s.pattern && !s.pattern.includes("\\u0000")) return fc.stringMatching(new RegExp(s.pattern));
      return fc.string({ minLength: Math.max(s.minLength ?? 1, 1), maxLength: Math.min(s.maxLength ?? 40, 40) });
    case "integer":
      return fc.integer({ min: s.minimum ?? -10, max: Math.min(s.maximum ?? 1000, 100_000) });
    case "number":
      return fc.double({ noNaN: true, noDefaultInfinity: true });
    case "boolean":
      return fc.boolean();
    case "array":
      return fc.array(s.items && depth < 4 ? valid(s.items, undefined, depth + 1) : fc.string(), {
        minLength: s.minItems ?? 0,
        maxLength: Math.min(s.maxItems ?? 4, 4),
      });
    case "object": {
      const props = s.properties ?? {};
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, prop] of Object.entries(props)) model[key] = valid(prop, key, depth + 1);
      return fc.record(model, { requiredKeys: (s.required ?? []).filter((k) => k in props) });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** Values that break a field: wrong types, edge strings, control characters, extreme dates and numbers. */
const nasty: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    null,
    true,
    0,
    -1,
    1.5,
    1e308,
    -1e308,
    2 ** 53 + 1,
    [],
    {},
    [null],
    { a: { b: [] } },
    "",
    " ",
    "x".repeat(10_000),
    "\u0000",
    "a\u0000b",
    "\u001b[31mred",
    "line\r\nbreak",
    "\ud800",
    "💥",
    "0000-01-01",
    "9999-12-31",
    "10000-01-01",
    "0001-01-01",
    "2026-02-30",
    "-0001-01-01",
    "999999999999999999.999999",
    "9999999999999999999",
    "-999999999999999999.99",
    "1e3",
    "NaN",
    "Infinity",
    "-0",
    "00000000-0000-0000-0000-000000000000",
    "'; drop table payment_batches; --",
    "%00",
    "../../etc/passwd",
    "http://169.254.169.254/latest",
  ),
  fc.string({ unit: "binary", maxLength: 30 }),
  fc.integer(),
);

type Json = unknown;

/** Every path into a JSON value (objects and arrays), the root included. */
function pathsOf(
  value: Json,
  prefix: (string | number)[] = [],
  out: (string | number)[][] = [],
): (string | number)[][] {
  out.push(prefix);
  if (Array.isArray(value)) value.slice(0, 5).forEach((v, i) => pathsOf(v, [...prefix, i], out));
  else if (value !== null && typeof value === "object")
    for (const [k, v] of Object.entries(value)) pathsOf(v, [...prefix, k], out);
  return out;
}

function setAt(
  value: Json,
  path: (string | number)[],
  replace: (old: Json, parent: Json, key: string | number) => Json | typeof DELETE,
): Json {
  if (path.length === 0) {
    const next = replace(value, undefined, "");
    return next === DELETE ? undefined : next;
  }
  const copy: Json = structuredClone(value);
  let parent = copy as Record<string | number, Json>;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, Json>;
  const key = path[path.length - 1] as string | number;
  const next = replace(parent[key], parent, key);
  if (next === DELETE) {
    if (Array.isArray(parent)) parent.splice(Number(key), 1);
    else delete parent[key];
  } else parent[key] = next;
  return copy;
}

const DELETE = Symbol("delete");

/** A valid value with one mutation at a random place: replaced, removed, or given an extra field. */
function mutated(base: fc.Arbitrary<Json>): fc.Arbitrary<Json> {
  return base.chain((value) => {
    const paths = pathsOf(value);
    return fc.tuple(fc.nat({ max: paths.length - 1 }), fc.nat({ max: 9 }), nasty).map(([i, kind, bad]) => {
      const path = paths[i] ?? [];
      if (kind < 6) return setAt(value, path, () => bad);
      if (kind < 8) return setAt(value, path, () => DELETE);
      return setAt(value, path, (old) =>
        old !== null && typeof old === "object" && !Array.isArray(old) ? { ...old, extra_field: bad } : old,
      );
    });
  });
}

// ---------------------------------------------------------------- requests

const RAW_BODIES = [
  "",
  "   ",
  "null",
  "[]",
  "{",
  "not json",
  '{"a":',
  "[1,2,3]",
  '"string"',
  "1e999",
  "{}".repeat(5),
  `{"x":"${"\\u0000"}"}`,
];

function bodyArb(op: Operation): fc.Arbitrary<{ text?: string; type?: string }> {
  if (!op.body)
    return fc.oneof(
      { weight: 6, arbitrary: fc.constant({}) },
      {
        weight: 1,
        arbitrary: fc.constantFrom(...RAW_BODIES, "{}").map((text) => ({ text, type: "application/json" })),
      },
    );
  const base = valid(op.body.schema);
  const form = op.body.mediaType.includes("x-www-form-urlencoded");
  const encode = (v: Json) => {
    if (!form) return JSON.stringify(v) ?? "null";
    const params = new URLSearchParams();
    if (v !== null && typeof v === "object")
      for (const [k, x] of Object.entries(v)) params.append(k, typeof x === "string" ? x : (JSON.stringify(x) ?? ""));
    return params.toString();
  };
  return fc.oneof(
    { weight: 5, arbitrary: base.map((v) => ({ text: encode(v), type: op.body?.mediaType })) },
    { weight: 4, arbitrary: mutated(base).map((v) => ({ text: encode(v), type: op.body?.mediaType })) },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_BODIES).map((text) => ({ text, type: op.body?.mediaType })) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(base, fc.constantFrom("text/plain", "application/xml", ""))
        .map(([v, type]) => ({ text: JSON.stringify(v), type })),
    },
  );
}

const nastyString = nasty.map((v) => (typeof v === "string" ? v : (JSON.stringify(v) ?? "")));

/** `arb` with probability `p` (0–1), else null. */
function sometimes<T>(arb: fc.Arbitrary<T>, p: number): fc.Arbitrary<T | null> {
  const weight = Math.round(p * 1000);
  return fc.oneof({ weight, arbitrary: arb }, { weight: 1000 - weight, arbitrary: fc.constant(null) });
}

function queryArb(op: Operation): fc.Arbitrary<string> {
  const params = op.parameters.filter((p) => p.in === "query");
  const one = (p: Parameter) =>
    sometimes(
      fc
        .oneof(
          { weight: 5, arbitrary: valid(p.schema ?? {}, p.name).map(String) },
          { weight: 1, arbitrary: nastyString },
        )
        .map((v) => [p.name, v] as [string, string]),
      0.4,
    );
  return fc
    .tuple(
      fc.tuple(...params.map(one)),
      sometimes(fc.tuple(fc.constantFrom("unknown", "page", "from_date", "a[b]", ""), nastyString), 0.1),
      sometimes(
        fc.constantFrom("page=%", "to_date=9999-12-31&to_date=0001-01-01", "limit=1&limit=1000", "%00=1", "page=1e3"),
        0.08,
      ),
    )
    .map(([pairs, extra, raw]) => {
      const search = new URLSearchParams();
      for (const pair of pairs) if (pair) search.append(pair[0], pair[1]);
      if (extra) search.append(extra[0], extra[1]);
      const text = search.toString();
      return [text, raw].filter(Boolean).join("&");
    });
}

function pathArb(op: Operation): fc.Arbitrary<string> {
  if (!op.path.includes("{")) return fc.constant(op.path);
  const id = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...knownIds) },
    { weight: 2, arbitrary: fc.uuid() },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        "abc",
        "%00",
        "00000000-0000-0000-0000-000000000000",
        "1",
        "%E0%A4%A",
        "..",
        "x".repeat(300),
      ),
    },
  );
  return id.map((v) => op.path.replace(/\{[^}]+\}/g, v.includes("%") ? v : encodeURIComponent(v)));
}

function headersArb(op: Operation): fc.Arbitrary<{ client: ClientKey; headers: Record<string, string> }> {
  const company = fc.oneof(
    { weight: 6, arbitrary: fc.constant(IDS.companyA) },
    { weight: 2, arbitrary: fc.constant(null) },
    { weight: 2, arbitrary: fc.constantFrom(IDS.companyB, IDS.companyC, IDS.companyD, "not-a-uuid") },
  );
  return fc
    .tuple(
      fc.constantFrom<ClientKey>("fullB", "fullB", "fullB", "partnerA", "partnerA", "partnerA", "readB"),
      company,
      fc.constantFrom<string | null>(
        IDS.tenant,
        IDS.tenant,
        IDS.tenant,
        IDS.tenant,
        IDS.tenant,
        IDS.tenant2,
        "not-a-uuid",
        null,
      ),
      fc.oneof(
        { weight: 8, arbitrary: fc.uuid() },
        { weight: 1, arbitrary: fc.constantFrom("", " ", "clé", "x".repeat(300)) },
        { weight: 1, arbitrary: fc.constant(null) },
      ),
    )
    .map(([client, companyId, tenant, key]) => {
      const headers: Record<string, string> = {};
      const formA = CLIENTS[client].form === "A";
      // Form B sends X-Company-ID on company-scoped calls far more often than not.
      const scoped = op.parameters.some((p) => p.name === "X-Company-ID");
      const cid = companyId ?? (scoped && !formA ? IDS.companyA : null);
      if (cid) headers["x-company-id"] = cid;
      if (formA && tenant) headers["x-tenant-id"] = tenant;
      if (op.method !== "GET" && key !== null) headers["idempotency-key"] = key;
      return { client, headers };
    });
}

function requestArb(op: Operation): fc.Arbitrary<FuzzRequest> {
  return fc
    .record({ who: headersArb(op), path: pathArb(op), query: queryArb(op), body: bodyArb(op) })
    .map(({ who, path, query, body }) => {
      const headers = { ...who.headers };
      if (body.type) headers["content-type"] = body.type;
      return { client: who.client, path, query, headers, body: body.text };
    });
}

// ---------------------------------------------------------------- properties

/** Adds every `id`-like field of a response (objects and lists) to the pool of known ids. */
function collectIds(value: Json, depth = 0): void {
  if (depth > 3 || value === null || typeof value !== "object") return;
  if (Array.isArray(value)) {
    for (const v of value.slice(0, 20)) collectIds(v, depth + 1);
    return;
  }
  for (const [k, v] of Object.entries(value)) {
    if (typeof v === "string" && (k === "id" || k.endsWith("_id")) && /^[0-9a-f-]{36}$/.test(v)) knownIds.add(v);
    else collectIds(v, depth + 1);
  }
}

const STACK_TRACE =
  /\n\s+at\s|\bat\s+\S+\s+\(.*:\d+:\d+\)|node_modules|\.tsx?:\d+|\bTypeError\b|\bReferenceError\b|\bSyntaxError\b/;

interface Violation {
  operation: string;
  request: string;
  status: number;
  problem: string;
  body: string;
}

describe("fuzzing every operation of the OpenAPI description", () => {
  it("describes every route the app serves", () => {
    const described = new Set(
      operationsOf(doc).map((o) => `${o.method} ${o.path.replace(/\/+$/, "").replace(/\{[^}]+\}/g, ":p")}`),
    );
    const served = h.app.routes
      .filter((r) => r.path.startsWith("/public/") && r.method !== "ALL" && !r.path.endsWith("*"))
      .map(
        (r) =>
          `${r.method} ${r.path
            .slice("/public".length)
            .replace(/\/+$/, "")
            .replace(/:[^/]+/g, ":p")}`,
      )
      .filter((r) => !/^GET \/(openapi\.json|ping)$/.test(r));
    expect(served.length).toBeGreaterThan(30);
    expect(served.filter((r) => !described.has(r))).toEqual([]);
  });

  it("no 5xx, no stack trace, no state change on a 4xx", async () => {
    const operations = operationsOf(doc);
    const tokens = {
      fullB: await h.token("fullB"),
      partnerA: await h.token("partnerA"),
      readB: await h.token("readB"),
    } as Record<ClientKey, string>;
    const violations: Violation[] = [];
    const statuses = new Map<number, number>();
    let requests = 0;
    let state = await stateChecksum(h.database);
    const started = performance.now();

    for (const [index, op] of operations.entries()) {
      const name = `${op.method} ${op.path}`;
      await fc.assert(
        fc.asyncProperty(requestArb(op), async (req) => {
          const headers: Record<string, string> = { ...req.headers };
          if (op.secured) headers.authorization = `Bearer ${tokens[req.client]}`;
          const url = `/public${req.path}${req.query ? `?${req.query}` : ""}`;
          const res = await h.app.request(url, {
            method: op.method,
            headers,
            body: op.method === "GET" ? undefined : req.body,
          });
          const text = await res.text();
          requests++;
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          const record = (problem: string) =>
            violations.push({
              operation: name,
              request: `${op.method} ${url} ${JSON.stringify(headers)} ${(req.body ?? "").slice(0, 300)}`,
              status: res.status,
              problem,
              body: text.slice(0, 300),
            });
          if (res.status >= 500) record("5xx");
          if (STACK_TRACE.test(text)) record("stack trace or internal path in the body");
          const after = await stateChecksum(h.database);
          if (res.status >= 400 && res.status < 500) {
            const changed = Object.keys(after).filter((t) => after[t] !== state[t]);
            if (changed.length > 0) record(`state changed on ${res.status}: ${changed.join(", ")}`);
          }
          state = after;
          if (res.status < 300 && /^[[{]/.test(text)) collectIds(JSON.parse(text) as Json);
        }),
        { seed: SEED + index, numRuns: RUNS_PER_OPERATION, endOnFailure: true },
      );
    }

    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const summary = [...statuses.entries()]
      .sort(([a], [b]) => a - b)
      .map(([s, n]) => `${s}×${n}`)
      .join(" ");
    console.log(
      `fuzz: seed ${SEED}, ${operations.length} operations × ${RUNS_PER_OPERATION} runs = ${requests} requests in ` +
        `${seconds} s; statuses ${summary}; violations ${violations.length}`,
    );
    const byKind = new Map<string, number>();
    for (const v of violations)
      byKind.set(
        `${v.operation}: ${v.problem.replace(/ on \d+:.*/, "")}`,
        (byKind.get(`${v.operation}: ${v.problem.replace(/ on \d+:.*/, "")}`) ?? 0) + 1,
      );
    for (const [kind, n] of byKind) console.log(`  ${n} × ${kind}`);
    expect(violations.slice(0, 10)).toEqual([]);
  }, 120_000);
});
