/**
 * The state the dashboard's Treasury client may share between instances:
 * cached upstream answers, single-flight locks, generation counters (for
 * invalidation), the OAuth token and the rate budget.
 *
 * Two implementations:
 * - `MemorySharedStore` (default): per process.
 * - `RedisSharedStore` (`REDIS_URL` set, ./redis-store.ts): shared by every
 *   instance; falls back to its own memory store while Redis is unreachable.
 *
 * Every method resolves; none rejects (a store that fails answers "absent",
 * "not locked by anyone" or 0), so a broken store costs upstream calls, never
 * an error to a person. Values are JSON strings: what one instance stores,
 * another parses.
 */
import { createHash, randomUUID } from "node:crypto";
import { ExpiringMap } from "./expiring-map";

export interface SharedStore {
  /** "memory", or "redis" for the Redis store (also while it falls back to memory). */
  readonly kind: "memory" | "redis";
  /** True while other instances see what this store holds (Redis up). */
  readonly shared: boolean;
  /** The JSON text stored under `key`, or undefined. */
  get(key: string): Promise<string | undefined>;
  /** Stores `json` under `key` for `ttlMs` milliseconds. */
  set(key: string, json: string, ttlMs: number): Promise<void>;
  delete(key: string): Promise<void>;
  /** The current values of counters (0 for one never incremented). */
  counters(keys: readonly string[]): Promise<number[]>;
  /** Adds one to each counter (atomically per counter). */
  increment(keys: readonly string[]): Promise<void>;
  /** Takes the lock `key` for `ttlMs` if nobody holds it (SET NX PX): the owner token, or null. */
  lock(key: string, ttlMs: number): Promise<string | null>;
  /** Releases `key` if `token` still owns it. */
  unlock(key: string, token: string): Promise<void>;
  /** True while someone holds the lock `key`. */
  isLocked(key: string): Promise<boolean>;
}

/** Bound on the memory store's values and locks. */
const MEMORY_MAX_ENTRIES = 20_000;
/** Bound on the characters of JSON the memory store holds (about 2 bytes each: ~128 MB). */
const MEMORY_MAX_CHARS = 64 * 1024 * 1024;

/** The per-process store; also the fallback inside the Redis store. */
export class MemorySharedStore implements SharedStore {
  readonly kind = "memory" as const;
  readonly shared = false;
  private readonly values: ExpiringMap<string>;
  private readonly locks: ExpiringMap<string>;
  private readonly counts = new Map<string, number>();

  /**
   * @param opts.now epoch ms, injectable for tests; `maxEntries` bounds values (default 20 000), `maxChars` their
   * total JSON length (default 64 Mi characters); the oldest go first.
   */
  constructor(opts: { now?: () => number; maxEntries?: number; maxChars?: number } = {}) {
    const maxEntries = opts.maxEntries ?? MEMORY_MAX_ENTRIES;
    this.values = new ExpiringMap<string>({
      maxEntries,
      now: opts.now,
      weigh: (json) => json.length,
      maxWeight: opts.maxChars ?? MEMORY_MAX_CHARS,
    });
    this.locks = new ExpiringMap({ maxEntries, now: opts.now });
  }

  async get(key: string): Promise<string | undefined> {
    return this.values.get(key);
  }

  async set(key: string, json: string, ttlMs: number): Promise<void> {
    this.values.set(key, json, ttlMs);
  }

  async delete(key: string): Promise<void> {
    this.values.delete(key);
  }

  async counters(keys: readonly string[]): Promise<number[]> {
    return keys.map((k) => this.counts.get(k) ?? 0);
  }

  async increment(keys: readonly string[]): Promise<void> {
    for (const k of keys) this.counts.set(k, (this.counts.get(k) ?? 0) + 1);
  }

  async lock(key: string, ttlMs: number): Promise<string | null> {
    if (this.locks.get(key) !== undefined) return null;
    const token = randomUUID();
    this.locks.set(key, token, ttlMs);
    return token;
  }

  async unlock(key: string, token: string): Promise<void> {
    if (this.locks.get(key) === token) this.locks.delete(key);
  }

  async isLocked(key: string): Promise<boolean> {
    return this.locks.get(key) !== undefined;
  }
}

/**
 * The key prefix of one API and OAuth client (base URL, form, client id, tenant, scopes), hashed: entries,
 * tokens and budgets of two clients never mix, and no credential appears in a key.
 */
export function clientNamespace(parts: {
  baseUrl: string;
  form: string;
  clientId: string;
  tenantId?: string;
  scopes: readonly string[];
}): string {
  const text = [parts.baseUrl, parts.form, parts.clientId, parts.tenantId ?? "", [...parts.scopes].sort().join(" ")];
  return "c" + createHash("sha256").update(text.join("\n")).digest("hex").slice(0, 16);
}
