"use client";

import Link from "next/link";
import { createContext, useContext, useRef } from "react";
import {
  createColumnHelper,
  functionalUpdate,
  rowSortingFeature,
  tableFeatures,
  useTable,
  type SortingState,
} from "@tanstack/react-table";
import type { AccountRow } from "@/lib/views/accounts";
import { Amount } from "@/components/format/amount";
import { BusinessDate } from "@/components/format/business-date";
import { CoverageStrip } from "@/components/statement-coverage/coverage-calendar";
import { STACK_TABLE, scrollRegionProps, useStackLabels } from "@/components/ui/table";
import { SortHeader, ariaSort } from "./sort-header";
import { headlineBasisLabel } from "@/lib/views/headline-balance";
import type { OverdueAccount } from "@/lib/views/overdue-statements";
import { OverdueStatementNote } from "@/components/statements/overdue-statement";

/** The overdue statements of the accounts shown, by account id (docs/bank-files.md "Missing statements"). */
const OverdueContext = createContext<ReadonlyMap<string, OverdueAccount>>(new Map());

function OverdueOf({ accountId }: { accountId: string }) {
  const overdue = useContext(OverdueContext).get(accountId);
  return overdue ? <OverdueStatementNote overdue={overdue} /> : null;
}

// Sorting is manual: the BFF sorts every account of the company (lib/views/account-list), the table only shows the
// state.
const features = tableFeatures({ rowSortingFeature });

const helper = createColumnHelper<typeof features, AccountRow>();

const RIGHT = new Set(["balance", "available"]);

const columns = helper.columns([
  helper.accessor((r) => r.account.name, {
    id: "name",
    header: "Name",
    cell: (info) => (
      <>
        <Link href={`/accounts/${info.row.original.account.id}`} className="font-medium text-sky-800 hover:underline">
          {info.getValue()}
        </Link>
        <OverdueOf accountId={info.row.original.account.id} />
      </>
    ),
  }),
  helper.accessor((r) => r.account.bank_name, { id: "bank", header: "Bank" }),
  helper.accessor((r) => r.account.iban_masked, {
    id: "iban",
    header: "IBAN",
    enableSorting: false,
    cell: (info) => {
      const { external_ref_type: type, bank_id: bank } = info.row.original.account;
      // An account without IBAN (BBAN / OTHER, from MT940 or BAI2 files) shows its type and bank code.
      return (
        <span className="font-mono text-xs">
          {info.getValue()}
          {type && type !== "IBAN" ? (
            <span className="ml-1 font-sans text-xs text-slate-500" data-testid="account-ref-type">
              {type}
              {bank ? ` · ${bank}` : ""}
            </span>
          ) : null}
        </span>
      );
    },
  }),
  helper.accessor((r) => r.account.currency, { id: "currency", header: "Currency" }),
  helper.accessor((r) => r.booked?.balance, {
    id: "balance",
    header: "Booked",
    cell: (info) => {
      const b = info.row.original.booked;
      return b ? <Amount value={b.balance} currency={b.currency} /> : <span className="text-slate-400">—</span>;
    },
  }),
  helper.accessor((r) => r.available?.balance, {
    id: "available",
    header: "Available",
    cell: (info) => {
      const b = info.row.original.available;
      return b ? <Amount value={b.balance} currency={b.currency} /> : <span className="text-slate-400">—</span>;
    },
  }),
  helper.accessor((r) => r.booked?.as_of_date, {
    id: "as_of",
    header: "As of",
    enableSorting: false,
    cell: (info) => {
      const v = info.getValue();
      return v ? (
        <span className="text-slate-600">
          {info.row.original.booked ? `${headlineBasisLabel(info.row.original.booked)}, ` : ""}
          <BusinessDate date={v} />
        </span>
      ) : null;
    },
  }),
  helper.display({
    id: "coverage",
    header: "Last 7 days",
    cell: (info) => <CoverageStrip cells={info.row.original.coverage} />,
  }),
]);

/**
 * The accounts table, TanStack Table v9 (`useTable` with
 * explicit features). The rows are the page the server returned, already
 * filtered and sorted over every account; sorting is controlled by the
 * caller (held in the URL) and applied by the server (`manualSorting`).
 */
export function AccountsDataTable({
  rows,
  sorting,
  onSortingChange,
  overdue,
}: {
  rows: AccountRow[];
  sorting: SortingState;
  onSortingChange: (s: SortingState) => void;
  /** Accounts with an overdue statement (named under the account's name); none when absent. */
  overdue?: readonly OverdueAccount[];
}) {
  const table = useTable({
    features,
    columns,
    data: rows,
    getRowId: (r) => r.account.id,
    state: { sorting },
    onSortingChange: (u) => onSortingChange(functionalUpdate(u, sorting)),
    manualSorting: true,
    enableMultiSort: false,
  });
  const visible = table.getRowModel().rows;
  const tableRef = useRef<HTMLTableElement>(null);
  useStackLabels(tableRef);
  const overdueById = new Map((overdue ?? []).map((o) => [o.account_id, o]));
  return (
    <OverdueContext value={overdueById}>
      <div {...scrollRegionProps("Bank accounts")}>
        {/* On a phone each account is a card, its balances on the right (docs/architecture.md#phones). */}
        <table
          ref={tableRef}
          className={`w-full border-separate border-spacing-0 text-[13px] ${STACK_TABLE}`}
          aria-label="Bank accounts"
          data-testid="accounts-table"
        >
          <thead>
            {table.getHeaderGroups().map((g) => (
              <tr key={g.id}>
                {g.headers.map((h) => {
                  const sorted = h.column.getIsSorted();
                  const right = RIGHT.has(h.column.id);
                  return (
                    <th
                      key={h.id}
                      scope="col"
                      aria-sort={h.column.getCanSort() ? ariaSort(sorted) : undefined}
                      className={
                        "whitespace-nowrap border-b border-slate-200 bg-slate-50 px-3 py-2 text-xs font-medium " +
                        `uppercase tracking-wide text-slate-500 ${right ? "text-right" : "text-left"}`
                      }
                    >
                      {h.column.getCanSort() ? (
                        <SortHeader
                          label={<table.FlexRender header={h} />}
                          sorted={sorted}
                          onToggle={() => h.column.toggleSorting(sorted === "asc")}
                          align={right ? "right" : "left"}
                        />
                      ) : (
                        <table.FlexRender header={h} />
                      )}
                    </th>
                  );
                })}
              </tr>
            ))}
          </thead>
          <tbody>
            {visible.map((row) => (
              <tr
                key={row.id}
                className="hover:bg-slate-50"
                data-testid="account-row"
                data-account-id={row.original.account.id}
              >
                {row.getAllCells().map((cell) => (
                  <td
                    key={cell.id}
                    className={
                      "border-b border-slate-100 " +
                      `px-3 py-1.5 ${RIGHT.has(cell.column.id) ? "whitespace-nowrap text-right" : ""}`
                    }
                  >
                    <table.FlexRender cell={cell} />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
        {visible.length === 0 && (
          <p className="px-3 py-6 text-center text-[13px] text-slate-600">No account matches the filters.</p>
        )}
      </div>
    </OverdueContext>
  );
}
