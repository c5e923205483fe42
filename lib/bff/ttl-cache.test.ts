import { describe, expect, it } from "vitest";
import { TtlCache } from "./ttl-cache";

function clock(start = 0) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe("TtlCache", () => {
  it("shares one load between concurrent callers and serves it until the ttl ends", async () => {
    const c = clock();
    const cache = new TtlCache<number>({ ttlMs: 1000, maxEntries: 10, now: c.now });
    let loads = 0;
    const load = async () => ++loads;
    const [a, b] = await Promise.all([cache.get("k", load), cache.get("k", load)]);
    expect([a, b, loads]).toEqual([1, 1, 1]);
    c.advance(999);
    expect(await cache.get("k", load)).toBe(1);
    c.advance(1);
    expect(await cache.get("k", load)).toBe(2);
  });

  it("drops a rejected load so that the next caller tries again", async () => {
    const cache = new TtlCache<string>({ ttlMs: 60_000, maxEntries: 10 });
    await expect(cache.get("k", () => Promise.reject(new Error("upstream 503")))).rejects.toThrow("upstream 503");
    await Promise.resolve();
    expect(cache.size).toBe(0);
    expect(await cache.get("k", async () => "ok")).toBe("ok");
  });

  it("keeps at most maxEntries, dropping the oldest, and drops keys by prefix", async () => {
    const cache = new TtlCache<string>({ ttlMs: 60_000, maxEntries: 2 });
    await cache.get("a|1", async () => "a1");
    await cache.get("b|1", async () => "b1");
    await cache.get("b|2", async () => "b2");
    expect(cache.size).toBe(2);
    expect(await cache.get("a|1", async () => "reloaded")).toBe("reloaded");
    cache.dropPrefix("b|");
    expect(cache.size).toBe(1);
    expect(await cache.get("b|2", async () => "fresh")).toBe("fresh");
  });
});
