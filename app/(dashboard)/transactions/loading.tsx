import { SkeletonRows } from "@/components/ui/states";

/** Transactions skeleton. */
export default function Loading() {
  return (
    <div className="max-w-7xl" aria-busy="true">
      <div className="mb-5 h-6 w-44 animate-pulse rounded bg-slate-200" />
      <div className="mb-3 h-12 w-full max-w-3xl animate-pulse rounded bg-slate-200/70" />
      <SkeletonRows rows={14} />
    </div>
  );
}
