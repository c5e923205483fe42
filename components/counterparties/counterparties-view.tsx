"use client";

import dynamic from "next/dynamic";
import { useEffect, useRef, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { useQueryStates } from "nuqs";
import { Contact, FileUp, Plus } from "lucide-react";
import {
  COUNTERPARTY_STATUS_LABEL,
  COUNTERPARTY_STATUS_VALUES,
  type CounterpartyView,
} from "@/lib/views/counterparties";
import { errorText } from "@/components/data/error-text";
import { Button } from "@/components/ui/button";
import { EmptyState, ProblemState, SkeletonRows } from "@/components/ui/states";
import { FilterBar, FilterSelect, FilterText } from "@/components/list-controls/controls";
import { CounterpartiesTable } from "./counterparties-table";
import { CounterpartyDetail, type CounterpartyPermissions } from "./counterparty-detail";
import { COUNTERPARTY_LIST_LIMIT, counterpartyFilterParsers, counterpartyQueries } from "./counterparty-queries";
import type { CounterpartyDecision } from "./decision-dialog";

// The dialogs load when first opened, not with the page.
const CounterpartyFormDialog = dynamic(
  () => import("./counterparty-form-dialog").then((m) => m.CounterpartyFormDialog),
  { ssr: false },
);
const CounterpartyDecisionDialog = dynamic(
  () => import("./decision-dialog").then((m) => m.CounterpartyDecisionDialog),
  { ssr: false },
);
const CounterpartyImportDialog = dynamic(() => import("./import-dialog").then((m) => m.CounterpartyImportDialog), {
  ssr: false,
});

type Open =
  | { kind: "create" }
  | { kind: "import" }
  | { kind: "edit"; c: CounterpartyView }
  | { kind: CounterpartyDecision; c: CounterpartyView };

/**
 * The counterparties page: search by name or IBAN and filter by status (both
 * in the URL, applied by the BFF), the table with a detail row per
 * counterparty (history, actions), and the create / change / decide / import
 * dialogs for the roles that may use them.
 */
export function CounterpartiesView({ companyId, may }: { companyId: string; may: CounterpartyPermissions }) {
  const [f, setF] = useQueryStates(counterpartyFilterParsers, { shallow: true, history: "replace" });
  const q = useQuery(
    counterpartyQueries.list(companyId, { search: f.q?.trim() || undefined, status: f.status ?? undefined }),
  );
  const [expanded, setExpanded] = useState<string | null>(null);
  const [open, setOpen] = useState<Open | null>(null);
  const close = () => setOpen(null);
  const filtered = Boolean(f.q || f.status);
  // The search goes to the server: wait for a pause in typing instead of one request per key.
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const search = (v: string | null) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void setF({ q: v }), 250);
  };

  return (
    <div>
      <FilterBar
        actions={
          may.manage && (
            <>
              <Button onClick={() => setOpen({ kind: "import" })} data-testid="open-import">
                <FileUp className="size-4" aria-hidden /> Import CSV
              </Button>
              <Button variant="primary" onClick={() => setOpen({ kind: "create" })} data-testid="new-counterparty">
                <Plus className="size-4" aria-hidden /> New counterparty
              </Button>
            </>
          )
        }
      >
        <FilterText
          label="Search"
          value={f.q}
          onChange={search}
          placeholder="Name or IBAN"
          testId="counterparty-search"
        />
        <FilterSelect
          label="Status"
          value={f.status}
          options={COUNTERPARTY_STATUS_VALUES.map((s) => ({ value: s, label: COUNTERPARTY_STATUS_LABEL[s] }))}
          onChange={(v) => void setF({ status: v as (typeof COUNTERPARTY_STATUS_VALUES)[number] | null })}
          anyLabel="Any status"
          testId="counterparty-status-filter"
        />
      </FilterBar>
      {q.isPending ? (
        <SkeletonRows />
      ) : q.isError ? (
        <ProblemState
          title="The counterparties could not be loaded"
          message={errorText(q.error, "Loading the counterparties")}
        />
      ) : q.data.items.length === 0 ? (
        <EmptyState title={filtered ? "No counterparty matches" : "No counterparties yet"} icon={Contact}>
          {filtered
            ? "Try another part of the name or IBAN, or another status."
            : "Payees are created here or imported from CSV; each is verified by a second person before it is trusted."}
        </EmptyState>
      ) : (
        <>
          <CounterpartiesTable
            rows={q.data.items}
            expanded={expanded}
            onToggle={(id) => setExpanded((e) => (e === id ? null : id))}
            renderDetail={(c) => (
              <CounterpartyDetail
                counterparty={c}
                may={may}
                onAction={(a) => setOpen(a === "edit" ? { kind: "edit", c } : { kind: a, c })}
              />
            )}
          />
          <p className="mt-2 text-xs text-slate-500">
            {q.data.items.length === COUNTERPARTY_LIST_LIMIT
              ? `The first ${COUNTERPARTY_LIST_LIMIT} by name are shown; search to narrow them down.`
              : `${q.data.items.length} shown.`}
          </p>
        </>
      )}
      {open?.kind === "create" && <CounterpartyFormDialog counterparty={null} onClose={close} />}
      {open?.kind === "edit" && <CounterpartyFormDialog counterparty={open.c} onClose={close} />}
      {open?.kind === "import" && <CounterpartyImportDialog onClose={close} />}
      {(open?.kind === "verify" || open?.kind === "reject" || open?.kind === "disable") && (
        <CounterpartyDecisionDialog counterparty={open.c} decision={open.kind} onClose={close} />
      )}
    </div>
  );
}
