"use client";

import { useEffect, useRef, type ReactNode, type RefObject, type ThHTMLAttributes, type TdHTMLAttributes } from "react";

/**
 * The class that shows a table's body rows as cards below `md` (app/globals.css, docs/architecture.md#phones): the
 * first cell names the row, amount cells (`[data-amount]`) sit on its right, the rest follow one a line after their
 * column's name. Use with `useStackLabels` on the same table.
 */
export const STACK_TABLE = "stack-table";

/**
 * Copies each column header's text onto the body cells below it as `data-label` (the card's captions on a phone),
 * again whenever rows change. Headers whose only text is screen-reader text (select boxes, row actions) give no
 * caption; a header's `data-stack-label` replaces its text (when it holds more than a name); cells spanning
 * columns are skipped. `ref` is the `<table>`; no effect before hydration.
 */
export function useStackLabels(ref: RefObject<HTMLTableElement | null>): void {
  useEffect(() => {
    const table = ref.current;
    if (!table) return;
    const label = () => {
      const heads = [...table.querySelectorAll<HTMLTableCellElement>(":scope > thead > tr:last-child > th")].map(
        (th) => th.dataset.stackLabel ?? (th.querySelector(".sr-only") ? "" : (th.textContent ?? "").trim()),
      );
      for (const tr of table.querySelectorAll<HTMLTableRowElement>(":scope > tbody > tr")) {
        let col = 0;
        for (const td of tr.cells) {
          const text = td.colSpan === 1 ? heads[col] : "";
          if (text && td.dataset.label !== text) td.dataset.label = text;
          col += td.colSpan;
        }
      }
    };
    label();
    const observer = new MutationObserver(label);
    observer.observe(table, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [ref]);
}

/**
 * Below `md` the first column stays in view while the table scrolls sideways (it names the row); cells spanning the
 * whole row (detail rows) are left alone. Separate borders (no spacing): collapsed borders do not move with a sticky
 * cell.
 */
export const PIN_FIRST_COLUMN =
  "max-md:[&_tr>:first-child:not([colspan])]:sticky max-md:[&_tr>:first-child:not([colspan])]:left-0 " +
  "max-md:[&_tr>:first-child:not([colspan])]:z-[1] max-md:[&_tbody_tr>:first-child:not([colspan])]:bg-white " +
  "max-md:[&_tr>:first-child:not([colspan])]:shadow-[inset_-1px_0_0_var(--color-slate-200)] " +
  // A pinned name keeps a readable width (a long URL would otherwise break every few letters); a select box does not.
  "max-md:[&_tr>:first-child:not([colspan]):not(:has(input))]:min-w-28";

/**
 * The props of a sideways-scrolling box (a wide table's, an approval card's preview, a rules list): a region
 * reachable by keyboard whether or not its rows have rendered or its buttons are enabled yet (axe
 * scrollable-region-focusable: before hydration every <Button> inside is disabled, so a box of buttons alone has no
 * tab stop), named `"<label>, scrollable"` — its own name, not the table's, since a section headed like the table
 * would otherwise be a second landmark of the same name (axe landmark-unique). The label must be unique on the page.
 * `framed` (default on) draws the table's rounded border; off for a box already inside a card.
 */
export function scrollRegionProps(label: string, { framed = true }: { framed?: boolean } = {}) {
  return {
    role: "region",
    "aria-label": `${label}, scrollable`,
    tabIndex: 0,
    className:
      "relative max-w-full overflow-x-auto overscroll-x-contain focus-visible:outline-2 focus-visible:outline-sky-600" +
      (framed ? " rounded-lg border border-slate-200 bg-white" : ""),
  } as const;
}

/**
 * Dense, calm table primitives (amounts right-aligned with tabular numerals).
 * The table scrolls sideways inside its own box when the screen is narrower
 * than its columns, so the page never does and no figure is cut off; `pinFirst`
 * (default on) keeps the first column in view on narrow screens — turn it off
 * when that column does not name the row. The box is positioned so that
 * screen-reader-only text (absolutely positioned) in far-right cells is
 * contained by it, rather than widening the page on a mobile browser. The box
 * is a labelled, focusable region so a keyboard can scroll it too. `stack`
 * (default on) shows the body rows as cards below `md` instead (`STACK_TABLE`):
 * no sideways scrolling, each row's amount at its top right; turn it off for a
 * table whose columns only make sense side by side.
 */
export function Table({
  children,
  label,
  pinFirst = true,
  stack = true,
}: {
  children: ReactNode;
  label: string;
  pinFirst?: boolean;
  stack?: boolean;
}) {
  const ref = useRef<HTMLTableElement>(null);
  useStackLabels(ref);
  return (
    <div {...scrollRegionProps(label)}>
      <table
        ref={ref}
        className={
          "w-full border-separate border-spacing-0 text-[13px] " +
          (stack ? STACK_TABLE : pinFirst ? PIN_FIRST_COLUMN : "")
        }
        aria-label={label}
      >
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
      className={
        "border-b border-slate-200 bg-slate-50 px-3 py-2 " +
        `text-xs font-medium uppercase tracking-wide text-slate-500 ${align === "right" ? "text-right" : "text-left"}`
      }
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
      className={
        "border-b border-slate-100 " +
        `px-3 py-1.5 ${align === "right" ? "text-right tabular" : ""} ${mono ? "font-mono text-xs" : ""} ${className}`
      }
      {...rest}
    >
      {children}
    </td>
  );
}
