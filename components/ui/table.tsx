import type { ReactNode, ThHTMLAttributes, TdHTMLAttributes } from "react";

/** Dense, calm table primitives (amounts right-aligned with tabular numerals). */
export function Table({ children, label }: { children: ReactNode; label: string }) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
      <table className="w-full border-collapse text-[13px]" aria-label={label}>
        {children}
      </table>
    </div>
  );
}

export function Th({
  children,
  align = "left",
  ...rest
}: ThHTMLAttributes<HTMLTableCellElement> & { align?: "left" | "right" }) {
  return (
    <th
      scope="col"
      className={`border-b border-slate-200 bg-slate-50 px-3 py-2 text-xs font-medium uppercase tracking-wide text-slate-500 ${align === "right" ? "text-right" : "text-left"}`}
      {...rest}
    >
      {children}
    </th>
  );
}

/** A column header read only by screen readers (the select boxes, the row actions). */
export function HiddenTh({ children }: { children: string }) {
  return (
    <Th>
      <span className="sr-only">{children}</span>
    </Th>
  );
}

/** A full-width row under a table row, holding its details (a batch's instructions, an endpoint's delivery log). */
export function DetailRow({ colSpan, children }: { colSpan: number; children: ReactNode }) {
  return (
    <tr>
      <td colSpan={colSpan} className="border-b border-slate-200 bg-slate-50/60 px-5 py-3">
        {children}
      </td>
    </tr>
  );
}

export function Td({
  children,
  align = "left",
  mono = false,
  className = "",
  ...rest
}: TdHTMLAttributes<HTMLTableCellElement> & { align?: "left" | "right"; mono?: boolean }) {
  return (
    <td
      className={`border-b border-slate-100 px-3 py-1.5 ${align === "right" ? "text-right tabular" : ""} ${mono ? "font-mono text-xs" : ""} ${className}`}
      {...rest}
    >
      {children}
    </td>
  );
}
