/**
 * The `SharedStore` over Redis (ioredis), for several dashboard instances
 * behind one OAuth client: cached values as JSON strings with PX expiry,
 * locks with SET NX PX released by a compare-and-delete script, counters
 * with INCR (never expiring; a few per company and resource).
 *
 * Redis down, killed or slow (commands time out after `commandTimeoutMs`):
 * one warning is logged, every operation falls back to this instance's own
 * `MemorySharedStore` (so reads still succeed, at the cost of per-instance
 * caching), and ioredis keeps reconnecting in the background; when it is
 * back, an info line is logged and the shared state is used again. Entries
 * written to memory during the outage are not copied to Redis; invalidations
 * made during it reach Redis only through the entries' own short lifetimes.
 */
import { Redis } from "ioredis";
import { MemorySharedStore, type SharedStore } from "./shared-store";

/** The logger calls the store makes (pino's shape). */
export interface StoreLogger {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

export interface RedisStoreOptions {
  /** `redis://[user:password@]host:port[/db]` */
  url: string;
  /** Prefix of every key (default `treasury:`). */
  prefix?: string;
  /** A command slower than this counts as a failure (default 500 ms). */
  commandTimeoutMs?: number;
  logger?: StoreLogger;
}

const UNLOCK_SCRIPT = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`;

export class RedisSharedStore implements SharedStore {
  readonly kind = "redis" as const;
  /** The Redis connection (exposed for tests and shutdown). */
  readonly redis: Redis;
  private readonly memory = new MemorySharedStore();
  private degraded = false;

  /** Connects in the background; operations fall back to memory until Redis is ready. */
  constructor(private readonly opts: RedisStoreOptions) {
    this.redis = new Redis(opts.url, {
      keyPrefix: opts.prefix ?? "treasury:",
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: opts.commandTimeoutMs ?? 500,
      connectTimeout: 2_000,
      // Reconnect forever, at most every 5 s.
      retryStrategy: (times) => Math.min(times * 200, 5_000),
    });
    this.redis.on("ready", () => {
      if (this.degraded) opts.logger?.info({ redis: redact(opts.url) }, "redis reachable again; shared cache resumed");
      this.degraded = false;
    });
    // Errors surface through the failing commands; the event must have a listener or Node throws.
    this.redis.on("error", () => undefined);
  }

  /** True while Redis is up (other instances see what is stored). */
  get shared(): boolean {
    return this.redis.status === "ready";
  }

  /** Runs `op` on Redis, or `fallback` on memory when Redis is not ready or the command fails. */
  private async run<T>(op: (r: Redis) => Promise<T>, fallback: (m: MemorySharedStore) => Promise<T>): Promise<T> {
    if (this.redis.status === "ready") {
      try {
        return await op(this.redis);
      } catch (err) {
        this.degrade(err);
      }
    } else {
      this.degrade(new Error(`redis connection is ${this.redis.status}`));
    }
    return fallback(this.memory);
  }

  private degrade(err: unknown): void {
    if (this.degraded) return;
    this.degraded = true;
    this.opts.logger?.warn(
      { redis: redact(this.opts.url), err: err instanceof Error ? err.message : String(err) },
      "redis unavailable; upstream cache, locks, token and budget fall back to this instance's memory",
    );
  }

  async get(key: string): Promise<string | undefined> {
    return this.run(
      async (r) => (await r.get(key)) ?? undefined,
      (m) => m.get(key),
    );
  }

  async set(key: string, json: string, ttlMs: number): Promise<void> {
    await this.run(
      async (r) => void (await r.set(key, json, "PX", Math.max(1, Math.round(ttlMs)))),
      (m) => m.set(key, json, ttlMs),
    );
  }

  async delete(key: string): Promise<void> {
    await this.run(
      async (r) => void (await r.del(key)),
      (m) => m.delete(key),
    );
  }

  async counters(keys: readonly string[]): Promise<number[]> {
    if (keys.length === 0) return [];
    return this.run(
      async (r) => (await r.mget(...keys)).map((v) => Number(v ?? 0)),
      (m) => m.counters(keys),
    );
  }

  async increment(keys: readonly string[]): Promise<void> {
    if (keys.length === 0) return;
    await this.run(
      async (r) => {
        const p = r.multi();
        for (const k of keys) p.incr(k);
        await p.exec();
      },
      (m) => m.increment(keys),
    );
  }

  async lock(key: string, ttlMs: number): Promise<string | null> {
    const token = crypto.randomUUID();
    return this.run(
      async (r) => ((await r.set(key, token, "PX", ttlMs, "NX")) === "OK" ? token : null),
      (m) => m.lock(key, ttlMs),
    );
  }

  async unlock(key: string, token: string): Promise<void> {
    await this.run(
      async (r) => void (await r.eval(UNLOCK_SCRIPT, 1, key, token)),
      (m) => m.unlock(key, token),
    );
  }

  async isLocked(key: string): Promise<boolean> {
    return this.run(
      async (r) => (await r.exists(key)) === 1,
      (m) => m.isLocked(key),
    );
  }

  /** Closes the connection (tests, shutdown). */
  async close(): Promise<void> {
    this.redis.disconnect();
  }
}

/** The URL without its password, for logs. */
function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "redis://(unparseable)";
  }
}
