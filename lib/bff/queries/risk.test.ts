import { describe, expect, it, vi } from "vitest";

vi.mock("server-only", () => ({}));
vi.mock("../../server/db", () => ({ dashboardDb: vi.fn() }));
vi.mock("../../server/treasury", () => ({ treasury: vi.fn() }));

import { companyToday, counterpartyOf, missingAcknowledgements } from "./risk";

describe("companyToday", () => {
  it("is the date in the company's zone, not UTC's", () => {
    // 23:30 UTC on 31 Dec is already 1 Jan in Oslo and Helsinki.
    const now = new Date("2026-12-31T23:30:00Z");
    expect(companyToday("NO", now)).toBe("2027-01-01");
    expect(companyToday("fi", now)).toBe("2027-01-01");
    expect(companyToday("US", now)).toBe("2026-12-31");
    expect(companyToday(null, now)).toBe("2026-12-31");
  });
});

describe("missingAcknowledgements", () => {
  const risk = { requires_acknowledgement: ["possible_duplicate", "insufficient_funds"] as const };
  it("names each high-risk code not acknowledged", () => {
    expect(
      missingAcknowledgements({ requires_acknowledgement: [...risk.requires_acknowledgement] }, undefined),
    ).toEqual(["possible_duplicate", "insufficient_funds"]);
    expect(
      missingAcknowledgements({ requires_acknowledgement: [...risk.requires_acknowledgement] }, ["insufficient_funds"]),
    ).toEqual(["possible_duplicate"]);
  });
  it("is empty when all are acknowledged, extra codes do no harm, and a batch without high signals needs none", () => {
    expect(
      missingAcknowledgements({ requires_acknowledgement: [...risk.requires_acknowledgement] }, [
        "insufficient_funds",
        "possible_duplicate",
        "new_payee",
      ]),
    ).toEqual([]);
    expect(missingAcknowledgements({ requires_acknowledgement: [] }, [])).toEqual([]);
  });
});

describe("counterpartyOf", () => {
  const cps = [
    { id: "pending", iban: "NO93 8601 1117 947", status: "pending_verification" },
    { id: "verified", iban: "NO9386011117947", status: "verified" },
    { id: "other", iban: "NO7112345678903", status: "rejected" },
  ];
  it("finds the counterparty of an IBAN whatever its formatting, the verified one first", () => {
    expect(counterpartyOf(cps, "no93 8601 1117 947")).toBe("verified");
    expect(counterpartyOf(cps.slice(0, 1), "NO9386011117947")).toBe("pending");
    expect(counterpartyOf(cps, "NO71 1234 5678 903")).toBe("other");
  });
  it("an IBAN no counterparty has is an ad-hoc creditor", () => {
    expect(counterpartyOf(cps, "NO5015032080119")).toBeUndefined();
    expect(counterpartyOf([], "NO5015032080119")).toBeUndefined();
  });
});
