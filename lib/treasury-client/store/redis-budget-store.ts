/**
 * The rate budget shared by every dashboard instance through Redis: the last
 * `BudgetState` any instance saw, as JSON under one key per OAuth client,
 * expiring a second after the API's window resets (a stale budget is worth
 * nothing). Last write wins. Through `RedisSharedStore`, so while Redis is
 * down the budget is this instance's own (memory), and nothing ever throws.
 */
import type { BudgetState, BudgetStore } from "../budget-store";
import type { RedisSharedStore } from "./redis-store";

export class RedisBudgetStore implements BudgetStore {
  private readonly key: string;

  /** @param namespace one per OAuth client and API (see `clientNamespace`); `now` epoch ms. */
  constructor(
    private readonly store: RedisSharedStore,
    namespace: string,
    private readonly now: () => number = Date.now,
  ) {
    this.key = `${namespace}:budget`;
  }

  /** The last budget stored by any instance, or null (none, expired or unreadable). */
  async get(): Promise<BudgetState | null> {
    const json = await this.store.get(this.key);
    if (json === undefined) return null;
    try {
      const v = JSON.parse(json) as Partial<BudgetState>;
      if (typeof v.remaining !== "number" || typeof v.limit !== "number" || typeof v.resetAt !== "number") return null;
      return { remaining: v.remaining, limit: v.limit, resetAt: v.resetAt };
    } catch {
      return null;
    }
  }

  /** Stores `state` until one second after its window resets. */
  async set(state: BudgetState): Promise<void> {
    const ttlMs = Math.max(1_000, state.resetAt - this.now() + 1_000);
    await this.store.set(this.key, JSON.stringify(state), ttlMs);
  }
}
