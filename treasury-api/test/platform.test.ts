/**
 * Cross-cutting behaviour (docs/treasury-api.md#idempotency, §7 errors, §8 limits,
 * §9 versioning; docs/architecture.md#idempotency, "Rate limits", "Errors"):
 * idempotency including a concurrent burst, rate-limit headers and 429, bad
 * input of every kind (never a 500), trailing slashes, 405, the OpenAPI document.
 */
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { companies } from "../db/schema";
import { IDS, createHarness, type ClientKey } from "./harness";
import { harnessForFile } from "./file-harness";

const h = harnessForFile();

type Json = Record<string, unknown>;
const body = async (res: Response) => (await res.json()) as Json;
const countOrgnr = async (orgnr: string) =>
  (await h.database.db.select().from(companies).where(eq(companies.orgnr, orgnr))).length;
/** POST /companies as `client` with a Norwegian company `orgnr` named `name`, under the Idempotency-Key `idem`. */
const postCompany = (client: ClientKey, orgnr: string, name: string, idem: string) =>
  h.call("POST", "/companies", { client, json: { orgnr, name, country: "NO" }, idem });

describe("idempotency", () => {
  it("rule 1: the same key and payload replays the original response", async () => {
    const json = { orgnr: "911111111", name: "Replay AS", country: "NO" };
    const first = await h.call("POST", "/companies", { client: "fullB", json, idem: "replay-1" });
    expect(first.status).toBe(201);
    const again = await h.call("POST", "/companies/", {
      client: "fullB",
      json: { country: "NO", name: "Replay AS", orgnr: "911111111" },
      idem: "replay-1",
    });
    expect(again.status).toBe(201); // the stored status, not 200 of a second upsert
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await body(again)).toEqual(await body(first));
    expect(await countOrgnr("911111111")).toBe(1);
  });

  it("rule 2: the same key with another payload is 409 and changes nothing", async () => {
    await postCompany("fullB", "922222222", "First", "mismatch-1");
    const res = await postCompany("fullB", "922222223", "Second", "mismatch-1");
    expect(res.status).toBe(409);
    expect(await body(res)).toMatchObject({ error: "conflict", details: { reason: "payload_mismatch" } });
    expect(await countOrgnr("922222223")).toBe(0);
  });

  it("the fingerprint includes the path and the company header", async () => {
    const json = {
      company_id: IDS.companyA,
      bank_id: "DNBANOKK",
      external_ref: "NO8330001234567",
      external_ref_type: "IBAN",
      currency: "NOK",
      status: "active",
    };
    const first = await h.write("POST", "/accounts", { json, idem: "fp-1" });
    expect(first.status).toBe(201);
    const otherCompany = await h.write("POST", "/accounts", { company: IDS.companyB, json, idem: "fp-1" });
    expect(otherCompany.status).toBe(409);
  });

  it("keys are per client: another client may use the same key", async () => {
    await postCompany("fullB", "933333333", "Mine", "shared-key");
    const other = await postCompany("otherB", "933333333", "Theirs", "shared-key");
    expect(other.status).toBe(201);
    expect(other.headers.get("idempotent-replayed")).toBeNull();
  });

  it("a missing or malformed key on a write is 400", async () => {
    const json = { orgnr: "944444444", name: "NoKey", country: "NO" };
    const missing = await h.call("POST", "/companies", { client: "fullB", json });
    expect(missing.status).toBe(400);
    expect(await body(missing)).toMatchObject({ details: { errors: { "Idempotency-Key": ["is required"] } } });
    const tooLong = await h.call("POST", "/companies", { client: "fullB", json, idem: "k".repeat(256) });
    expect(tooLong.status).toBe(400);
    expect(await countOrgnr("944444444")).toBe(0);
  });

  it(
    "a burst of parallel requests with one key creates exactly one object; the others replay or get 409 " +
      "in_progress",
    async () => {
      const json = { orgnr: "955555555", name: "Burst AS", country: "NO" };
      const results = await Promise.all(
        Array.from({ length: 25 }, () => h.call("POST", "/companies", { client: "fullB", json, idem: "burst-1" })),
      );
      const statuses = results.map((r) => r.status);
      expect(statuses.filter((s) => s === 201).length).toBeGreaterThanOrEqual(1);
      expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
      for (const r of results.filter((x) => x.status === 409))
        expect(await body(r)).toMatchObject({ details: { reason: "in_progress" } });
      const replays = results.filter((r) => r.headers.get("idempotent-replayed") === "true").length;
      expect(replays).toBe(statuses.filter((s) => s === 201).length - 1);
      expect(await countOrgnr("955555555")).toBe(1);
    },
  );

  it("an expired key may be used again (retention)", async () => {
    const json = { orgnr: "966666666", name: "Expiring", country: "NO" };
    expect((await h.call("POST", "/companies", { client: "fullB", json, idem: "expire-1" })).status).toBe(201);
    await h.database.exec(
      "update idempotency_keys set expires_at = now() - interval '1 second' where key = 'expire-1'",
    );
    const again = await h.call("POST", "/companies", {
      client: "fullB",
      json: { ...json, name: "Expiring 2" },
      idem: "expire-1",
    });
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBeNull();
  });
});

describe("bad input never changes anything and is never a 500", () => {
  const write = (init: { headers?: Record<string, string>; body?: string }) =>
    h.token("fullB").then((t) =>
      h.app.request("/public/companies", {
        method: "POST",
        headers: { authorization: `Bearer ${t}`, "idempotency-key": crypto.randomUUID(), ...init.headers },
        body: init.body,
      }),
    );

  it.each([
    [
      "malformed JSON",
      { headers: { "content-type": "application/json" }, body: '{"orgnr": "977777777",' },
      400,
      "validation_error",
    ],
    ["a JSON array", { headers: { "content-type": "application/json" }, body: "[]" }, 400, "validation_error"],
    [
      "wrong content type",
      { headers: { "content-type": "text/plain" }, body: '{"orgnr":"977777777","name":"X","country":"NO"}' },
      415,
      "unsupported_media_type",
    ],
    [
      "form-encoded body",
      { headers: { "content-type": "application/x-www-form-urlencoded" }, body: "orgnr=977777777" },
      415,
      "unsupported_media_type",
    ],
    ["no body", { headers: { "content-type": "application/json" } }, 400, "validation_error"],
    [
      "a body over 1 MiB",
      {
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ orgnr: "977777777", name: "x".repeat(1_100_000), country: "NO" }),
      },
      413,
      "payload_too_large",
    ],
    [
      "an extra-long field",
      {
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ orgnr: "977777777", name: "x".repeat(5000), country: "NO" }),
      },
      400,
      "validation_error",
    ],
  ])("%s → %i %s", async (_n, init, status, code) => {
    const res = await write(init);
    expect(res.status).toBe(status);
    const b = await body(res);
    expect(b.error).toBe(code);
    expect(typeof b.message).toBe("string");
    expect(JSON.stringify(b)).not.toMatch(/at .+\.ts:\d+/); // no stack trace
    expect(await countOrgnr("977777777")).toBe(0);
  });

  it("a wrong method is 405 with Allow, an unknown path 404", async () => {
    const del = await h.call("DELETE", "/accounts", { client: "fullB", company: IDS.companyA });
    expect(del.status).toBe(405);
    expect(del.headers.get("allow")).toContain("GET");
    const put = await h.call("PUT", `/accounts/${IDS.accountA1}/`, { client: "fullB", company: IDS.companyA });
    expect(put.status).toBe(405);
    const unknown = await h.call("GET", "/nothing-here", { client: "fullB" });
    expect(unknown.status).toBe(404);
    expect((await body(unknown)).error).toBe("not_found");
  });

  it("every response carries X-Request-ID; a caller's id is echoed", async () => {
    const res = await h.call("GET", "/companies", { client: "fullB", headers: { "x-request-id": "trace-abc-123" } });
    expect(res.headers.get("x-request-id")).toBe("trace-abc-123");
    const generated = await h.call("GET", "/companies", {
      client: "fullB",
      headers: { "x-request-id": "bad id with spaces" },
    });
    expect(generated.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe("rate limits", () => {
  it("headers on every response, 429 throttled with Retry-After past the limit, per client", async () => {
    const limited = await createHarness({ rateLimit: { limit: 5, windowSeconds: 60 } });
    try {
      const token = await limited.token("fullB"); // the token request counts against the client it authenticated as
      const statuses: number[] = [];
      let last: Response | undefined;
      for (let i = 0; i < 7; i++) {
        last = await limited.call("GET", "/companies", { token });
        statuses.push(last.status);
        expect(last.headers.get("x-ratelimit-limit")).toBe("5");
        expect(Number(last.headers.get("x-ratelimit-reset"))).toBeGreaterThan(Date.now() / 1000);
      }
      expect(statuses).toEqual([200, 200, 200, 200, 429, 429, 429]);
      expect(last?.headers.get("x-ratelimit-remaining")).toBe("0");
      expect(Number(last?.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(await last?.json()).toMatchObject({ error: "throttled" });
      // another client has its own window
      expect((await limited.call("GET", "/companies", { client: "otherB" })).status).toBe(200);
      // errors carry the headers too (unauthenticated: the address's window, five times the client's)
      const unauth = await limited.call("GET", "/companies", { token: "nope" });
      expect(unauth.headers.get("x-ratelimit-limit")).toBe("25");
    } finally {
      await limited.close();
    }
  });
});

describe("OpenAPI description", () => {
  it("is OpenAPI 3.1 with version 2026-01-10, every path, the decisions and extensions", async () => {
    const res = await h.app.request("/public/openapi.json");
    expect(res.status).toBe(200);
    const doc = (await res.json()) as {
      openapi: string;
      info: { version: string; description: string };
      paths: Record<string, Record<string, unknown>>;
    };
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe("2026-01-10");
    for (const p of [
      "/auth/token/",
      "/auth/tenant-token",
      "/accounts",
      "/accounts/{id}",
      "/accounts/{id}/transactions",
      "/accounts/{id}/balances",
      "/accounts/{id}/coverage",
      "/accounts/{id}/intraday",
      "/transactions",
      "/transactions/{id}",
      "/companies",
      "/companies/{id}",
      "/koncerner",
      "/koncerner/{id}",
      "/koncerner/{id}/breakdown",
    ]) {
      expect(Object.keys(doc.paths), p).toContain(p);
    }
    expect(doc.info.description).toContain("Idempotent-Replayed");
    expect(doc.info.description).toContain("Extensions");
    expect(JSON.stringify(doc.paths["/accounts"])).toContain("409");
  });

  it("health and readiness live outside /public", async () => {
    expect((await h.app.request("/healthz")).status).toBe(200);
    const ready = await h.app.request("/readyz");
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: "ready" });
  });
});
