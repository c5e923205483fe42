import { SkeletonRows } from "@/components/ui/states";

export default function Loading() {
  return (
    <div className="max-w-5xl">
      <div className="mb-5 h-6 w-48 animate-pulse rounded bg-slate-200" />
      <SkeletonRows rows={8} />
    </div>
  );
}
