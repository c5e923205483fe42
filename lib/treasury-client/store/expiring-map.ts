/**
 * The in-process map with a time to live per entry that every per-instance
 * cache of the dashboard is built on: the memory shared store (upstream
 * cache values, locks, counters), the BFF's derived-value `TtlCache`.
 *
 * - An entry lives `ttlMs` from its `set`; an expired entry reads as absent.
 * - At most `maxEntries` keys; the oldest set is dropped first (insertion order).
 * - Pure and synchronous; `now` is injectable for tests.
 */
export class ExpiringMap<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();

  /** @param opts.maxEntries bound on keys (oldest dropped first); `now` returns epoch ms. */
  constructor(private readonly opts: { maxEntries: number; now?: () => number }) {}

  private now(): number {
    return (this.opts.now ?? Date.now)();
  }

  /** The live value of `key`, or undefined (an expired entry is removed). */
  get(key: string): V | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (this.now() >= e.expiresAt) {
      this.entries.delete(key);
      return undefined;
    }
    return e.value;
  }

  /** Stores `value` for `ttlMs` milliseconds (re-inserted at the young end). */
  set(key: string, value: V, ttlMs: number): void {
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: this.now() + ttlMs });
    while (this.entries.size > this.opts.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
    }
  }

  /** Removes `key`; true when it was there. */
  delete(key: string): boolean {
    return this.entries.delete(key);
  }

  /** Removes every key starting with `prefix`. */
  deletePrefix(prefix: string): void {
    for (const k of [...this.entries.keys()]) if (k.startsWith(prefix)) this.entries.delete(k);
  }

  /** Keys held, expired ones included until they are read or evicted. */
  get size(): number {
    return this.entries.size;
  }
}
