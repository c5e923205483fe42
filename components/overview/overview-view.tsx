"use client";

import Link from "next/link";
import { ArrowRight, Plus } from "lucide-react";
import type { OverviewView } from "@/lib/views/overview";
import { groupByCurrency } from "@/components/charts/series";
import { PositionChart } from "@/components/charts/lazy";
import { BatchName } from "@/components/payments/batch-name";
import { Amount } from "@/components/format/amount";
import { BusinessDate, Timestamp } from "@/components/format/business-date";
import { EmptyState } from "@/components/ui/states";
import { buttonClass } from "@/components/ui/button";

/**
 * The overview's "New batch" action (for a role with payments.write; the page decides): the batch editor one click
 * from the first page, rather than through Payments (docs/architecture.md#phones counts the clicks).
 */
export function NewBatchLink() {
  return (
    <Link href="/payments/new" className={buttonClass("primary", "shrink-0")} data-testid="overview-new-batch">
      <Plus className="size-4" aria-hidden /> New batch
    </Link>
  );
}

type CountValue = OverviewView["counts"][keyof OverviewView["counts"]];

function CountCard({ label, count, testId }: { label: string; count: CountValue; testId: string }) {
  if (count === "not_allowed") return null;
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4">
      <div className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</div>
      {count === null ? (
        <div className="mt-1 text-[13px] text-slate-500">Not available right now</div>
      ) : (
        <Link
          href={count.href}
          className="mt-1 flex items-center justify-between text-2xl font-semibold text-slate-900 hover:text-sky-700"
          data-testid={testId}
        >
          <span className="tabular">{count.value}</span>
          <ArrowRight className="size-4 text-slate-400" aria-label={`Open ${label.toLowerCase()}`} />
        </Link>
      )}
    </div>
  );
}

const STATUS_STYLE: Record<string, string> = {
  settled: "bg-emerald-50 text-emerald-800",
  accepted: "bg-sky-50 text-sky-800",
  pending: "bg-slate-100 text-slate-700",
  rejected: "bg-red-50 text-red-800",
  cancelled: "bg-slate-100 text-slate-600",
};

/**
 * The overview: positions per currency with the change, a 30-day chart per currency, counts that link onward and the
 * latest payment events.
 */
export function OverviewPanel({ data }: { data: OverviewView }) {
  const charts = groupByCurrency(data.history);
  return (
    <div className="space-y-6">
      {data.unavailable.length > 0 && (
        <p
          role="status"
          className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-[13px] text-amber-900"
        >
          Some parts could not be loaded ({data.unavailable.join(", ")}). The rest is current; reload to try again.
        </p>
      )}
      <section aria-labelledby="cash-h">
        <h2 id="cash-h" className="mb-2 text-sm font-semibold text-slate-900">
          Cash position per currency
        </h2>
        {data.positions.length === 0 ? (
          <EmptyState title="No positions yet">Positions appear once the banks report closing balances.</EmptyState>
        ) : (
          <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
            {data.positions.map((p) => (
              <div
                key={p.currency}
                className="rounded-lg border border-slate-200 bg-white p-4"
                data-testid={`position-${p.currency}`}
              >
                <div className="text-xs font-medium uppercase tracking-wide text-slate-500">{p.currency}</div>
                <div className="mt-1 text-xl font-semibold" data-testid={`position-balance-${p.currency}`}>
                  <Amount value={p.balance} currency={p.currency} />
                </div>
                <div className="mt-0.5 flex flex-wrap items-center gap-x-2 text-xs text-slate-500">
                  <span>
                    Closing booked, <BusinessDate date={p.date} />
                  </span>
                  {p.change !== null && (
                    <span data-testid={`position-change-${p.currency}`}>
                      <Amount value={p.change} currency={p.currency} signed /> vs. day before
                    </span>
                  )}
                </div>
              </div>
            ))}
          </div>
        )}
      </section>
      <section aria-labelledby="counts-h">
        <h2 id="counts-h" className="sr-only">
          Work waiting
        </h2>
        <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
          <CountCard label="Approvals waiting for me" count={data.counts.approvals} testId="count-approvals" />
          <CountCard label="Proposed matches" count={data.counts.proposedMatches} testId="count-matches" />
          <CountCard label="Batches in processing" count={data.counts.processingBatches} testId="count-batches" />
          <CountCard
            label="Accounts with statement gaps (7 days)"
            count={data.counts.accountsMissingCoverage}
            testId="count-coverage"
          />
        </div>
      </section>
      {charts.length > 0 && (
        <section aria-labelledby="trend-h">
          <h2 id="trend-h" className="mb-2 text-sm font-semibold text-slate-900">
            Last 30 days
          </h2>
          <div className="grid gap-3 lg:grid-cols-2">
            {charts.map(([currency, rows]) => (
              <PositionChart key={currency} rows={rows} currency={currency} height={180} />
            ))}
          </div>
        </section>
      )}
      <section aria-labelledby="events-h">
        <h2 id="events-h" className="mb-2 text-sm font-semibold text-slate-900">
          Latest payment status events
        </h2>
        {data.events === null ? (
          <p className="text-[13px] text-slate-500">Payment events are not available right now.</p>
        ) : data.events.length === 0 ? (
          <EmptyState title="No payment events yet">Status updates of submitted payments appear here.</EmptyState>
        ) : (
          <ul
            className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white text-[13px]"
            data-testid="events"
          >
            {data.events.map((e) => (
              <li
                key={e.id}
                className="flex flex-wrap items-start justify-between gap-x-3 gap-y-0.5 px-3 py-2 sm:flex-nowrap sm:items-center"
              >
                <span
                  className={`rounded px-1.5 py-0.5 text-xs font-medium ${STATUS_STYLE[e.status] ?? "bg-slate-100"}`}
                >
                  {e.status}
                </span>
                {/* On a phone the subject wraps (payee, amount, batch and company all read) and the time takes its own line. */}
                <span className="min-w-0 flex-1 text-slate-800 sm:truncate" data-testid="event-subject">
                  {e.payee ?? <span className="font-mono text-xs">instruction {e.instruction_id.slice(0, 8)}</span>}
                  {e.amount && e.currency && (
                    <>
                      {" · "}
                      <Amount value={e.amount} currency={e.currency} />
                    </>
                  )}
                  {e.batch_id && (
                    <span className="text-slate-600">
                      {" · "}
                      <Link
                        href={`/payments/${e.batch_id}`}
                        className="text-sky-800 underline-offset-2 hover:underline"
                        data-testid="event-batch"
                      >
                        <BatchName id={e.batch_id} reference={e.batch_reference} />
                      </Link>
                    </span>
                  )}
                  {e.company_name && <span className="text-slate-600"> · {e.company_name}</span>}
                </span>
                <span className="basis-full pl-0.5 text-xs text-slate-600 sm:basis-auto sm:pl-0 sm:text-[13px]">
                  <Timestamp value={e.occurred_at} />
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
