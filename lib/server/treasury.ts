/**
 * The process-wide Treasury API client: one per process, so its access
 * token cache is shared by every request (the dashboard is otherwise
 * stateless; each instance fetches its own token).
 */
import "server-only";
import { createTreasuryClient, type TreasuryClient } from "../treasury-client";
import { getConfig } from "./config";
import { logger } from "./log";

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
      onYield: (info) => logger.info({ ...info }, "treasury api background read waits for the rate budget"),
    });
  }
  return g.__treasuryClient;
}
