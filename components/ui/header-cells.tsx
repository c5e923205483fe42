import type { ReactNode } from "react";

/** One column header: its label, or its label with a class of its own (e.g. a right-aligned amount column). */
export type HeaderCell = string | { label: ReactNode; key: string; className: string };

/**
 * The `<th scope="col">` cells of a table's header row, one per entry of `cells`, in order: a string is the label and
 * takes `className`; an object brings its own class. Column labels (or `key`s) must be unique within the row.
 */
export function HeaderCells({ cells, className }: { cells: readonly HeaderCell[]; className: string }) {
  return (
    <>
      {cells.map((c) =>
        typeof c === "string" ? (
          <th key={c} scope="col" className={className}>
            {c}
          </th>
        ) : (
          <th key={c.key} scope="col" className={c.className}>
            {c.label}
          </th>
        ),
      )}
    </>
  );
}
