/** Report skeleton: tabs, range picker, a chart and a table per currency. */
export default function Loading() {
  return (
    <div className="max-w-6xl space-y-4" aria-busy="true">
      <div className="h-6 w-32 animate-pulse rounded bg-slate-200" />
      <div className="h-9 w-72 animate-pulse rounded bg-slate-200/70" />
      <div className="h-[270px] animate-pulse rounded-lg bg-slate-200/70" />
      <div className="h-48 animate-pulse rounded-lg bg-slate-200/50" />
    </div>
  );
}
