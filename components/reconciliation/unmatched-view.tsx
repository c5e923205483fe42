"use client";

import { useState } from "react";
import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { useQueryStates } from "nuqs";
import * as Tabs from "@radix-ui/react-tabs";
import { CircleCheckBig, Info } from "lucide-react";
import { UNMATCHED_KINDS } from "@treasury/contract/unmatched";
import { statusReasonText } from "@treasury/contract/status-reasons";
import { AGE_BUCKETS, type UnmatchedPage, type UnmatchedRow } from "@/lib/views/unmatched";
import { errorText } from "@/components/data/error-text";
import { Amount, BusinessDate } from "@/components/format/amount";
import { Button } from "@/components/ui/button";
import { EmptyState, ProblemState, SkeletonRows } from "@/components/ui/states";
import { HiddenTh, Table, Td, Th } from "@/components/ui/table";
import { FilterBar, FilterSelect, FilterText, PagerOf } from "@/components/list-controls/controls";
import { unmatchedFilterParsers, unmatchedFilters, unmatchedQueries } from "./unmatched-queries";
import { ManualMatchDialog } from "./manual-match-dialog";

const TAB_TRIGGER =
  "-mb-px min-h-11 border-b-2 border-transparent px-3 py-2 text-[13px] font-medium text-slate-600 " +
  "data-[state=active]:border-slate-900 data-[state=active]:text-slate-900";

const KIND_LABEL = {
  instruction: "Payments without a match",
  transaction: "Bank debits without a match",
  rejected: "Rejected by the bank",
} as const;

/** The tabs' words on a phone, each the start of its full label (which stays the tab's accessible name). */
const KIND_SHORT = { instruction: "Payments", transaction: "Bank debits", rejected: "Rejected" } as const;

/** What an item's date is, per tab (table heading and card caption). */
const DATE_LABEL = { instruction: "settled", transaction: "value date", rejected: "rejected" } as const;

const EMPTY_TEXT = {
  instruction: "Every executed payment in this view has a confirmed match; change the filters to see more.",
  transaction: "Every bank debit in this view has a confirmed match; change the filters to see more.",
  rejected: "The bank has rejected no payment in this view; change the filters to see more.",
} as const;

const SORTS = [
  { value: "newest", label: "Newest first" },
  { value: "amount_desc", label: "Largest amount first" },
  { value: "amount_asc", label: "Smallest amount first" },
];

/** Colours of the age buckets: the older, the more it asks for attention (text stays dark enough for contrast). */
const BUCKET_TONE: Record<string, string> = {
  "0-2": "bg-slate-100 text-slate-700",
  "3-7": "bg-sky-50 text-sky-800",
  "8-30": "bg-amber-50 text-amber-900",
  "31+": "bg-red-50 text-red-800",
};

function useUnmatchedFilters() {
  const [f, setF] = useQueryStates(unmatchedFilterParsers, { shallow: true, history: "replace" });
  return { f, setF, filters: unmatchedFilters(f) };
}

/**
 * The unmatched view: settled payment instructions (first tab) and bank debits (second tab) that no confirmed match
 * explains, and payments the bank rejected with its reason (third tab: never proposed, since no booking will come;
 * docs/guides/reconciliation.md "Rejected by the bank"), with their age in days and age bucket; filters by age bucket, company and search, sorted oldest first
 * or as chosen (all in the URL). A treasurer matches an item by hand with its counterpart when the API can; when it
 * cannot, the view says why instead of offering the action.
 */
export function UnmatchedView({
  mayMatch,
  companies,
  allCompanies,
}: {
  mayMatch: boolean;
  companies: readonly { id: string; name: string }[];
  /** The user sees every company (else the selected one unless another of theirs is chosen). */
  allCompanies: boolean;
}) {
  const uf = useUnmatchedFilters();
  const { f, setF } = uf;
  const q = useQuery({ ...unmatchedQueries.page(uf.filters), placeholderData: (p) => p });
  const [matching, setMatching] = useState<UnmatchedRow | null>(null);
  const page = q.data;
  // A rejected payment has no counterpart to match: no booking will come for it.
  const canMatch = mayMatch && page?.manual_match === true && page.kind !== "rejected";

  return (
    <Tabs.Root
      value={f.kind}
      onValueChange={(v) => void setF({ kind: UNMATCHED_KINDS.find((k) => k === v) ?? "instruction", page: null })}
    >
      <Tabs.List aria-label="Unmatched items" className="mb-3 flex gap-1 overflow-x-auto border-b border-slate-200">
        {UNMATCHED_KINDS.map((k) => (
          <Tabs.Trigger
            key={k}
            value={k}
            aria-label={KIND_LABEL[k]}
            className={TAB_TRIGGER}
            data-testid={`unmatched-tab-${k}`}
          >
            <span className="sm:hidden" aria-hidden>
              {KIND_SHORT[k]}
            </span>
            <span className="max-sm:hidden" aria-hidden>
              {KIND_LABEL[k]}
            </span>
          </Tabs.Trigger>
        ))}
      </Tabs.List>
      <Tabs.Content value={f.kind} tabIndex={-1}>
        <FilterBar>
          <FilterSelect
            label="Age"
            value={f.age}
            options={AGE_BUCKETS.map((b) => ({ value: b.key, label: b.label }))}
            onChange={(v) => void setF({ age: (v as typeof f.age) ?? null, page: null })}
            anyLabel="Any age"
            testId="unmatched-age"
          />
          {companies.length > 1 && (
            <FilterSelect
              label="Company"
              value={f.company}
              options={companies.map((c) => ({ value: c.id, label: c.name }))}
              onChange={(v) => void setF({ company: v, page: null })}
              anyLabel={allCompanies ? "All companies" : "Selected company"}
              testId="unmatched-company"
            />
          )}
          <FilterText
            label="Search"
            value={f.q}
            placeholder="Payee, reference"
            onChange={(v) => void setF({ q: v, page: null })}
            testId="unmatched-search"
          />
          <FilterSelect
            label="Sort"
            value={f.sort === "oldest" ? null : f.sort}
            options={SORTS}
            onChange={(v) => void setF({ sort: (v as typeof f.sort) ?? "oldest", page: null })}
            anyLabel="Oldest first"
            testId="unmatched-sort"
          />
        </FilterBar>
        {page && <Notes page={page} mayMatch={mayMatch} />}
        {q.isPending ? (
          <SkeletonRows />
        ) : q.isError ? (
          <ProblemState title="The unmatched items could not be loaded" message={errorText(q.error, "Loading")} />
        ) : !page || page.items.length === 0 ? (
          <EmptyState
            title={f.kind === "rejected" ? "No rejected payments here" : "Nothing unmatched here"}
            icon={CircleCheckBig}
          >
            {EMPTY_TEXT[f.kind]}
          </EmptyState>
        ) : (
          <>
            <div className="max-md:hidden">
              <UnmatchedTable page={page} canMatch={canMatch} onMatch={setMatching} />
            </div>
            <UnmatchedCards page={page} canMatch={canMatch} onMatch={setMatching} />
            <PagerOf page={page} onPage={(p) => void setF({ page: p > 1 ? p : null })} />
          </>
        )}
      </Tabs.Content>
      {matching && <ManualMatchDialog item={matching} onClose={() => setMatching(null)} />}
    </Tabs.Root>
  );
}

/** What the page cannot do and why: no manual match on this API, or the bounded fallback of spec reads. */
function Notes({ page, mayMatch }: { page: UnmatchedPage; mayMatch: boolean }) {
  const notes: string[] = [];
  if (mayMatch && !page.manual_match && page.manual_match_reason) notes.push(page.manual_match_reason);
  if (page.source === "fallback")
    notes.push(
      `The Treasury API has no list of unmatched items: this view shows the last ${page.window_days} days of one ` +
        "company, from its standard reads.",
    );
  if (notes.length === 0) return null;
  return (
    <div
      className="mb-3 flex items-start gap-2 rounded-md border border-sky-200 bg-sky-50 px-3 py-2 text-[13px] text-sky-900"
      data-testid="unmatched-note"
    >
      <Info className="mt-0.5 size-4 shrink-0" aria-hidden />
      <div>
        {notes.map((n) => (
          <p key={n}>{n}</p>
        ))}
      </div>
    </div>
  );
}

/**
 * The bank's reason for a rejected payment: its ISO 20022 code and text (the API's, else the code's name), and a
 * link to the batch, where the payment can be paid again in a new batch.
 */
function BankReason({ row }: { row: UnmatchedRow }) {
  const text = row.reason_text ?? (row.reason ? statusReasonText(row.reason) : null);
  return (
    <span className="text-slate-700" data-testid="unmatched-reason">
      {row.reason ? <span className="font-mono font-medium text-red-800">{row.reason}</span> : "No reason given"}
      {text ? ` ${text}` : ""}
      {row.batch_id && (
        <>
          {" · "}
          <Link
            href={`/payments/${row.batch_id}`}
            aria-label={`Open the batch of ${row.counterparty_name || "this payment"}`}
            className="text-sky-800 underline underline-offset-2"
          >
            batch
          </Link>
        </>
      )}
    </span>
  );
}

/** An age in days with its bucket. */
export function AgeBadge({ row }: { row: Pick<UnmatchedRow, "age_days" | "age_bucket"> }) {
  const bucket = AGE_BUCKETS.find((b) => b.key === row.age_bucket);
  return (
    <span className="inline-flex items-center gap-1.5 whitespace-nowrap">
      <span className="tabular font-medium text-slate-900">
        {row.age_days} {row.age_days === 1 ? "day" : "days"}
      </span>
      <span className={`rounded px-1.5 py-0.5 text-xs ${BUCKET_TONE[row.age_bucket] ?? ""}`}>{bucket?.label}</span>
    </span>
  );
}

/** What the unmatched items' table and phone cards show: one page of items, and whether and how to match one by hand. */
type UnmatchedListProps = { page: UnmatchedPage; canMatch: boolean; onMatch: (row: UnmatchedRow) => void };

function UnmatchedTable({ page, canMatch, onMatch }: UnmatchedListProps) {
  const payments = page.kind !== "transaction";
  const rejected = page.kind === "rejected";
  return (
    <Table label={KIND_LABEL[page.kind]}>
      <thead>
        <tr>
          <Th>{payments ? "Payee" : "Counterparty"}</Th>
          <Th align="right">Amount</Th>
          <Th>Age (since {DATE_LABEL[page.kind]})</Th>
          <Th>Company</Th>
          <Th>Account</Th>
          <Th>Reference</Th>
          <Th>{rejected ? "Bank's reason" : "Proposals"}</Th>
          {canMatch && <HiddenTh>Actions</HiddenTh>}
        </tr>
      </thead>
      <tbody>
        {page.items.map((r) => (
          <tr key={r.id} data-testid="unmatched-row" data-id={r.id} data-age={r.age_days}>
            <Td className="max-w-56 truncate font-medium text-slate-900" title={r.counterparty_name}>
              {r.counterparty_name || "—"}
            </Td>
            <Td align="right">
              <Amount value={r.amount} currency={r.currency} />
            </Td>
            <Td>
              <AgeBadge row={r} />
              <div className="whitespace-nowrap text-xs text-slate-600">
                <BusinessDate date={r.date} />
              </div>
            </Td>
            <Td className="whitespace-nowrap">{r.company_name || "—"}</Td>
            <Td className="whitespace-nowrap">{r.account_name ?? "—"}</Td>
            <Td mono className="max-w-40 truncate" title={r.end_to_end_id ?? r.remittance ?? undefined}>
              {r.end_to_end_id ?? r.remittance ?? "—"}
            </Td>
            {rejected ? (
              <Td className="max-w-72">
                <BankReason row={r} />
              </Td>
            ) : (
              <Td className="whitespace-nowrap text-slate-600">
                {r.proposed_matches > 0 ? `${r.proposed_matches} to review` : "None"}
              </Td>
            )}
            {canMatch && (
              <Td className="text-right">
                <ManualMatchButton row={r} onMatch={onMatch} />
              </Td>
            )}
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

/** On a phone: one card per item (payee and amount, age, where it was booked), the action as a full-width button. */
function UnmatchedCards({ page, canMatch, onMatch }: UnmatchedListProps) {
  return (
    <ul className="space-y-2 md:hidden" aria-label={KIND_LABEL[page.kind]}>
      {page.items.map((r) => (
        <li
          key={r.id}
          className="rounded-lg border border-slate-200 bg-white p-3 text-[13px]"
          data-testid="unmatched-card"
          data-id={r.id}
          data-age={r.age_days}
        >
          <div className="flex items-start justify-between gap-3">
            <span className="min-w-0 break-words font-medium text-slate-900">{r.counterparty_name || "—"}</span>
            <Amount value={r.amount} currency={r.currency} className="shrink-0 font-medium" />
          </div>
          <div className="mt-1 flex flex-wrap items-center gap-x-2 text-slate-600">
            <AgeBadge row={r} />
            <span>
              {DATE_LABEL[page.kind]} <BusinessDate date={r.date} />
            </span>
          </div>
          <div className="mt-1 text-slate-600">
            {r.company_name}
            {r.account_name ? ` · ${r.account_name}` : ""}
          </div>
          {(r.end_to_end_id || r.remittance) && (
            <div className="mt-1 break-all font-mono text-xs text-slate-600">{r.end_to_end_id ?? r.remittance}</div>
          )}
          {page.kind === "rejected" && (
            <div className="mt-1">
              <BankReason row={r} />
            </div>
          )}
          {r.proposed_matches > 0 && (
            <div className="mt-1 text-slate-600">
              {r.proposed_matches} {r.proposed_matches === 1 ? "proposal" : "proposals"} to review
            </div>
          )}
          {canMatch && <ManualMatchButton row={r} onMatch={onMatch} className="mt-2 min-h-11 w-full" />}
        </li>
      ))}
    </ul>
  );
}

/** The "Match…" button of an unmatched item (table row or phone card): opens the manual match for `row`. */
function ManualMatchButton({
  row,
  onMatch,
  className,
}: {
  row: UnmatchedRow;
  onMatch: (row: UnmatchedRow) => void;
  className?: string;
}) {
  return (
    <Button
      className={className}
      onClick={() => onMatch(row)}
      aria-label={`Match ${row.counterparty_name || "item"} ${row.amount} ${row.currency} by hand`}
      data-testid="manual-match"
    >
      Match…
    </Button>
  );
}
