/**
 * Bounded concurrency for fan-out reads (one upstream call per row): keeps
 * the number of calls in flight low, with docs/treasury-api.md#limits rate limits per client in
 * mind.
 */

/**
 * Runs `fn` over `items` with at most `limit` calls in flight; results keep
 * the order of `items`. Rejects with the first error.
 */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  async function worker() {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
