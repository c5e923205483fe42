/**
 * The process-wide Treasury API client: one per process, so its access
 * token and its upstream cache are shared by every request; with `REDIS_URL`
 * set, by every instance (lib/server/shared-store.ts). Cache outcomes are
 * counted in `dashboard_upstream_cache_events_total`; the rate budget lives in
 * the same place (`budgetStore()`), so instances spend one budget.
 */
import "server-only";
import { createTreasuryClient, type TreasuryClient } from "../treasury-client";
import { getConfig } from "./config";
import { logger } from "./log";
import { metrics } from "./metrics";
import { budgetStore, sharedStore } from "./shared-store";

const g = globalThis as typeof globalThis & { __treasuryClient?: TreasuryClient };

/** The shared client, created on first use from the configuration. */
export function treasury(): TreasuryClient {
  if (!g.__treasuryClient) {
    const c = getConfig();
    g.__treasuryClient = createTreasuryClient({
      baseUrl: c.TREASURY_API_BASE_URL,
      form: c.TREASURY_API_FORM,
      clientId: c.TREASURY_CLIENT_ID,
      clientSecret: c.TREASURY_CLIENT_SECRET,
      tenantId: c.TREASURY_TENANT_ID,
      scopes: c.TREASURY_SCOPES,
      timeoutMs: c.TREASURY_TIMEOUT_MS,
      onRetry: (info) => logger.warn({ ...info }, "treasury api retry"),
      shared: {
        store: sharedStore(),
        cacheReads: c.DASHBOARD_UPSTREAM_CACHE,
        onCacheEvent: (resource, event) => metrics().cacheEvents.inc({ resource, event }),
      },
      budget: budgetStore(),
      onYield: (info) => logger.info({ ...info }, "treasury api background read waits for the rate budget"),
    });
  }
  return g.__treasuryClient;
}
