/**
 * QueryClient factory (a new client per server request, one in the
 * browser; never retry 401/403/404; a 401 sends the user to sign-in).
 */
import { QueryCache, QueryClient, isServer } from "@tanstack/react-query";
import { BffRequestError } from "./bff-fetch";

const NO_RETRY = new Set([400, 401, 403, 404, 409]);

export function makeQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (err) => {
        if (!isServer && err instanceof BffRequestError && err.status === 401) {
          window.location.assign(
            `/login?callbackUrl=${encodeURIComponent(window.location.pathname + window.location.search)}`,
          );
        }
      },
    }),
    defaultOptions: {
      queries: {
        // Server-prefetched data is fresh for 30 s, so hydration does not refetch at once.
        staleTime: 30_000,
        retry: (count, err) => !(err instanceof BffRequestError && NO_RETRY.has(err.status)) && count < 2,
        refetchOnWindowFocus: false,
      },
      mutations: { retry: false },
    },
  });
}

let browserClient: QueryClient | undefined;

/** The browser's single QueryClient, or a fresh one on the server. */
export function getQueryClient(): QueryClient {
  if (isServer) return makeQueryClient();
  browserClient ??= makeQueryClient();
  return browserClient;
}
