import type { LucideIcon } from "lucide-react";
import { AlertTriangle, Inbox, Lock } from "lucide-react";
import type { ReactNode } from "react";

/** A calm empty state: what is missing, and what will appear here. */
export function EmptyState({
  title,
  children,
  icon: Icon = Inbox,
  action,
}: {
  title: string;
  children?: ReactNode;
  icon?: LucideIcon;
  action?: ReactNode;
}) {
  return (
    <div
      className={
        "flex flex-col items-center justify-center rounded-lg border border-dashed border-slate-300 " +
        "bg-white px-6 py-12 text-center"
      }
      data-testid="empty-state"
    >
      <Icon className="mb-3 size-6 text-slate-400" aria-hidden />
      <h2 className="text-sm font-semibold text-slate-900">{title}</h2>
      {children && <div className="mt-1 max-w-md text-[13px] text-slate-600">{children}</div>}
      {action && <div className="mt-4">{action}</div>}
    </div>
  );
}

/** What a problem state says: its title, the message and the request id support can look the request up by. */
export interface ProblemText {
  title: string;
  message: string;
  requestId?: string;
}

/** An error or no-access state; shows the request id so support can find the request. */
export function ProblemState({
  title,
  message,
  requestId,
  kind = "error",
}: ProblemText & { kind?: "error" | "forbidden" }) {
  const Icon = kind === "forbidden" ? Lock : AlertTriangle;
  return (
    <div role="alert" className="rounded-lg border border-amber-200 bg-amber-50 px-5 py-4" data-testid="problem-state">
      <div className="flex items-start gap-3">
        <Icon className="mt-0.5 size-4 shrink-0 text-amber-700" aria-hidden />
        <div>
          <h2 className="text-sm font-semibold text-amber-900">{title}</h2>
          <p className="mt-0.5 text-[13px] text-amber-900/80">{message}</p>
          {requestId && <p className="mt-2 font-mono text-xs text-amber-900/60">Request id: {requestId}</p>}
        </div>
      </div>
    </div>
  );
}

/** Page title row. */
export function PageHeader({
  title,
  description,
  actions,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <div className="mb-5 flex items-end justify-between gap-4">
      <div>
        <h1 className="text-lg font-semibold tracking-tight text-slate-900">{title}</h1>
        {description && <p className="mt-0.5 text-[13px] text-slate-600">{description}</p>}
      </div>
      {actions}
    </div>
  );
}

/** Placeholder rows while a view loads. */
export function SkeletonRows({ rows = 6 }: { rows?: number }) {
  return (
    <div className="space-y-2" aria-busy="true" aria-label="Loading">
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="h-8 animate-pulse rounded bg-slate-200/70" />
      ))}
    </div>
  );
}
