import { describe, expect, it } from "vitest";
import { ExpiringMap } from "./expiring-map";
import { MemorySharedStore } from "./shared-store";

describe("ExpiringMap", () => {
  it("expires entries after their ttl and drops the oldest beyond maxEntries", () => {
    let t = 0;
    const m = new ExpiringMap<number>({ maxEntries: 2, now: () => t });
    m.set("a", 1, 100);
    m.set("b", 2, 1_000);
    t = 100;
    expect([m.get("a"), m.get("b")]).toEqual([undefined, 2]);
    m.set("c", 3, 1_000);
    m.set("d", 4, 1_000);
    expect([m.get("b"), m.get("c"), m.get("d"), m.size]).toEqual([undefined, 3, 4, 2]);
  });

  it("keeps the total weight under maxWeight, oldest first, and tracks deletions", () => {
    const m = new ExpiringMap<string>({ maxEntries: 100, weigh: (s) => s.length, maxWeight: 10 });
    m.set("a", "xxxx", 1_000);
    m.set("b", "yyyy", 1_000);
    m.set("c", "zzzz", 1_000);
    expect([m.get("a"), m.get("b"), m.get("c"), m.totalWeight]).toEqual([undefined, "yyyy", "zzzz", 8]);
    m.deletePrefix("b");
    m.set("c", "zz", 1_000);
    expect(m.totalWeight).toBe(2);
  });
});

describe("MemorySharedStore", () => {
  it("bounds its values by total JSON length", async () => {
    const s = new MemorySharedStore({ maxChars: 10 });
    await s.set("a", '"12345"', 60_000);
    await s.set("b", '"67890"', 60_000);
    expect([await s.get("a"), await s.get("b")]).toEqual([undefined, '"67890"']);
  });
});
