/**
 * The client's side of the API's per-client rate limit (docs/treasury-api.md#limits): every
 * answer's `X-RateLimit-Limit / -Remaining / -Reset` is kept in a
 * `BudgetStore`, and background reads (enrichment, exports, fan-out) wait for
 * the next window when the remaining budget is below a reserve, so that the
 * budget left goes to the page loads a person is waiting for.
 *
 * Also the route template of a path (`/accounts/{id}/balances`), the
 * `operation` label of the upstream metrics: ids become `{id}` so that the
 * label set stays small whatever the ids are.
 */
import type { BudgetState, BudgetStore } from "./budget-store";

/** Epoch seconds are larger than this (2001-09-09); smaller reset values are deltas in seconds. */
const EPOCH_THRESHOLD_SECONDS = 1_000_000_000;

/** How background calls share the budget. */
export interface RateBudgetPolicy {
  /** Fraction of the limit kept for interactive calls (0..1): background calls wait below it. Default 0.2. */
  reserveFraction: number;
  /** Longest total wait of one background call for the budget, in ms; then it goes anyway. Default 60 000. */
  backgroundMaxWaitMs: number;
}

export const DEFAULT_RATE_BUDGET_POLICY: RateBudgetPolicy = { reserveFraction: 0.2, backgroundMaxWaitMs: 60_000 };

/**
 * The budget an answer announces, or null when its headers do not give all three values.
 * `X-RateLimit-Reset` is epoch seconds (the local API) or, when too small to be an epoch, seconds from now.
 * @param nowMs epoch milliseconds
 */
export function budgetFromHeaders(headers: Headers, nowMs: number): BudgetState | null {
  const num = (name: string) => {
    const v = headers.get(name)?.trim();
    return v && /^\d+(\.\d+)?$/.test(v) ? Number(v) : undefined;
  };
  const limit = num("x-ratelimit-limit");
  const remaining = num("x-ratelimit-remaining");
  const reset = num("x-ratelimit-reset");
  if (limit === undefined || remaining === undefined || reset === undefined) return null;
  const resetAt = reset >= EPOCH_THRESHOLD_SECONDS ? Math.ceil(reset * 1000) : nowMs + Math.ceil(reset * 1000);
  return { limit, remaining, resetAt };
}

/**
 * The store plus the rules on it. Store failures never reach callers (the
 * store answers null, and then nobody waits).
 */
export class RateBudget {
  /** The last state this process wrote, so that an older answer of the same window does not raise `remaining`. */
  private last: BudgetState | null = null;

  constructor(
    readonly store: BudgetStore,
    readonly policy: RateBudgetPolicy = DEFAULT_RATE_BUDGET_POLICY,
  ) {}

  /**
   * Records an answer's budget. Within one window only a lower `remaining` is
   * written (answers of concurrent calls arrive in any order). Resolves when stored.
   */
  async record(state: BudgetState): Promise<void> {
    const last = this.last;
    if (last && last.resetAt === state.resetAt && last.limit === state.limit && state.remaining >= last.remaining)
      return;
    this.last = state;
    await this.store.set(state);
  }

  /** The stored state while its window lasts, else null. */
  async current(nowMs: number): Promise<BudgetState | null> {
    const s = await this.store.get();
    return s && s.resetAt > nowMs ? s : null;
  }

  /**
   * Milliseconds a call of `priority` should wait before it is sent: until the
   * window resets when the budget is spent (interactive) or below the reserve
   * (background); 0 otherwise or when nothing is known.
   */
  async waitMs(priority: "interactive" | "background", nowMs: number): Promise<number> {
    const s = await this.current(nowMs);
    if (!s) return 0;
    const floor = priority === "background" ? Math.ceil(s.limit * this.policy.reserveFraction) : 1;
    return s.remaining < floor ? s.resetAt - nowMs : 0;
  }
}

/** Path segments that are names in the API's routes; any other segment is an id. */
const ROUTE_WORDS = new Set([
  "accounts",
  "transactions",
  "balances",
  "coverage",
  "intraday",
  "statements",
  "payments",
  "batches",
  "debtor-account",
  "submit",
  "instructions",
  "status-events",
  "approvals",
  "pending",
  "approve",
  "reject",
  "reconciliation",
  "matches",
  "confirm",
  "reporting",
  "cashflow",
  "daily",
  "positions",
  "forecast",
  "companies",
  "koncerner",
  "breakdown",
  "webhooks",
  "deliveries",
  "bank-connections",
  "test",
  "auth",
  "token",
  "tenant-token",
]);

/**
 * The route template of a path below the base path: each segment that is not
 * one of the API's route words becomes `{id}` (`/accounts/4f…/balances` →
 * `/accounts/{id}/balances`).
 */
export function routeTemplate(pathBelowBase: string): string {
  const segments = pathBelowBase.split("/").filter((s) => s !== "");
  return "/" + segments.map((s) => (ROUTE_WORDS.has(s) ? s : "{id}")).join("/");
}
