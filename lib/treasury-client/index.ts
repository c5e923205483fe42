/**
 * Server-only Treasury API client: token manager, HTTP core with retries and
 * timeouts, Form A / Form B behind one interface, pagination (docs/treasury-api.md#endpoints; docs/architecture.md#treasury-client-rules).
 */
import "server-only";

export {
  createTreasuryClient,
  type TreasuryClient,
  type TreasuryClientConfig,
  type WriteContext,
  type PageParams,
} from "./client";
export type * from "./client";
export { TreasuryApiError, TreasuryResponseError, TreasuryTransportError } from "./errors";
export { iterateItems, collectAll, type Page } from "./pagination";
export type { CallContext, CallPriority } from "./http";
export { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./retry";
