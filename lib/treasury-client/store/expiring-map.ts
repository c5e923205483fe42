/**
 * The in-process map with a time to live per entry that every per-instance
 * cache of the dashboard is built on: the memory shared store (upstream
 * cache values, locks, counters), the BFF's derived-value `TtlCache`.
 *
 * - An entry lives `ttlMs` from its `set`; an expired entry reads as absent.
 * - At most `maxEntries` keys and, with `weigh`, at most `maxWeight` in total
 *   (e.g. characters of JSON); the oldest set is dropped first (insertion order).
 * - Pure and synchronous; `now` is injectable for tests.
 */
export class ExpiringMap<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number; weight: number }>();
  private weight = 0;

  /**
   * @param opts.maxEntries bound on keys (oldest dropped first); `weigh` / `maxWeight` bound the total weight;
   * `now` returns epoch ms.
   */
  constructor(
    private readonly opts: { maxEntries: number; now?: () => number; weigh?: (v: V) => number; maxWeight?: number },
  ) {}

  private now(): number {
    return (this.opts.now ?? Date.now)();
  }

  /** The live value of `key`, or undefined (an expired entry is removed). */
  get(key: string): V | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (this.now() >= e.expiresAt) {
      this.delete(key);
      return undefined;
    }
    return e.value;
  }

  /** Stores `value` for `ttlMs` milliseconds (re-inserted at the young end). */
  set(key: string, value: V, ttlMs: number): void {
    this.delete(key);
    const weight = this.opts.weigh?.(value) ?? 0;
    this.entries.set(key, { value, expiresAt: this.now() + ttlMs, weight });
    this.weight += weight;
    const maxWeight = this.opts.maxWeight ?? Infinity;
    while (this.entries.size > this.opts.maxEntries || this.weight > maxWeight) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.delete(oldest.value);
    }
  }

  /** Removes `key`; true when it was there. */
  delete(key: string): boolean {
    const e = this.entries.get(key);
    if (!e) return false;
    this.weight -= e.weight;
    return this.entries.delete(key);
  }

  /** Removes every key starting with `prefix`. */
  deletePrefix(prefix: string): void {
    for (const k of [...this.entries.keys()]) if (k.startsWith(prefix)) this.delete(k);
  }

  /** The total weight held (0 without `weigh`). */
  get totalWeight(): number {
    return this.weight;
  }

  /** Keys held, expired ones included until they are read or evicted. */
  get size(): number {
    return this.entries.size;
  }
}
