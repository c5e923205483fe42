import { describe, expect, it, vi } from "vitest";

/** A fresh copy of the module, as each server bundle (route handlers, pages) holds its own. */
async function freshCopy(): Promise<typeof import("./errors")> {
  vi.resetModules();
  return import("./errors");
}

describe("client errors across copies of the errors module", () => {
  it("an error made by one copy is an instance of the other copy's class of the same kind, and of no other", async () => {
    const maker = await freshCopy();
    const reader = await freshCopy();
    expect(reader).not.toBe(maker);
    const api = new maker.TreasuryApiError({ status: 404, code: "not_found", message: "gone" });
    const transport = new maker.TreasuryTransportError("timeout", "slow");
    const response = new maker.TreasuryResponseError("bad body", 200, ["amount"]);
    expect(api).toBeInstanceOf(reader.TreasuryApiError);
    expect(transport).toBeInstanceOf(reader.TreasuryTransportError);
    expect(response).toBeInstanceOf(reader.TreasuryResponseError);
    expect(api).not.toBeInstanceOf(reader.TreasuryTransportError);
    expect(transport).not.toBeInstanceOf(reader.TreasuryApiError);
    expect(api instanceof Error).toBe(true);
    expect(new Error("plain")).not.toBeInstanceOf(reader.TreasuryApiError);
    expect(null).not.toBeInstanceOf(reader.TreasuryApiError);
    expect(api.code).toBe("not_found");
    expect(Object.keys(api)).not.toContain("Symbol(treasury.clientErrorKind)");
    expect(JSON.stringify({ ...api })).not.toContain("clientErrorKind");
  });
});
