"use client";

import { createColumnHelper, tableFeatures, useTable } from "@tanstack/react-table";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useMemo, useRef, useSyncExternalStore, type KeyboardEvent } from "react";
import type { Transaction } from "@treasury/contract";
import { signedAmount } from "@/lib/money";
import { Amount } from "@/components/format/amount";
import { scrollRegionProps } from "@/components/ui/table";
import { BusinessDate } from "@/components/format/business-date";
import { datePartOf } from "@/lib/format-date";

/** Core row model only: filtering happens upstream (spec filters) and in the caller (text search). */
const features = tableFeatures({});
const helper = createColumnHelper<typeof features, Transaction>();

/**
 * Booked / value date: the bank's business date (extension field), else the date part of the timestamp as written —
 * never converted.
 */
const bookedDate = (t: Transaction) => t.booked_date ?? datePartOf(t.booked_at);
const valueDate = (t: Transaction) => t.value_date ?? datePartOf(t.value_at);

const dateColumns = [
  helper.accessor(bookedDate, { id: "booked", header: "Booked", cell: (i) => <BusinessDate date={i.getValue()} /> }),
  helper.accessor(valueDate, { id: "value", header: "Value", cell: (i) => <BusinessDate date={i.getValue()} /> }),
];
const detailColumns = [
  helper.accessor("counterparty_name", {
    header: "Counterparty",
    cell: (i) => <span className="truncate">{i.getValue()}</span>,
  }),
  helper.accessor("remittance", {
    header: "Remittance",
    cell: (i) => <span className="truncate text-slate-600">{i.getValue()}</span>,
  }),
  // The cashflow category the BFF computed for the row (absent on rows from elsewhere).
  helper.accessor((t) => (t as Transaction & { category?: string }).category ?? "", {
    id: "category",
    header: "Category",
    cell: (i) => <span className="truncate text-slate-700">{i.getValue()}</span>,
  }),
  helper.accessor((t) => signedAmount(t.amount, t.direction), {
    id: "amount",
    header: "Amount",
    cell: (i) => <Amount value={i.getValue()} currency={i.row.original.currency} signed />,
  }),
];

/** The columns, with an Account column (its name, else a short id) when the list spans several accounts. */
function columnsFor(accountName: ((id: string) => string | undefined) | undefined) {
  if (!accountName) return helper.columns([...dateColumns, ...detailColumns]);
  const account = helper.accessor((t) => accountName(t.account_id) ?? t.account_id.slice(0, 8), {
    id: "account",
    header: "Account",
    cell: (i) => (
      <span className="truncate" title={i.getValue()}>
        {i.getValue()}
      </span>
    ),
  });
  return helper.columns([...dateColumns, account, ...detailColumns]);
}

/** Grid templates shared by header and rows, so columns line up without a `<table>` layout pass. */
const GRID = "grid grid-cols-[7.5rem_7.5rem_minmax(10rem,1.2fr)_minmax(10rem,2fr)_minmax(7rem,0.8fr)_11rem]";
const GRID_WITH_ACCOUNT =
  "grid grid-cols-[7.5rem_7.5rem_minmax(8rem,1fr)_minmax(10rem,1.2fr)_minmax(10rem,1.6fr)_minmax(7rem,0.8fr)_11rem]";
/** The grids' least widths (sum of the column minimums): below them the table scrolls sideways in its own box. */
const MIN_WIDTH = "min-w-[53rem]";
const MIN_WIDTH_WITH_ACCOUNT = "min-w-[61rem]";
const ROW_HEIGHT = 33;

/**
 * Below `md` (docs/architecture.md#phones) a row is two lines: counterparty and amount, then booked date and account;
 * the value date, remittance and category are in the drawer a tap away. Placement per column id.
 */
const PHONE_GRID = "grid grid-cols-[auto_minmax(0,1fr)_auto] grid-rows-2 gap-x-3";
const PHONE_CELL: Record<string, string> = {
  counterparty_name: "col-span-2 col-start-1 row-start-1 font-medium text-slate-900",
  amount: "col-start-3 row-start-1 row-span-2 self-center text-sm font-semibold",
  booked: "col-start-1 row-start-2 text-xs text-slate-600",
  account: "col-start-2 row-start-2 text-xs text-slate-600",
};
const PHONE_ROW_HEIGHT = 52;
const PHONE_QUERY = "(max-width: 47.99rem)";

/** True below `md` (a phone), kept in step with the screen; false on the server. */
function useNarrow(): boolean {
  return useSyncExternalStore(
    (change) => {
      const q = window.matchMedia(PHONE_QUERY);
      q.addEventListener("change", change);
      return () => q.removeEventListener("change", change);
    },
    () => window.matchMedia(PHONE_QUERY).matches,
    () => false,
  );
}

/**
 * Virtualized transactions list: TanStack Table v9 for the row
 * model and cells, @tanstack/react-virtual for the window, so only the rows
 * in view (plus overscan) are in the DOM — smooth with 100,000 rows. Uses
 * ARIA table roles with `aria-rowcount` / `aria-rowindex` because rows are
 * absolutely positioned. A row opens the detail drawer on click or Enter.
 * `onEndReached` fires when the last rows come into view (load more).
 * `accountName` (id → name) adds an Account column, for lists that span accounts.
 * On a screen narrower than the columns the table scrolls sideways inside its
 * own box (header and rows together); amounts are never truncated. On a phone
 * (below `md`) each row is two lines with the amount on the right instead.
 */
export function TransactionsTable({
  rows,
  onOpen,
  onEndReached,
  height = 560,
  label = "Transactions",
  accountName,
}: {
  rows: Transaction[];
  accountName?: (id: string) => string | undefined;
  onOpen: (t: Transaction) => void;
  onEndReached?: () => void;
  height?: number;
  label?: string;
}) {
  const columns = useMemo(() => columnsFor(accountName), [accountName]);
  const narrow = useNarrow();
  const grid = narrow ? PHONE_GRID : accountName ? GRID_WITH_ACCOUNT : GRID;
  const rowHeight = narrow ? PHONE_ROW_HEIGHT : ROW_HEIGHT;
  const table = useTable({ features, columns, data: rows, getRowId: (t) => t.id });
  const modelRows = table.getRowModel().rows;
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: modelRows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan: 12,
    getItemKey: (i) => modelRows[i]?.id ?? i,
  });
  useEffect(() => virtualizer.measure(), [virtualizer, rowHeight]);
  const items = virtualizer.getVirtualItems();
  const lastIndex = items[items.length - 1]?.index ?? 0;
  const nearEnd = modelRows.length > 0 && lastIndex >= modelRows.length - 20;
  useEffect(() => {
    if (nearEnd) onEndReached?.();
  }, [nearEnd, onEndReached, modelRows.length]);

  const onKey = (e: KeyboardEvent<HTMLDivElement>, t: Transaction) => {
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      onOpen(t);
    }
  };

  return (
    <div {...scrollRegionProps(label)} data-testid="transactions-table-box">
      <div
        role="table"
        aria-label={label}
        aria-rowcount={modelRows.length + 1}
        className={`${narrow ? "" : accountName ? MIN_WIDTH_WITH_ACCOUNT : MIN_WIDTH} text-[13px]`}
        data-testid="transactions-table"
      >
        <div role="rowgroup">
          {table.getHeaderGroups().map((g) => (
            <div
              role="row"
              aria-rowindex={1}
              key={g.id}
              className={narrow ? "sr-only" : `${grid} border-b border-slate-200 bg-slate-50`}
            >
              {g.headers.map((h) => (
                <div
                  role="columnheader"
                  key={h.id}
                  className={
                    "px-3 py-2 text-xs " +
                    `font-medium uppercase tracking-wide text-slate-500 ${h.column.id === "amount" ? "text-right" : ""}`
                  }
                >
                  <table.FlexRender header={h} />
                </div>
              ))}
            </div>
          ))}
        </div>
        <div
          ref={scrollRef}
          role="rowgroup"
          style={{ height, overflowY: "auto", contain: "strict" }}
          data-testid="transactions-scroll"
          tabIndex={-1}
        >
          <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
            {items.map((vi) => {
              const row = modelRows[vi.index];
              if (!row) return null;
              return (
                <div
                  key={row.id}
                  role="row"
                  aria-rowindex={vi.index + 2}
                  tabIndex={0}
                  onClick={() => onOpen(row.original)}
                  onKeyDown={(e) => onKey(e, row.original)}
                  className={
                    `${grid} absolute left-0 top-0 w-full cursor-pointer items-center ${narrow ? "px-3 py-1" : ""} ` +
                    "border-b border-slate-100 hover:bg-sky-50 focus-visible:bg-sky-50"
                  }
                  style={{ height: rowHeight, transform: `translateY(${vi.start}px)` }}
                  data-testid="transaction-row"
                >
                  {row.getAllCells().map((cell) => (
                    <div
                      role="cell"
                      key={cell.id}
                      className={
                        "min-w-0 " +
                        `${cell.column.id === "amount" ? "whitespace-nowrap text-right" : "truncate"} ` +
                        (narrow ? (PHONE_CELL[cell.column.id] ?? "hidden") : "px-3")
                      }
                    >
                      <table.FlexRender cell={cell} />
                    </div>
                  ))}
                </div>
              );
            })}
          </div>
        </div>
      </div>
    </div>
  );
}
