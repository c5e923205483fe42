/**
 * Company narrowing in the BFF: which of the API client's companies a user sees (`visibleCompanies`), may use
 * (`mayUseCompany`) and works in (`chooseCompany`, from the company cookie). The upstream company list is a stub.
 */
import { beforeEach, describe, expect, it, vi } from "vitest";

vi.mock("server-only", () => ({}));
const listCompanies = vi.fn();
vi.mock("../server/treasury", () => ({ treasury: () => ({ listCompanies }) }));

import type { DashboardUser } from "../db/users";
import { chooseCompany, invalidateCompanies, mayUseCompany, visibleCompanies } from "./company";

const A = { id: "20000000-0000-4000-8000-00000000000a", name: "Alpha AS", orgnr: "923609016", country: "NO" };
const B = { id: "20000000-0000-4000-8000-00000000000b", name: "Beta AB", orgnr: "5560360793", country: "SE" };
const C = { id: "20000000-0000-4000-8000-00000000000c", name: "Ceta Oy", orgnr: "0112038-9", country: "FI" };
/** Not a company of the API client. */
const STRANGER = "20000000-0000-4000-8000-0000000000ff";

const user = (companyIds: string[] | null): DashboardUser => ({
  id: "u",
  email: "u@test.local",
  name: "U",
  roles: ["viewer"],
  companyIds,
  disabled: false,
});

beforeEach(() => {
  invalidateCompanies();
  listCompanies.mockReset();
  // Upstream order is not by name: the BFF sorts.
  listCompanies.mockResolvedValue({ items: [C, A, B], count: 3, next: null });
});

describe("visibleCompanies", () => {
  it("an unrestricted user sees every company of the client, by name", async () => {
    expect((await visibleCompanies(user(null))).map((c) => c.name)).toEqual(["Alpha AS", "Beta AB", "Ceta Oy"]);
  });

  it("a limited user sees only the allowed ones (an allowed id the client lacks adds nothing)", async () => {
    expect(await visibleCompanies(user([C.id, A.id, STRANGER]))).toEqual([A, C]);
    expect(await visibleCompanies(user([]))).toEqual([]);
  });
});

describe("mayUseCompany", () => {
  it("needs the company among the client's and, for a limited user, in the user's list", () => {
    expect(mayUseCompany(user(null), [A, B], B.id)).toBe(true);
    expect(mayUseCompany(user(null), [A, B], C.id)).toBe(false);
    expect(mayUseCompany(user([A.id]), [A, B], A.id)).toBe(true);
    expect(mayUseCompany(user([A.id]), [A, B], B.id)).toBe(false);
    // Allowed for the user, but not a company of the client.
    expect(mayUseCompany(user([C.id]), [A, B], C.id)).toBe(false);
  });
});

describe("chooseCompany", () => {
  it("without a cookie: the first visible company, or none", () => {
    expect(chooseCompany(user(null), [B, A], undefined)).toBe(B);
    expect(chooseCompany(user(null), [B, A], "")).toBe(B);
    expect(chooseCompany(user([]), [], undefined)).toBeNull();
  });

  it("the cookie's company when the user may use it", () => {
    expect(chooseCompany(user(null), [A, B], B.id)).toBe(B);
    expect(chooseCompany(user([B.id]), [B], B.id)).toBe(B);
  });

  it("a cookie naming a company the user may not use is 403 naming it, never a silent fallback", () => {
    const refused = expect.objectContaining({
      status: 403,
      code: "permission_denied",
      message: "You do not have access to the selected company. Choose another company.",
      details: { company_id: C.id },
    });
    // Not in the visible list at all.
    expect(() => chooseCompany(user(null), [A, B], C.id)).toThrow(refused);
    // In the list passed in, but outside the user's allowed companies.
    expect(() => chooseCompany(user([A.id]), [A, C], C.id)).toThrow(refused);
  });
});
