/**
 * Server prefetch into the query cache, the TanStack pattern: a page loads a
 * resource on the server under the same query options the client component
 * later reads with `useQuery(options)`, so the first render needs no fetch.
 */
import type { DataTag, QueryClient, QueryKey } from "@tanstack/react-query";

/**
 * Runs the server's `load` and, when it succeeded, seeds `qc` under
 * `options.queryKey`, ready for the page's `<HydrationBoundary state={dehydrate(qc)}>`.
 * The key carries the query's data type, so a loader returning anything else
 * is a type error. A failed load seeds nothing: the client component then
 * fetches on its own and shows its error state, or the page renders the
 * returned problem itself.
 * @param qc the request's QueryClient (`getQueryClient()` on the server).
 * @param options query options from the resource's module (only the key is used).
 * @param load the page loader, e.g. `() => loadData(ctx, () => getBatchView(ctx, id))`.
 * @returns the load's result unchanged, `{ ok: true, data }` or the problem.
 */
export async function hydrate<TData, TKey extends QueryKey, R extends { ok: true; data: TData } | { ok: false }>(
  qc: QueryClient,
  options: { queryKey: DataTag<TKey, TData, unknown> },
  load: () => Promise<R>,
): Promise<R> {
  const loaded: R = await load();
  const result: { ok: true; data: TData } | { ok: false } = loaded;
  if (result.ok) qc.setQueryData<TData>(options.queryKey, result.data);
  return loaded;
}
