"use client";

import { useQuery } from "@tanstack/react-query";
import { ArrowRight } from "lucide-react";
import type { CounterpartyHistoryView, CounterpartyView } from "@/lib/views/counterparties";
import { COUNTERPARTY_STATUS_LABEL } from "@/lib/views/counterparties";
import { Timestamp } from "@/components/format/business-date";
import { errorText } from "@/components/data/error-text";
import { Button } from "@/components/ui/button";
import { ProblemState, SkeletonRows } from "@/components/ui/states";
import { counterpartyQueries } from "./counterparty-queries";
import type { CounterpartyDecision } from "./decision-dialog";
import { formatIban } from "./status-badge";

const EVENT_WORDS: Record<CounterpartyHistoryView["event"], string> = {
  created: "Created",
  bank_details_changed: "Bank details changed",
  verified: "Verified",
  rejected: "Rejected",
  disabled: "Disabled",
};

/** What the viewer may do with a counterparty (the server decides again on every request). */
export interface CounterpartyPermissions {
  manage: boolean;
  verify: boolean;
}

/**
 * The expanded row of a counterparty: its other fields, the actions the
 * viewer may take, and its history — each change with old → new IBAN / BIC,
 * who made it, when (in the viewer's time zone) and why.
 */
export function CounterpartyDetail({
  counterparty: c,
  may,
  onAction,
}: {
  counterparty: CounterpartyView;
  may: CounterpartyPermissions;
  onAction: (a: CounterpartyDecision | "edit") => void;
}) {
  const q = useQuery(counterpartyQueries.detail(c.id));
  const pending = c.status === "pending_verification";
  const changeable = c.status !== "disabled";
  return (
    <div className="space-y-4" data-testid="counterparty-detail">
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-[13px] sm:grid-cols-[auto_1fr_auto_1fr]">
        <dt className="text-slate-600 md:hidden">BIC</dt>
        <dd className="font-mono text-xs md:hidden">{c.bic ?? "—"}</dd>
        <dt className="text-slate-600 md:hidden">Country</dt>
        <dd className="md:hidden">{c.country}</dd>
        <dt className="text-slate-600">LEI</dt>
        <dd className="font-mono text-xs">{c.lei ?? "—"}</dd>
        <dt className="text-slate-600">Org. number</dt>
        <dd>{c.orgnr ?? "—"}</dd>
        <dt className="text-slate-600">Remittance</dt>
        <dd className="break-words">{c.defaultRemittance ?? "—"}</dd>
        <dt className="text-slate-600">Created</dt>
        <dd>
          <Timestamp value={c.createdAt} />
        </dd>
      </dl>
      {(may.manage || may.verify) && (
        <div className="flex flex-wrap items-center gap-2">
          {pending && may.verify && !c.viewerIsMaker && (
            <>
              <Button variant="primary" onClick={() => onAction("verify")} data-testid="verify-counterparty">
                Verify
              </Button>
              <Button onClick={() => onAction("reject")} data-testid="reject-counterparty">
                Reject
              </Button>
            </>
          )}
          {pending && may.verify && c.viewerIsMaker && (
            <p
              className={
                "rounded-md bg-amber-50 px-2.5 py-1.5 " + "text-[13px] text-amber-900 ring-1 ring-inset ring-amber-200"
              }
              data-testid="maker-note"
            >
              You created this counterparty or changed its bank details, so someone else must verify it.
            </p>
          )}
          {may.manage && changeable && (
            <>
              <Button onClick={() => onAction("edit")} data-testid="edit-counterparty">
                Change bank details
              </Button>
              <Button variant="ghost" className="text-red-700" onClick={() => onAction("disable")}>
                Disable
              </Button>
            </>
          )}
        </div>
      )}
      <section aria-label={`History of ${c.name}`}>
        <h3 className="mb-2 text-xs font-semibold uppercase tracking-wide text-slate-500">History</h3>
        {q.isPending ? (
          <SkeletonRows rows={2} />
        ) : q.isError ? (
          <ProblemState title="The history could not be loaded" message={errorText(q.error, "Loading the history")} />
        ) : (
          <ol className="space-y-2" data-testid="counterparty-history">
            {[...q.data.history].reverse().map((h) => (
              <HistoryItem key={h.id} h={h} />
            ))}
          </ol>
        )}
      </section>
    </div>
  );
}

function HistoryItem({ h }: { h: CounterpartyHistoryView }) {
  const ibanChanged = h.event === "bank_details_changed" && h.oldIban !== h.newIban;
  const bicChanged = h.event === "bank_details_changed" && h.oldBic !== h.newBic;
  return (
    <li
      className="rounded-md border border-slate-200 bg-white px-3 py-2 text-[13px]"
      data-testid="history-entry"
      data-event={h.event}
    >
      <div className="flex flex-wrap items-baseline justify-between gap-x-3">
        <span className="font-medium text-slate-900">{EVENT_WORDS[h.event]}</span>
        <span className="break-all text-xs text-slate-600">
          {h.byEmail} · <Timestamp value={h.at} />
        </span>
      </div>
      {h.event === "created" && h.newIban && (
        <p className="mt-1 break-all font-mono text-xs text-slate-700">
          {formatIban(h.newIban)}
          {h.newBic ? ` · ${h.newBic}` : ""}
        </p>
      )}
      {ibanChanged && (
        <p className="mt-1 flex flex-wrap items-center gap-1.5 font-mono text-xs" data-testid="iban-change">
          <span className="text-slate-500 line-through decoration-slate-400">{formatIban(h.oldIban ?? "")}</span>
          <ArrowRight className="size-3 text-slate-500" aria-label="changed to" />
          <span className="font-semibold text-slate-900">{formatIban(h.newIban ?? "")}</span>
        </p>
      )}
      {bicChanged && (
        <p className="mt-1 flex items-center gap-1.5 font-mono text-xs">
          BIC {h.oldBic ?? "none"} <ArrowRight className="size-3 text-slate-500" aria-label="changed to" />{" "}
          {h.newBic ?? "none"}
        </p>
      )}
      {h.oldStatus && h.oldStatus !== h.newStatus && (
        <p className="mt-1 text-xs text-slate-600">
          {COUNTERPARTY_STATUS_LABEL[h.oldStatus]} → {COUNTERPARTY_STATUS_LABEL[h.newStatus]}
        </p>
      )}
      {h.reason && <p className="mt-1 text-slate-700">“{h.reason}”</p>}
    </li>
  );
}
