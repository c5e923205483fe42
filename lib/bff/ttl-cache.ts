/**
 * A small in-process cache of promises with a time to live, for upstream
 * reads that several views repeat within seconds (the accounts list reads
 * every account's balances and coverage when a filter or sort spans all
 * accounts; spec §8 rate limits apply per client, so each such read is
 * kept for a short while instead of being sent again on every click).
 *
 * - The promise is stored at once, so concurrent callers share one load.
 * - A load that rejects is dropped, so the next caller tries again.
 * - At most `maxEntries` keys; the oldest is dropped first.
 * Per instance only (the dashboard is stateless and may run several
 * instances; a cache miss on another instance only costs a read).
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, { at: number; value: Promise<V> }>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  /** @param opts.ttlMs lifetime of an entry in milliseconds; `now` is injectable for tests. */
  constructor(opts: { ttlMs: number; maxEntries: number; now?: () => number }) {
    this.ttlMs = opts.ttlMs;
    this.maxEntries = opts.maxEntries;
    this.now = opts.now ?? Date.now;
  }

  /** The cached value of `key`, or the result of `load()` (stored for `ttlMs`). Rejects as `load` does. */
  get(key: string, load: () => Promise<V>): Promise<V> {
    const t = this.now();
    const hit = this.entries.get(key);
    if (hit && t - hit.at < this.ttlMs) return hit.value;
    if (hit) this.entries.delete(key);
    const value = load();
    this.entries.set(key, { at: t, value });
    value.catch(() => {
      if (this.entries.get(key)?.value === value) this.entries.delete(key);
    });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
    }
    return value;
  }

  /** Drops every key that starts with `prefix` (e.g. one company's entries after a write). */
  dropPrefix(prefix: string): void {
    for (const k of [...this.entries.keys()]) if (k.startsWith(prefix)) this.entries.delete(k);
  }

  get size(): number {
    return this.entries.size;
  }
}
