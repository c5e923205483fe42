"use client";

import dynamic from "next/dynamic";

/**
 * sonner's `<Toaster />`, loaded after hydration (client only) so that no
 * page ships it in its first-load JS; toasts are raised through
 * `components/ui/toast.ts`.
 */
export const Toaster = dynamic(() => import("sonner").then((m) => m.Toaster), { ssr: false });
