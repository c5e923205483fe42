"use client";

import { Fragment } from "react";
import { ChevronDown, ChevronRight } from "lucide-react";
import { createColumnHelper, tableFeatures, useTable } from "@tanstack/react-table";
import type { CounterpartyView } from "@/lib/views/counterparties";
import { Timestamp } from "@/components/format/business-date";
import { CounterpartyStatusBadge, formatIban } from "./status-badge";
import { scrollRegionProps } from "@/components/ui/table";

const features = tableFeatures({});
const helper = createColumnHelper<typeof features, CounterpartyView>();

/** Columns left out below the md breakpoint (a phone): the IBAN moves under the name, the rest into the detail. */
const WIDE_ONLY = new Set(["iban", "bic", "country", "updated"]);

const columns = helper.columns([
  helper.accessor("name", { header: "Name" }),
  helper.accessor("iban", {
    header: "IBAN",
    cell: (info) => <span className="whitespace-nowrap font-mono text-xs">{formatIban(info.getValue())}</span>,
  }),
  helper.accessor("bic", {
    header: "BIC",
    cell: (info) => <span className="font-mono text-xs">{info.getValue() ?? "—"}</span>,
  }),
  helper.accessor("country", { header: "Country" }),
  helper.accessor("status", {
    header: "Status",
    cell: (info) => <CounterpartyStatusBadge status={info.getValue()} />,
  }),
  helper.accessor("updatedAt", {
    id: "updated",
    header: "Last change",
    cell: (info) => (
      <span className="text-slate-600">
        <Timestamp value={info.getValue()} />
      </span>
    ),
  }),
]);

/**
 * The counterparties table, TanStack Table v9 (`useTable`, no client-side
 * features: the BFF searches and filters). A row's name toggles its detail
 * (`renderDetail`) in a full-width row below it.
 */
export function CounterpartiesTable({
  rows,
  expanded,
  onToggle,
  renderDetail,
}: {
  rows: CounterpartyView[];
  expanded: string | null;
  onToggle: (id: string) => void;
  renderDetail: (c: CounterpartyView) => React.ReactNode;
}) {
  const table = useTable({ features, columns, data: rows, getRowId: (r) => r.id });
  const visible = table.getRowModel().rows;
  const span = columns.length;
  return (
    <div {...scrollRegionProps("Counterparties")}>
      <table
        className="w-full border-collapse text-[13px]"
        aria-label="Counterparties"
        data-testid="counterparties-table"
      >
        <thead>
          {table.getHeaderGroups().map((g) => (
            <tr key={g.id}>
              {g.headers.map((h) => (
                <th
                  key={h.id}
                  scope="col"
                  className={
                    `whitespace-nowrap border-b border-slate-200 bg-slate-50 px-3 py-2 text-left text-xs ` +
                    `font-medium uppercase tracking-wide text-slate-500 ${
                      WIDE_ONLY.has(h.column.id) ? "hidden " + "md:table-cell" : ""
                    }`
                  }
                >
                  <table.FlexRender header={h} />
                </th>
              ))}
            </tr>
          ))}
        </thead>
        <tbody>
          {visible.map((row) => {
            const c = row.original;
            const open = expanded === c.id;
            return (
              <Fragment key={row.id}>
                <tr
                  className={open ? "bg-slate-50" : "hover:bg-slate-50"}
                  data-testid="counterparty-row"
                  data-name={c.name}
                  data-status={c.status}
                >
                  {row.getAllCells().map((cell) => (
                    <td
                      key={cell.id}
                      className={
                        `border-b border-slate-100 px-3 py-1.5 align-top ` +
                        `${WIDE_ONLY.has(cell.column.id) ? "hidden md:table-cell" : ""}`
                      }
                    >
                      {cell.column.id === "name" ? (
                        <>
                          <button
                            type="button"
                            onClick={() => onToggle(c.id)}
                            aria-expanded={open}
                            className="inline-flex items-start gap-1 text-left font-medium text-sky-800 hover:underline"
                            data-testid="counterparty-toggle"
                          >
                            {open ? (
                              <ChevronDown className="mt-0.5 size-3.5 shrink-0" aria-hidden />
                            ) : (
                              <ChevronRight className="mt-0.5 size-3.5 shrink-0" aria-hidden />
                            )}
                            {c.name}
                          </button>
                          <span
                            className={"mt-0.5 block break-all pl-4.5 " + "font-mono text-xs text-slate-600 md:hidden"}
                          >
                            {formatIban(c.iban)}
                          </span>
                        </>
                      ) : (
                        <table.FlexRender cell={cell} />
                      )}
                    </td>
                  ))}
                </tr>
                {open && (
                  <tr>
                    <td colSpan={span} className="border-b border-slate-200 bg-slate-50/60 px-3 py-3 sm:px-5">
                      {renderDetail(c)}
                    </td>
                  </tr>
                )}
              </Fragment>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
