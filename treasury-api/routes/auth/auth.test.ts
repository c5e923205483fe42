/**
 * Token endpoints (docs/treasury-api.md#token; docs/architecture.md#tokens): both forms, both
 * credential styles, scope negotiation, RFC 6749 error bodies, no-store.
 */
import { describe, expect, it } from "vitest";
import { CLIENTS, IDS } from "../../test/harness";
import { harnessForFile } from "../../test/file-harness";

const h = harnessForFile();

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`;
/** The full Form B client's own credentials, as HTTP Basic. */
const FULL_B_BASIC = { authorization: basic(CLIENTS.fullB.clientId, CLIENTS.fullB.secret) };
const formB = (body: Record<string, string>, headers: Record<string, string> = {}) =>
  h.app.request("/public/auth/token/", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(body).toString(),
  });
const formA = (body: unknown, headers: Record<string, string> = {}) =>
  h.app.request("/public/auth/tenant-token", {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

describe("Form B token", () => {
  it("issues a Bearer token with HTTP Basic credentials, no refresh token, no-store", async () => {
    const res = await formB({ grant_type: "client_credentials", scope: "read:ledger" }, FULL_B_BASIC);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: "read:ledger" });
    expect(body).not.toHaveProperty("refresh_token");
    expect(typeof body.access_token).toBe("string");
  });

  it("accepts client_id / client_secret form fields, and the path without trailing slash", async () => {
    const res = await h.app.request("/public/auth/token", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "client_credentials",
        client_id: CLIENTS.fullB.clientId,
        client_secret: CLIENTS.fullB.secret,
      }).toString(),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { scope: string };
    expect(body.scope.split(" ")).toContain("admin:public_api"); // no scope asked: every allowed scope
  });

  it("a token works on a protected call and remembers its scopes", async () => {
    const res = await formB({ grant_type: "client_credentials", scope: "read:reporting" }, FULL_B_BASIC);
    const { access_token } = (await res.json()) as { access_token: string };
    const denied = await h.call("GET", "/accounts", { token: access_token, company: IDS.companyA });
    expect(denied.status).toBe(403);
    expect(((await denied.json()) as { error: string }).error).toBe("permission_denied");
  });

  it.each([
    [
      "wrong secret",
      { grant_type: "client_credentials" },
      { authorization: basic(CLIENTS.fullB.clientId, "nope") },
      401,
      "invalid_client",
    ],
    [
      "unknown client",
      { grant_type: "client_credentials", client_id: "ghost", client_secret: "x" },
      {},
      401,
      "invalid_client",
    ],
    ["no credentials", { grant_type: "client_credentials" }, {}, 401, "invalid_client"],
    [
      "both credential styles",
      { grant_type: "client_credentials", client_id: CLIENTS.fullB.clientId, client_secret: CLIENTS.fullB.secret },
      FULL_B_BASIC,
      400,
      "invalid_request",
    ],
    ["missing grant_type", {}, FULL_B_BASIC, 400, "invalid_request"],
    ["password grant", { grant_type: "password" }, FULL_B_BASIC, 400, "unsupported_grant_type"],
    [
      "scope outside the client's set",
      { grant_type: "client_credentials", scope: "read:ledger write:payments" },
      { authorization: basic(CLIENTS.readB.clientId, CLIENTS.readB.secret) },
      400,
      "invalid_scope",
    ],
    [
      "unknown scope",
      { grant_type: "client_credentials", scope: "read:everything" },
      FULL_B_BASIC,
      400,
      "invalid_scope",
    ],
    [
      "a Form A client at the Form B endpoint",
      { grant_type: "client_credentials" },
      { authorization: basic(CLIENTS.partnerA.clientId, CLIENTS.partnerA.secret) },
      400,
      "unauthorized_client",
    ],
  ])("%s → %i %s", async (_name, body, headers, status, code) => {
    const res = await formB(body as Record<string, string>, headers as Record<string, string>);
    expect(res.status).toBe(status);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const json = (await res.json()) as { error: string; error_description: string; message: string };
    expect(json.error).toBe(code);
    expect(json.error_description.length).toBeGreaterThan(5);
    expect(json.message).toBe(json.error_description);
  });

  it("refuses a JSON body at the Form B endpoint", async () => {
    const res = await h.app.request("/public/auth/token/", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe("invalid_request");
  });
});

describe("Form A tenant token", () => {
  const auth = { authorization: basic(CLIENTS.partnerA.clientId, CLIENTS.partnerA.secret) };

  it("issues a token bound to the tenant, with tenant_id in the response", async () => {
    const res = await formA({ tenant_id: IDS.tenant, scope: "read:ledger" }, auth);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      token_type: "Bearer",
      expires_in: 3600,
      scope: "read:ledger",
      tenant_id: IDS.tenant,
    });
  });

  it("403 permission_denied for a tenant not allowed for the partner client", async () => {
    const res = await formA({ tenant_id: IDS.tenant2 }, auth);
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: string }).error).toBe("permission_denied");
  });

  it.each([
    ["missing tenant_id", {}, auth, 400, "invalid_request"],
    ["non-UUID tenant_id", { tenant_id: "abc" }, auth, 400, "invalid_request"],
    [
      "wrong secret",
      { tenant_id: IDS.tenant },
      { authorization: basic(CLIENTS.partnerA.clientId, "bad") },
      401,
      "invalid_client",
    ],
    ["a Form B client", { tenant_id: IDS.tenant }, FULL_B_BASIC, 400, "unauthorized_client"],
    ["bad grant type", { tenant_id: IDS.tenant, grant_type: "refresh_token" }, auth, 400, "unsupported_grant_type"],
  ])("%s → %i %s", async (_n, body, headers, status, code) => {
    const res = await formA(body, headers);
    expect(res.status).toBe(status);
    expect(((await res.json()) as { error: string }).error).toBe(code);
  });

  it("malformed JSON is 400 invalid_request, never 500", async () => {
    const res = await h.app.request("/public/auth/tenant-token", {
      method: "POST",
      headers: { "content-type": "application/json", ...auth },
      body: "{not json",
    });
    expect(res.status).toBe(400);
  });

  it("Form A calls need X-Tenant-ID equal to the token's tenant", async () => {
    const token = await h.token("partnerA");
    const missing = await h.app.request("/public/companies", { headers: { authorization: `Bearer ${token}` } });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { details: { errors: Record<string, string[]> } }).details.errors).toHaveProperty(
      "X-Tenant-ID",
    );
    const wrong = await h.app.request("/public/companies", {
      headers: { authorization: `Bearer ${token}`, "x-tenant-id": IDS.tenant2 },
    });
    expect(wrong.status).toBe(403);
    const ok = await h.app.request("/public/companies", {
      headers: { authorization: `Bearer ${token}`, "x-tenant-id": IDS.tenant },
    });
    expect(ok.status).toBe(200);
    expect(Array.isArray(await ok.json())).toBe(true); // Form A: bare array
  });
});

describe("bearer tokens", () => {
  it.each([
    ["no Authorization header", undefined],
    ["an unknown token", "Bearer not-a-real-token"],
    ["a Basic header", basic("a", "b")],
  ])("%s → 401 authentication_failed", async (_n, header) => {
    const res = await h.app.request("/public/companies", { headers: header ? { authorization: header } : {} });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: string }).error).toBe("authentication_failed");
  });

  it("an expired token is 401", async () => {
    const token = await h.token("fullB", "read:ledger");
    await h.database.exec("update access_tokens set expires_at = now() - interval '1 second'");
    const res = await h.call("GET", "/companies", { token });
    expect(res.status).toBe(401);
  });
});
