"use client";

import { QueryClientProvider } from "@tanstack/react-query";
import { NuqsAdapter } from "nuqs/adapters/next/app";
import type { ReactNode } from "react";
import { getQueryClient } from "./data/query-client";
import { Toaster } from "./ui/toaster";

/**
 * Client-side providers: React Query (with hydration from server prefetches), URL state (nuqs) and toasts (sonner,
 * loaded after hydration).
 */
export function Providers({ children }: { children: ReactNode }) {
  const queryClient = getQueryClient();
  return (
    <QueryClientProvider client={queryClient}>
      <NuqsAdapter>{children}</NuqsAdapter>
      <Toaster position="bottom-right" closeButton />
    </QueryClientProvider>
  );
}
