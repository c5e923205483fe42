/**
 * The OpenAPI document as integrators' tools read it (issue 28), against the real local API (in-memory PGlite, small
 * demo seed) started here:
 *
 * - metadata: every operation has a unique camelCase operationId and declared tags; Form B's OAuth 2.0
 *   client-credentials scheme has token URL `/auth/token/` and describes every scope; Form A's tenant token is
 *   declared beside it; the token endpoints declare HTTP Basic; info has license and contact;
 * - the path an integrator takes: a client generated with openapi-typescript + openapi-fetch from the served
 *   document compiles with `tsc --strict`, then runs token → companies → accounts → create a batch → submit it.
 *
 * The linters (Redocly recommended, Spectral spectral:oas) run in `npm run checks` (scripts/lint-openapi.ts).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import openapiTS, { astToString } from "openapi-typescript";
import { SCOPES } from "@treasury/contract/auth";
import { DEMO_TREASURY_B } from "../seed/demo-clients";
import type { RunningServer } from "../server";
import { startLoopbackServer } from "./loopback";

const ROOT = path.resolve(__dirname, "../..");
const DIR = path.join(ROOT, ".data", `openapi-client-${process.pid}`);

type Op = { operationId?: string; tags?: string[]; security?: Record<string, string[]>[] };
type Doc = {
  info: { license?: { name: string }; contact?: { name?: string } };
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, Op>>;
  components: { securitySchemes: Record<string, Record<string, unknown>> };
};

let api: RunningServer;
let doc: Doc;

beforeAll(async () => {
  api = await startLoopbackServer({ seed: "demo", seedScale: 0.01 });
  doc = (await (await fetch(`${api.url}/public/openapi.json`)).json()) as Doc;
  mkdirSync(DIR, { recursive: true });
});
afterAll(async () => {
  rmSync(DIR, { recursive: true, force: true });
  await api?.close();
});

const operations = () =>
  Object.entries(doc.paths).flatMap(([p, item]) =>
    Object.entries(item)
      .filter(([m]) => ["get", "post", "put", "patch", "delete"].includes(m))
      .map(([m, op]) => ({ key: `${m.toUpperCase()} ${p}`, op })),
  );

describe("the served OpenAPI document's metadata", () => {
  it("every operation: a unique camelCase operationId and declared tags", () => {
    const ops = operations();
    expect(ops.length).toBeGreaterThanOrEqual(54);
    const missing = ops.filter((o) => !/^[a-z][a-zA-Z0-9]*$/.test(o.op.operationId ?? "")).map((o) => o.key);
    expect(missing).toEqual([]);
    const ids = ops.map((o) => o.op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const declared = new Set((doc.tags ?? []).map((t) => t.name));
    for (const t of doc.tags ?? []) expect(t.description, t.name).toBeTruthy();
    const undeclared = ops.flatMap((o) =>
      (o.op.tags ?? ["(none)"]).filter((t) => !declared.has(t)).map((t) => `${o.key}: ${t}`),
    );
    expect(undeclared).toEqual([]);
    expect(ops.find((o) => o.key === "POST /payments/batches/{id}/submit")?.op.operationId).toBe("submitPaymentBatch");
  });

  it("OAuth 2.0 client credentials (Form B) with every scope described, Form A's tenant token, Basic on token endpoints", () => {
    const schemes = doc.components.securitySchemes;
    const oauth = schemes.oauth2 as {
      type: string;
      flows: { clientCredentials: { tokenUrl: string; scopes: Record<string, string> } };
    };
    expect(oauth.type).toBe("oauth2");
    expect(oauth.flows.clientCredentials.tokenUrl).toBe("/auth/token/");
    expect(Object.keys(oauth.flows.clientCredentials.scopes).sort()).toEqual([...SCOPES].sort());
    for (const d of Object.values(oauth.flows.clientCredentials.scopes)) expect(d.length).toBeGreaterThan(10);
    expect(schemes.tenantToken).toMatchObject({ type: "http", scheme: "bearer" });
    expect(schemes.clientBasic).toMatchObject({ type: "http", scheme: "basic" });
    for (const { key, op } of operations()) {
      if (key.startsWith("POST /auth/")) expect(op.security, key).toContainEqual({ clientBasic: [] });
      else {
        const oauthReq = op.security?.find((s) => "oauth2" in s);
        expect(oauthReq?.oauth2?.length, key).toBe(1);
        expect(op.security, key).toContainEqual({ tenantToken: [] });
      }
    }
    expect(doc.info.license?.name).toBeTruthy();
    expect(doc.info.contact?.name).toBeTruthy();
  });
});

const CLIENT = `
import createClient from "openapi-fetch";
import type { paths } from "./schema";

/** token → accounts → create a batch → submit it, as an integrator's generated client does. */
export async function flow(baseUrl: string, clientId: string, clientSecret: string, key: () => string) {
  const auth = createClient<paths>({ baseUrl });
  const token = await auth.POST("/auth/token/", {
    body: { grant_type: "client_credentials" },
    bodySerializer: (b) => new URLSearchParams(b as Record<string, string>).toString(),
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Authorization: \`Basic \${Buffer.from(\`\${clientId}:\${clientSecret}\`).toString("base64")}\`,
    },
  });
  if (!token.data) throw new Error(\`token: \${JSON.stringify(token.error)}\`);
  const client = createClient<paths>({ baseUrl, headers: { Authorization: \`Bearer \${token.data.access_token}\` } });
  // Form B answers pages ({ results, count, … }); the document also describes Form A's plain lists.
  const rows = <T,>(data: T[] | { results: T[] }): T[] => (Array.isArray(data) ? data : data.results);
  const companies = await client.GET("/companies", {});
  if (!companies.data) throw new Error(\`companies: \${JSON.stringify(companies.error)}\`);
  let found: { companyId: string; accountId: string; accounts: number } | null = null;
  for (const company of rows(companies.data)) {
    const accounts = await client.GET("/accounts", {
      params: { query: { status: "active", currency: "NOK" }, header: { "X-Company-ID": company.id } },
    });
    if (!accounts.data) throw new Error(\`accounts: \${JSON.stringify(accounts.error)}\`);
    const list = rows(accounts.data);
    if (list[0]) {
      found = { companyId: company.id, accountId: list[0].id, accounts: list.length };
      break;
    }
  }
  if (!found) throw new Error("no company with an active NOK account");
  const { companyId } = found;
  const created = await client.POST("/payments/batches", {
    params: { header: { "Idempotency-Key": key(), "X-Company-ID": companyId } },
    body: {
      company_id: companyId,
      currency: "NOK",
      debtor_account_id: found.accountId,
      instructions: [
        {
          amount: "125.50",
          currency: "NOK",
          creditor_name: "Generated Client AS",
          creditor_iban: "NO9386011117947",
          end_to_end_id: \`E2E-\${key().slice(0, 8)}\`,
        },
      ],
    },
  });
  if (!created.data) throw new Error(\`create: \${JSON.stringify(created.error)}\`);
  const submitted = await client.POST("/payments/batches/{id}/submit", {
    params: { path: { id: created.data.id }, header: { "Idempotency-Key": key(), "X-Company-ID": companyId } },
  });
  if (!submitted.data) throw new Error(\`submit: \${JSON.stringify(submitted.error)}\`);
  return { accounts: found.accounts, created: created.data.status, submitted: submitted.data.status, id: created.data.id };
}
`;

describe("a client generated with openapi-typescript + openapi-fetch", () => {
  it(
    "compiles with tsc --strict and runs token → accounts → create and submit a batch",
    { timeout: 240_000 },
    async () => {
      const ast = await openapiTS(doc as unknown as Parameters<typeof openapiTS>[0]);
      writeFileSync(path.join(DIR, "schema.d.ts"), astToString(ast));
      writeFileSync(path.join(DIR, "client.ts"), CLIENT);
      const tsc = spawnSync(
        path.join(ROOT, "node_modules", ".bin", "tsc"),
        [
          "--noEmit",
          "--strict",
          "--skipLibCheck",
          "--target",
          "es2022",
          "--module",
          "esnext",
          "--moduleResolution",
          "bundler",
          "--types",
          "node",
          path.join(DIR, "client.ts"),
        ],
        { cwd: ROOT, encoding: "utf8" },
      );
      expect(`${tsc.stdout}${tsc.stderr}`, "tsc output").toBe("");
      expect(tsc.status).toBe(0);
      const { flow } = (await import(path.join(DIR, "client.ts"))) as {
        flow: (
          baseUrl: string,
          id: string,
          secret: string,
          key: () => string,
        ) => Promise<{ accounts: number; created: string; submitted: string; id: string }>;
      };
      const result = await flow(`${api.url}/public`, DEMO_TREASURY_B.clientId, DEMO_TREASURY_B.clientSecret, () =>
        crypto.randomUUID(),
      );
      expect(result.accounts).toBeGreaterThan(0);
      expect(result.created).toBe("created");
      expect(result.submitted).not.toBe("created");
    },
  );
});
