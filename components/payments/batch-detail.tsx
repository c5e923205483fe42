"use client";

import Link from "next/link";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useQuery } from "@tanstack/react-query";
import { ArrowLeft, Pencil, Send, Trash2 } from "lucide-react";
import type { PaymentInstruction } from "@treasury/contract";
import type { BatchView } from "@/lib/views/payments";
import { Amount } from "@/components/format/amount";
import { BusinessDate, Timestamp } from "@/components/format/business-date";
import { Button, buttonClass } from "@/components/ui/button";
import { PageHeader, ProblemState, SkeletonRows } from "@/components/ui/states";
import { Table, Td, Th } from "@/components/ui/table";
import { errorText } from "@/components/data/error-text";
import { BatchRiskPanel } from "@/components/approvals/risk-signals";
import { BatchTimeline } from "./batch-timeline";
import { batchLabel } from "./batch-name";
import { ApprovalProgressPanel } from "./approval-progress";
import { paymentQueries } from "./payment-queries";
import { Pain001Panel } from "./pain001-panel";
import { MOVING_STATES, StatusBadge } from "./status-badge";
import { rejectionReasons, type RejectionReason } from "@/lib/views/rejection-reasons";
import { SubmitBatchDialog } from "./submit-batch-dialog";
import { SUBMIT_PARAM } from "./use-save-batch";
import { DiscardBatchDialog } from "./discard-batch-dialog";
import { PayeeFlag } from "./payee-typeahead";
import { BankDeliveryLine } from "./bank-delivery";
import { BackLink } from "@/components/ui/back-link";

/**
 * Opens the submit dialog once when the page was opened with `?submit=1` and the batch may be submitted
 * (`maySubmit` known), then drops the parameter so that a reload or Back does not open it again.
 */
function useSubmitOnArrival(maySubmit: boolean | undefined, open: () => void): void {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const done = useRef(false);
  const asked = params.get(SUBMIT_PARAM) === "1";
  useEffect(() => {
    if (!asked || done.current || maySubmit === undefined) return;
    done.current = true;
    if (maySubmit) open();
    router.replace(pathname, { scroll: false });
  }, [asked, maySubmit, open, router, pathname]);
}

/**
 * One batch: header figures, its risk signals (also for its creator before
 * submitting), approval progress, the instructions with their status, the
 * pain.001 export and the timeline; live while it moves (the
 * query polls then). Submit is offered only when the user may and the batch
 * is `created`; `?submit=1` (after "Create and submit") opens its dialog once
 * the batch has loaded, and only then (the parameter is dropped either way).
 */
export function BatchDetail({ companyId, id }: { companyId: string; id: string }) {
  const q = useQuery(paymentQueries.view(companyId, id));
  const [submitting, setSubmitting] = useState(false);
  const [discarding, setDiscarding] = useState(false);
  useSubmitOnArrival(q.data?.may_submit, () => setSubmitting(true));
  if (q.isPending) return <SkeletonRows rows={8} />;
  if (q.isError)
    return <ProblemState title="This batch could not be loaded" message={errorText(q.error, "Loading the batch")} />;
  const v = q.data;
  const b = v.batch;
  const moving = MOVING_STATES.includes(b.status);
  return (
    <div className="max-w-6xl">
      <BackLink href="/payments" icon={ArrowLeft}>
        Payments
      </BackLink>
      <PageHeader
        title={batchLabel(b.id, b.reference)}
        description={
          <span className="inline-flex items-center gap-2">
            <StatusBadge status={b.status} />
            {moving && <span className="text-xs text-slate-500">updating live</span>}
          </span>
        }
        actions={
          v.may_submit || v.may_edit || v.may_discard ? (
            <div className="flex flex-wrap items-center gap-2">
              {v.may_discard && (
                <Button onClick={() => setDiscarding(true)} data-testid="discard-batch">
                  <Trash2 className="size-4" aria-hidden /> Discard
                </Button>
              )}
              {v.may_edit && (
                <Link href={`/payments/${b.id}/edit`} className={buttonClass("secondary")} data-testid="edit-batch">
                  <Pencil className="size-4" aria-hidden /> Edit
                </Link>
              )}
              {v.may_submit && (
                <Button variant="primary" onClick={() => setSubmitting(true)} data-testid="submit-batch">
                  <Send className="size-4" aria-hidden /> Submit for approval
                </Button>
              )}
            </div>
          ) : null
        }
      />
      <BatchFigures view={v} />
      <BankDeliveryLine delivery={b.bank_delivery} />
      <section aria-labelledby="risk-h" className="mb-5 rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="risk-h" className="mb-2 text-sm font-semibold text-slate-900">
          Risk signals
        </h2>
        {b.status === "created" && (
          <p className="mb-2 text-[12px] text-slate-600">
            Approvers see these signals too; high-risk ones need their acknowledgement to approve.
          </p>
        )}
        <BatchRiskPanel companyId={companyId} batchId={b.id} />
      </section>
      <div className="grid gap-5 lg:grid-cols-[1fr_22rem]">
        <section aria-labelledby="instructions-h">
          <h2 id="instructions-h" className="mb-2 text-sm font-semibold text-slate-900">
            Instructions
          </h2>
          <InstructionsTable
            instructions={v.instructions}
            standing={v.payee_standing ?? {}}
            reasons={rejectionReasons(v.events)}
          />
        </section>
        <aside aria-label="Batch details" className="space-y-5">
          <Pain001Panel companyId={companyId} batch={b} />
          <SidePanel id="approval-h" title="Approval">
            <ApprovalProgressPanel view={v} />
          </SidePanel>
          <SidePanel id="timeline-h" title="Timeline">
            <BatchTimeline view={v} />
          </SidePanel>
        </aside>
      </div>
      {submitting && <SubmitBatchDialog companyId={companyId} batch={b} onClose={() => setSubmitting(false)} />}
      {discarding && <DiscardBatchDialog batch={b} onClose={() => setDiscarding(false)} />}
    </div>
  );
}

/** Total, count, execution date, creation time and creator, each with a `batch-<label>` test id. */
function BatchFigures({ view }: { view: BatchView }) {
  const b = view.batch;
  const figures: [string, ReactNode][] = [
    ["Total", <Amount key="t" value={b.total_amount} currency={b.currency} className="font-semibold" />],
    [
      "Instructions",
      <span key="c" className="tabular">
        {b.instruction_count}
      </span>,
    ],
    ["Execution date", b.requested_execution_date ? <BusinessDate key="d" date={b.requested_execution_date} /> : "—"],
    ["Created", <Timestamp key="ts" value={b.created_at} />],
    ["Created by", view.created_by ? (view.created_by_name ?? view.created_by) : "unknown"],
  ];
  return (
    <dl
      className={
        "mb-5 grid grid-cols-2 gap-px overflow-hidden " +
        "rounded-lg border border-slate-200 bg-slate-200 text-[13px] md:grid-cols-5"
      }
    >
      {figures.map(([label, value]) => (
        <div key={label} className="bg-white px-4 py-2.5">
          <dt className="text-xs text-slate-500">{label}</dt>
          <dd className="mt-0.5 text-slate-900" data-testid={`batch-${label.toLowerCase().replaceAll(" ", "-")}`}>
            {value}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** The batch's instructions; a rejected one shows the bank's reason code and text under its status. */
function InstructionsTable({
  instructions,
  standing,
  reasons,
}: {
  instructions: PaymentInstruction[];
  standing: NonNullable<BatchView["payee_standing"]>;
  reasons: ReadonlyMap<string, RejectionReason>;
}) {
  const withRemittance = instructions.some((i) => i.remittance_information);
  return (
    <Table label="Instructions">
      <thead>
        <tr>
          <Th>End-to-end id</Th>
          <Th>Creditor</Th>
          <Th>IBAN / BIC</Th>
          {withRemittance && <Th>Remittance</Th>}
          <Th>Status</Th>
          <Th align="right">Amount</Th>
        </tr>
      </thead>
      <tbody>
        {instructions.map((i) => (
          <tr key={i.id} data-testid="instruction-row">
            <Td mono>{i.end_to_end_id}</Td>
            <Td>
              {i.creditor_name}
              {standing[i.id] && standing[i.id] !== "verified" && (
                <span className="mt-0.5 block">
                  <PayeeFlag standing={standing[i.id] ?? null} />
                </span>
              )}
            </Td>
            <Td mono>
              {i.creditor_iban}
              {i.creditor_bic && <span className="block text-xs text-slate-600">{i.creditor_bic}</span>}
            </Td>
            {withRemittance && (
              <Td mono={i.remittance_information?.type === "creditor_reference"}>
                {i.remittance_information?.type === "creditor_reference"
                  ? i.remittance_information.reference
                  : (i.remittance_information?.text ?? "—")}
              </Td>
            )}
            <Td>
              {i.status ? <StatusBadge status={i.status} /> : "—"}
              {i.status === "rejected" && reasons.get(i.id) && (
                <span className="mt-0.5 block text-xs text-red-800" data-testid="instruction-reason">
                  <span className="font-mono">{reasons.get(i.id)?.code}</span>
                  {reasons.get(i.id)?.text ? ` ${reasons.get(i.id)?.text}` : ""}
                </span>
              )}
            </Td>
            <Td align="right">
              <Amount value={i.amount} currency={i.currency} />
            </Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

function SidePanel({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="rounded-lg border border-slate-200 bg-white p-4">
      <h2 id={id} className="mb-2 text-sm font-semibold text-slate-900">
        {title}
      </h2>
      {children}
    </section>
  );
}
