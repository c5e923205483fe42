import { SkeletonRows } from "@/components/ui/states";

/** Accounts skeleton: header, filter bar and table rows. */
export default function Loading() {
  return (
    <div className="max-w-7xl" aria-busy="true">
      <div className="mb-5 h-6 w-40 animate-pulse rounded bg-slate-200" />
      <div className="mb-3 flex gap-3">
        {[0, 1, 2, 3].map((i) => (
          <div key={i} className="h-12 w-36 animate-pulse rounded bg-slate-200/70" />
        ))}
      </div>
      <SkeletonRows rows={10} />
    </div>
  );
}
