import type { ReactNode } from "react";
import { Landmark } from "lucide-react";

/**
 * The frame of a page outside the dashboard (sign-in, an invitation link): the product's name above a card titled
 * `title` holding `children` (the form), then `after` (e.g. the demo accounts) under the card.
 */
export function AuthCard({ title, children, after }: { title: string; children: ReactNode; after?: ReactNode }) {
  return (
    <main className="flex min-h-full items-center justify-center px-4 py-16">
      <div className="w-full max-w-sm">
        <div className="mb-6 flex items-center gap-2">
          <Landmark className="size-6 text-sky-700" aria-hidden />
          <h1 className="text-lg font-semibold tracking-tight">Treasury Dashboard</h1>
        </div>
        <div className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
          <h2 className="mb-4 text-sm font-semibold text-slate-900">{title}</h2>
          {children}
        </div>
        {after}
      </div>
    </main>
  );
}
