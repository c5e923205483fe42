/**
 * The process's shared store and budget store (server-only): with
 * `REDIS_URL` set, Redis shared by every dashboard instance (upstream cache
 * values, single-flight locks, the OAuth token, the rate budget), degrading
 * to this instance's memory with one warning while Redis is unreachable;
 * without it, memory (one instance). Kept on `globalThis`, one per process.
 */
import "server-only";
import { MemoryBudgetStore, type BudgetStore } from "../treasury-client/budget-store";
import { RedisBudgetStore } from "../treasury-client/store/redis-budget-store";
import { RedisSharedStore } from "../treasury-client/store/redis-store";
import { MemorySharedStore, clientNamespace, type SharedStore } from "../treasury-client/store/shared-store";
import { getConfig } from "./config";
import { logger } from "./log";

const g = globalThis as typeof globalThis & { __sharedStore?: SharedStore; __budgetStore?: BudgetStore };

/** The shared store of this process: Redis when `REDIS_URL` is set, else memory. */
export function sharedStore(): SharedStore {
  if (!g.__sharedStore) {
    const url = getConfig().REDIS_URL;
    g.__sharedStore = url ? new RedisSharedStore({ url, logger }) : new MemorySharedStore();
  }
  return g.__sharedStore;
}

/** Where the rate budget of the configured OAuth client is kept: Redis (shared) or memory. */
export function budgetStore(): BudgetStore {
  if (!g.__budgetStore) {
    const store = sharedStore();
    const c = getConfig();
    g.__budgetStore =
      store instanceof RedisSharedStore
        ? new RedisBudgetStore(
            store,
            clientNamespace({
              baseUrl: c.TREASURY_API_BASE_URL.replace(/\/+$/, ""),
              form: c.TREASURY_API_FORM,
              clientId: c.TREASURY_CLIENT_ID,
              tenantId: c.TREASURY_TENANT_ID,
              scopes: c.TREASURY_SCOPES,
            }),
          )
        : new MemoryBudgetStore();
  }
  return g.__budgetStore;
}
