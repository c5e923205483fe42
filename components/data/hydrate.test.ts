import { describe, expect, it } from "vitest";
import { QueryClient, queryOptions } from "@tanstack/react-query";
import { hydrate } from "./hydrate";

const things = (id: string) =>
  queryOptions({ queryKey: ["things", id] as const, queryFn: async () => ({ id, name: "from the browser" }) });

describe("hydrate", () => {
  it("seeds the query's key with what the server loaded and returns the load unchanged", async () => {
    const qc = new QueryClient();
    const loaded = await hydrate(qc, things("a"), async () => ({ ok: true as const, data: { id: "a", name: "x" } }));
    expect(loaded).toEqual({ ok: true, data: { id: "a", name: "x" } });
    expect(qc.getQueryData(things("a").queryKey)).toEqual({ id: "a", name: "x" });
    expect(qc.getQueryData(things("b").queryKey)).toBeUndefined();
  });

  it("seeds nothing when the load failed, and hands the problem back for the page to render", async () => {
    const qc = new QueryClient();
    const problem = { ok: false as const, kind: "error" as const, title: "t", message: "m" };
    const loaded = await hydrate(qc, things("a"), async () => problem);
    expect(loaded).toBe(problem);
    expect(qc.getQueryCache().getAll()).toHaveLength(0);
  });

  it("rejects at compile time a loader whose data is not the query's", async () => {
    const qc = new QueryClient();
    // @ts-expect-error the key is tagged with { id, name }; a number is not that
    await hydrate(qc, things("a"), async () => ({ ok: true as const, data: 42 }));
  });
});
