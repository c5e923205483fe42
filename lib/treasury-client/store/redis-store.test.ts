/**
 * The Redis store without a Redis: every operation falls back to memory,
 * nothing rejects, and one warning is logged however many calls fail.
 */
import { afterEach, describe, expect, it } from "vitest";
import { RedisBudgetStore } from "./redis-budget-store";
import { RedisSharedStore } from "./redis-store";

let store: RedisSharedStore | undefined;
afterEach(async () => store?.close());

describe("RedisSharedStore with Redis unreachable", () => {
  it("answers from memory, never rejects, and warns once", async () => {
    const warnings: string[] = [];
    store = new RedisSharedStore({
      // Port 1 on loopback: connection refused.
      url: "redis://:secret@127.0.0.1:1",
      logger: { warn: (o, msg) => void warnings.push(`${msg} ${JSON.stringify(o)}`), info: () => undefined },
    });
    expect(store.shared).toBe(false);
    await store.set("k", '{"a":1}', 60_000);
    expect(await store.get("k")).toBe('{"a":1}');
    await store.increment(["g"]);
    expect(await store.counters(["g", "h"])).toEqual([1, 0]);
    const token = await store.lock("l", 1_000);
    expect(token).toEqual(expect.any(String));
    expect(await store.lock("l", 1_000)).toBeNull();
    await store.unlock("l", token ?? "");
    expect(await store.isLocked("l")).toBe(false);
    const budget = new RedisBudgetStore(store, "ns");
    await budget.set({ remaining: 5, limit: 600, resetAt: Date.now() + 10_000 });
    expect(await budget.get()).toMatchObject({ remaining: 5, limit: 600 });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/redis unavailable/);
    expect(warnings[0]).not.toContain("secret");
  });
});
