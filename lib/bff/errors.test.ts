import { describe, expect, it, vi } from "vitest";

vi.mock("server-only", () => ({}));

import { z } from "zod";
import { TreasuryApiError, TreasuryResponseError, TreasuryTransportError } from "../treasury-client/errors";
import { BffError, toBffError, validationError } from "./errors";
import { chooseCompany, mayUseCompany } from "./company";
import type { DashboardUser } from "../db/users";

const RID = "req-1";
const api = (
  status: number,
  code: string,
  message = "upstream says no",
  extra: Partial<{ details: Record<string, unknown>; retryAfterSeconds: number; requestId: string }> = {},
) => new TreasuryApiError({ status, code, message, ...extra });

describe("error mapping", () => {
  it.each([
    [
      api(400, "validation_error", "from_date must be a date", { details: { errors: { from_date: ["x"] } } }),
      400,
      "validation_error",
      "from_date must be a date",
    ],
    [api(401, "authentication_failed"), 502, "bad_gateway", "could not sign in to the Treasury API"],
    [api(403, "permission_denied", "write not approved"), 403, "permission_denied", "write not approved"],
    [api(404, "not_found"), 404, "not_found", "does not exist or is not visible"],
    [
      api(409, "conflict", "Cannot submit batch in state approved"),
      409,
      "conflict",
      "Cannot submit batch in state approved",
    ],
    [
      api(429, "throttled", "x", { retryAfterSeconds: 7 }),
      503,
      "service_unavailable",
      "The Treasury API is busy; retry in 7 s",
    ],
    [api(503, "service_unavailable"), 503, "service_unavailable", "not available right now"],
    [new TreasuryTransportError("timeout", "t"), 504, "gateway_timeout", "took too long"],
    [new TreasuryTransportError("network", "n"), 503, "service_unavailable", "cannot be reached"],
    [new TreasuryResponseError("bad", 200, ["x: y"]), 502, "bad_gateway", "unexpected format"],
    [new Error("secret internals at /srv/app.ts:12"), 500, "internal_error", "Something went wrong"],
  ])("%s → %i %s", (err, status, code, message) => {
    const r = toBffError(err, RID);
    expect(r.status).toBe(status);
    expect(r.body.error).toBe(code);
    expect(r.body.message).toContain(message);
    expect(r.body.request_id).toBe(RID);
    expect(JSON.stringify(r.body)).not.toContain("/srv/app.ts");
  });

  it("keeps field details of 400/409 and the upstream request id; Retry-After passes through", () => {
    const r = toBffError(
      api(400, "validation_error", "m", { details: { errors: { a: ["b"] } }, requestId: "up-9" }),
      RID,
    );
    expect(r.body.details).toEqual({ errors: { a: ["b"] }, upstream_request_id: "up-9" });
    expect(toBffError(api(429, "throttled", "m", { retryAfterSeconds: 3 }), RID).headers).toEqual({
      "Retry-After": "3",
    });
    expect(toBffError(api(429, "throttled", "m"), RID).headers).toEqual({ "Retry-After": "5" });
    expect(toBffError(api(403, "permission_denied", "m", { details: { secret: 1 } }), RID).body.details).toEqual({});
  });

  it("BffError and zod errors keep their field paths", () => {
    expect(toBffError(new BffError("permission_denied", "no"), RID)).toMatchObject({ status: 403, log: false });
    const zerr = z.object({ a: z.object({ b: z.string() }) }).safeParse({ a: { b: 1 } });
    if (zerr.success) throw new Error("should fail");
    const v = validationError(zerr.error, "body");
    expect(v.message).toMatch(/^a\.b /);
    expect(v.details).toEqual({ errors: { "a.b": [expect.any(String)] } });
  });
});

describe("company context", () => {
  const A = { id: "11111111-1111-4111-8111-111111111111", name: "A AS", orgnr: "1", country: "NO" };
  const B = { id: "22222222-2222-4222-8222-222222222222", name: "B AB", orgnr: "2", country: "SE" };
  const user = (companyIds: string[] | null): DashboardUser => ({
    id: "u",
    email: "u@x",
    name: "U",
    roles: ["viewer"],
    companyIds,
    disabled: false,
  });

  it("no cookie: the first visible company; none visible: null", () => {
    expect(chooseCompany(user(null), [A, B], undefined)).toBe(A);
    expect(chooseCompany(user([]), [], undefined)).toBeNull();
  });

  it("a cookie for a company the user may use is honoured; any other is 403", () => {
    expect(chooseCompany(user(null), [A, B], B.id)).toBe(B);
    expect(() => chooseCompany(user([A.id]), [A], B.id)).toThrow(BffError);
    expect(() => chooseCompany(user(null), [A, B], "not-a-company")).toThrow(/do not have access/);
    expect(mayUseCompany(user([A.id]), [A, B], B.id)).toBe(false);
    expect(mayUseCompany(user([A.id]), [A, B], A.id)).toBe(true);
  });
});
