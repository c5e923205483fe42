/**
 * The benchmark scenario shape of `npm run bench:api`.
 * Compatible with the `ApiScenario` entries of bench/scenarios/*.ts (payments,
 * reporting): a scenario is a name, an optional p50 target in milliseconds,
 * and a factory for the request of iteration n. Add a scenario by appending
 * it to the list in bench/api.ts.
 */

export interface ScenarioRequest {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Path under the API base (`/public` is prefixed), or from the server root when the scenario is `rootPath`. */
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** What a scenario may use to build its requests. */
export interface ScenarioContext {
  /** The company with the most transactions among the benchmark client's companies. */
  companyId: string;
  /** The currency of that company's busiest account. */
  currency: string;
  /** Its busiest account. */
  accountId: string;
  accountIban: string;
  accountBic: string;
  /** The seed's anchor date `YYYY-MM-DD`. */
  today: string;
  /** 0, 1, 2 … per request sent (so writes can vary their Idempotency-Key or body). */
  iteration: number;
}

export interface BenchScenario {
  name: string;
  /** p50 target in ms, checked on PostgreSQL (PGlite runs are for information). */
  targetMs?: number;
  /** The path is from the server root (e.g. /healthz), not under /public, and needs no token. */
  rootPath?: boolean;
  /** The floor every other scenario is compared with. Exactly one scenario has it. */
  floor?: boolean;
  request(ctx: ScenarioContext): ScenarioRequest;
}
