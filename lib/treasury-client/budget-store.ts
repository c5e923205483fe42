/**
 * Where the Treasury client keeps its view of the API's rate budget (docs/treasury-api.md#limits:
 * the limit applies per OAuth client, so every dashboard instance spends the
 * same budget). In memory by default; with `REDIS_URL` set, a Redis-backed
 * store shares it between instances.
 *
 * Shapes: `remaining` and `limit` are request counts; `resetAt` is epoch
 * milliseconds at which the API's window resets (from `X-RateLimit-Reset`).
 */
export interface BudgetState {
  remaining: number;
  limit: number;
  resetAt: number;
}

/** Read and write the last budget seen. Implementations never throw: a store that fails answers null. */
export interface BudgetStore {
  get(): Promise<BudgetState | null>;
  set(state: BudgetState): Promise<void>;
}

/** The per-process store. */
export class MemoryBudgetStore implements BudgetStore {
  private state: BudgetState | null = null;

  async get(): Promise<BudgetState | null> {
    return this.state;
  }

  async set(state: BudgetState): Promise<void> {
    this.state = state;
  }
}
