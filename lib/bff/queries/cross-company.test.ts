/**
 * Cross-company calls and the narrowing of their answers: which X-Company-ID goes upstream for a user limited to some
 * companies and for an unrestricted one, and which rows each may see.
 */
import { describe, expect, it, vi } from "vitest";

vi.mock("server-only", () => ({}));

import type { BffContext } from "../context";
import { crossCompanyCall, visibleTo } from "./cross-company";

const A = { id: "20000000-0000-4000-8000-00000000000a", name: "Alpha AS", orgnr: "923609016", country: "NO" };
const B = { id: "20000000-0000-4000-8000-00000000000b", name: "Beta AB", orgnr: "5560360793", country: "SE" };
const C = "20000000-0000-4000-8000-00000000000c";

function ctx(companyIds: string[] | null, selected: typeof A | null = A): BffContext {
  const companies = companyIds === null ? [A, B] : [A, B].filter((c) => companyIds.includes(c.id));
  return {
    user: { id: "u", email: "u@test.local", name: "U", roles: ["approver"], companyIds, disabled: false },
    companies,
    company: selected,
    requestId: "req-1",
    upstream: {},
  };
}

describe("crossCompanyCall", () => {
  it("a named company of the user's goes upstream as X-Company-ID, for reads and writes", () => {
    for (const kind of ["read", "write"] as const) {
      expect(crossCompanyCall(ctx([A.id]), A.id, kind)).toEqual({ requestId: "req-1", companyId: A.id, outcome: {} });
      expect(crossCompanyCall(ctx(null), B.id, kind)).toMatchObject({ companyId: B.id });
    }
  });

  it("a named company outside the user's is 403, whatever the kind", () => {
    for (const kind of ["read", "write"] as const) {
      expect(() => crossCompanyCall(ctx([A.id]), B.id, kind)).toThrow(
        expect.objectContaining({
          status: 403,
          message: "You do not have access to this company.",
          details: { company_id: B.id },
        }),
      );
      // Not a company of the API client at all, even for an unrestricted user.
      expect(() => crossCompanyCall(ctx(null), C, kind)).toThrow(expect.objectContaining({ status: 403 }));
    }
  });

  it(
    "without a named company: an unrestricted user spans every company; " +
      "a limited user reads everything and writes in the selected company",
    () => {
      expect(crossCompanyCall(ctx(null), undefined, "read")).toEqual({ requestId: "req-1", outcome: {} });
      expect(crossCompanyCall(ctx(null), undefined, "write")).toEqual({ requestId: "req-1", outcome: {} });
      expect(crossCompanyCall(ctx([A.id]), undefined, "read")).toEqual({ requestId: "req-1", outcome: {} });
      expect(crossCompanyCall(ctx([A.id, B.id], B), undefined, "write")).toEqual({
        requestId: "req-1",
        companyId: B.id,
        outcome: {},
      });
    },
  );

  it("a limited user with no company available cannot write", () => {
    expect(() => crossCompanyCall(ctx([], null), undefined, "write")).toThrow(
      expect.objectContaining({
        status: 403,
        message: "No company is available to you. Ask an administrator for access.",
      }),
    );
  });
});

describe("visibleTo", () => {
  it("keeps the rows of the user's companies only", () => {
    const keep = visibleTo(ctx([A.id]));
    expect(keep({ company_id: A.id })).toBe(true);
    expect(keep({ company_id: B.id })).toBe(false);
    expect(keep({ company_id: C })).toBe(false);
  });

  it("a row without a company is kept only for an unrestricted user", () => {
    expect(visibleTo(ctx([A.id]))({})).toBe(false);
    expect(visibleTo(ctx(null))({})).toBe(true);
    expect(visibleTo(ctx(null))({ company_id: C })).toBe(false);
  });
});
