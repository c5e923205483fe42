"use client";

import { useMemo } from "react";
import { useQuery } from "@tanstack/react-query";
import { useQueryStates } from "nuqs";
import { Download, ScrollText } from "lucide-react";
import type { AuditEventView } from "@/lib/views/audit";
import { AUDIT_FILTER_ACTIONS } from "@/lib/audit-actions";
import { auditActionIn, auditActionLabel, auditSentence, type AuditEventKind } from "@/lib/audit-words";
import { matchesText } from "@/lib/url-state/filters";
import { Timestamp } from "@/components/format/business-date";
import { Button } from "@/components/ui/button";
import { EmptyState, ProblemState, SkeletonRows } from "@/components/ui/states";
import { Table, Td, Th } from "@/components/ui/table";
import { FilterBar, FilterSelect, FilterText } from "@/components/list-controls/controls";
import { errorText } from "@/components/data/error-text";
import { auditFilterParsers, auditLogQueries } from "./audit-queries";

/**
 * The audit log: who did what, when, on which object and
 * company, with the outcome and details (reason, batch); filters in the
 * URL; CSV export of the rows shown (formula-escaped text).
 */
export function AuditLog({ companies }: { companies: { id: string; name: string }[] }) {
  const [f, setF] = useQueryStates(auditFilterParsers, { shallow: true, history: "replace" });
  const q = useQuery(auditLogQueries.list(f.action, f.events));
  const names = useMemo(() => new Map(companies.map((c) => [c.id, c.name])), [companies]);
  const rows = useMemo(
    () =>
      (q.data?.items ?? []).filter(
        (e) =>
          matchesText(f.user, e.user_email, e.user_name ?? "") &&
          matchesText(f.object, e.object_id, e.object_type, String(e.details.batch_id ?? "")) &&
          (!f.company || e.company_id === f.company),
      ),
    [q.data, f.user, f.object, f.company],
  );

  return (
    <div>
      <EventKindSwitch value={f.events} onChange={(events) => void setF({ events, action: null })} />
      <FilterBar
        actions={
          <Button
            onClick={() => void exportAuditCsv(rows, names)}
            disabled={rows.length === 0}
            data-testid="audit-export"
          >
            <Download className="size-4" aria-hidden /> Export CSV
          </Button>
        }
      >
        <FilterSelect
          label="Action"
          value={f.action}
          options={AUDIT_FILTER_ACTIONS.filter((a) => auditActionIn(a, f.events)).map((a) => ({
            value: a,
            label: auditActionLabel(a),
          }))}
          onChange={(v) => void setF({ action: v })}
          anyLabel="Any action"
          testId="audit-action"
        />
        <FilterText
          label="User"
          value={f.user}
          onChange={(v) => void setF({ user: v })}
          placeholder="name or e-mail"
          testId="audit-user"
        />
        <FilterText
          label="Object"
          value={f.object}
          onChange={(v) => void setF({ object: v })}
          placeholder="id or type"
        />
        <FilterSelect
          label="Company"
          value={f.company}
          options={companies.map((c) => ({ value: c.id, label: c.name }))}
          onChange={(v) => void setF({ company: v })}
          anyLabel="Any company"
        />
      </FilterBar>
      {q.isPending ? (
        <SkeletonRows />
      ) : q.isError ? (
        <ProblemState title="The audit log could not be loaded" message={errorText(q.error, "Loading the audit log")} />
      ) : rows.length === 0 ? (
        <EmptyState title="No audit events match" icon={ScrollText}>
          {f.events === "business"
            ? "Changes made through the dashboard are recorded here; sign-ins are under “Sign-ins and sessions”."
            : "Sign-ins and changes made through the dashboard are recorded here."}
        </EmptyState>
      ) : (
        <AuditTable rows={rows} names={names} />
      )}
      <p className="mt-2 text-xs text-slate-500">
        {rows.length} events shown (the newest 500{f.action ? ` of “${auditActionLabel(f.action)}”` : ""}).
      </p>
    </div>
  );
}

const KINDS: { value: AuditEventKind; label: string }[] = [
  { value: "business", label: "Business events" },
  { value: "sessions", label: "Sign-ins and sessions" },
  { value: "all", label: "All" },
];

/** Business events (the default), sign-ins and sessions, or all: one click each. */
function EventKindSwitch({ value, onChange }: { value: AuditEventKind; onChange: (v: AuditEventKind) => void }) {
  return (
    <div
      role="group"
      aria-label="Events shown"
      className="mb-3 inline-flex rounded-md border border-slate-300 bg-white p-0.5"
    >
      {KINDS.map((k) => (
        <button
          key={k.value}
          type="button"
          aria-pressed={value === k.value}
          onClick={() => onChange(k.value)}
          data-testid={`audit-kind-${k.value}`}
          className={
            "rounded px-2.5 py-1 text-[13px] font-medium " +
            (value === k.value ? "bg-slate-900 text-white" : "text-slate-700 hover:bg-slate-100")
          }
        >
          {k.label}
        </button>
      ))}
    </div>
  );
}

/** The reason and the batch of an event, when it has them. */
function detail(e: AuditEventView): string {
  return [
    typeof e.details.reason === "string" ? `reason: ${e.details.reason}` : "",
    typeof e.details.batch_id === "string" ? `batch ${e.details.batch_id.slice(0, 8)}` : "",
  ]
    .filter(Boolean)
    .join(" · ");
}

/** Downloads the rows shown as CSV, text cells formula-escaped. */
async function exportAuditCsv(rows: AuditEventView[], names: Map<string, string>) {
  // papaparse is loaded for the export only, not with the page.
  const { toCsv } = await import("@/lib/csv/csv-stream");
  const csv = toCsv(
    rows,
    [
      { header: "time", value: (e) => e.at },
      { header: "user", value: (e) => e.user_email },
      { header: "user_name", value: (e) => e.user_name ?? "" },
      { header: "action", value: (e) => e.action },
      { header: "what", value: (e) => auditSentence(e) },
      { header: "object_type", value: (e) => e.object_type },
      { header: "object_id", value: (e) => e.object_id },
      {
        header: "company",
        value: (e) => (e.company_id ? (names.get(e.company_id) ?? e.company_id) : ""),
      },
      { header: "outcome", value: (e) => e.outcome },
      { header: "details", value: (e) => JSON.stringify(e.details) },
      { header: "idempotency_key", value: (e) => e.idempotency_key },
      { header: "request_id", value: (e) => e.request_id },
    ],
    true,
  );
  const url = URL.createObjectURL(new Blob([csv], { type: "text/csv;charset=utf-8" }));
  const a = Object.assign(document.createElement("a"), {
    href: url,
    download: `audit-${new Date().toISOString().slice(0, 10)}.csv`,
  });
  a.click();
  URL.revokeObjectURL(url);
}
function AuditTable({ rows, names }: { rows: AuditEventView[]; names: Map<string, string> }) {
  return (
    <Table label="Audit events">
      <thead>
        <tr>
          <Th>Time</Th>
          <Th>User</Th>
          <Th>What</Th>
          <Th>Object</Th>
          <Th>Company</Th>
          <Th>Outcome</Th>
          <Th>Details</Th>
        </tr>
      </thead>
      <tbody>
        {rows.map((e) => (
          <tr
            key={e.id}
            data-testid="audit-row"
            data-action={e.action}
            data-user={e.user_email}
            data-object={e.object_id ?? ""}
          >
            {/* On a phone the pinned time wraps (date above time) rather than taking half the screen. */}
            <Td className="text-slate-600 max-md:w-32 max-md:[&_time]:whitespace-normal">
              <Timestamp value={e.at} seconds zone />
            </Td>
            <Td title={e.user_email}>{e.user_name ?? e.user_email}</Td>
            {/* The action in words; its code in the tooltip (and in the CSV). */}
            <Td title={e.action} data-testid="audit-what">
              {auditSentence(e)}
            </Td>
            <Td mono title={e.object_id ?? undefined}>
              {e.object_type}
              {typeof e.details.reference === "string"
                ? ` “${e.details.reference}”`
                : e.object_id
                  ? ` ${e.object_id.slice(0, 8)}`
                  : ""}
            </Td>
            <Td>{e.company_id ? (names.get(e.company_id) ?? e.company_id.slice(0, 8)) : "—"}</Td>
            <Td>{e.outcome}</Td>
            <Td className="max-w-72 text-slate-600">{detail(e) || "—"}</Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
