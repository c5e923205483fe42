import { describe, expect, it } from "vitest";
import { notFoundTarget } from "./not-found-state";

describe("notFoundTarget", () => {
  it("leads back to the list an unknown item belongs to", () => {
    expect(notFoundTarget("/payments/3f2a")).toEqual({ href: "/payments", label: "Payments", item: "payment batch" });
    expect(notFoundTarget("/accounts/x")).toMatchObject({ href: "/accounts", item: "account" });
    expect(notFoundTarget("/counterparties/x")).toMatchObject({ href: "/counterparties", item: "counterparty" });
    expect(notFoundTarget("/approvals/x")).toMatchObject({ href: "/approvals", item: "approval" });
    expect(notFoundTarget("/organization/koncerner/x")).toMatchObject({
      href: "/organization",
      item: "corporate group",
    });
  });
  it("calls a deeper or unknown address a page, and falls back to the overview", () => {
    expect(notFoundTarget("/payments/a/b")).toEqual({ href: "/payments", label: "Payments", item: null });
    expect(notFoundTarget("/nowhere")).toEqual({ href: "/", label: "Overview", item: null });
    expect(notFoundTarget("/")).toEqual({ href: "/", label: "Overview", item: null });
    expect(notFoundTarget(null)).toEqual({ href: "/", label: "Overview", item: null });
    // A hostile path is only read, never followed: the link goes to a known list or the overview.
    expect(notFoundTarget("/%2F%2Fevil.example/x")).toEqual({ href: "/", label: "Overview", item: null });
    expect(notFoundTarget("/__proto__/x")).toEqual({ href: "/", label: "Overview", item: null });
  });
});
