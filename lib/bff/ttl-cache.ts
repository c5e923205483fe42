/**
 * A small in-process cache of promises with a time to live, for values the
 * BFF derives from several upstream reads (an account row from its balances
 * and coverage, a batch's risk signals). The upstream reads themselves go
 * through the Treasury client's upstream cache; this keeps the derived value
 * so that sorting or filtering again does not recompute it.
 *
 * - The promise is stored at once, so concurrent callers share one load.
 * - A load that rejects is dropped, so the next caller tries again.
 * - At most `maxEntries` keys; the oldest is dropped first.
 * Built on the same `ExpiringMap` as the client's memory store. Per instance only.
 */
import { ExpiringMap } from "../treasury-client/store/expiring-map";

export class TtlCache<V> {
  private readonly entries: ExpiringMap<Promise<V>>;
  private readonly ttlMs: number;

  /** @param opts.ttlMs lifetime of an entry in milliseconds; `now` is injectable for tests. */
  constructor(opts: { ttlMs: number; maxEntries: number; now?: () => number }) {
    this.ttlMs = opts.ttlMs;
    this.entries = new ExpiringMap({ maxEntries: opts.maxEntries, now: opts.now });
  }

  /** The cached value of `key`, or the result of `load()` (stored for `ttlMs`). Rejects as `load` does. */
  get(key: string, load: () => Promise<V>): Promise<V> {
    const hit = this.entries.get(key);
    if (hit) return hit;
    const value = load();
    this.entries.set(key, value, this.ttlMs);
    value.catch(() => {
      if (this.entries.get(key) === value) this.entries.delete(key);
    });
    return value;
  }

  /** Drops every key that starts with `prefix` (e.g. one company's entries after a write). */
  dropPrefix(prefix: string): void {
    this.entries.deletePrefix(prefix);
  }

  get size(): number {
    return this.entries.size;
  }
}
