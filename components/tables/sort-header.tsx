"use client";

import { ArrowDown, ArrowUp, ArrowUpDown } from "lucide-react";
import type { ReactNode } from "react";

/**
 * A column header button for sorting. The `<th>` carries `aria-sort`; the
 * button is keyboard reachable and says what a press does.
 */
export function SortHeader({
  label,
  sorted,
  onToggle,
  align = "left",
}: {
  label: ReactNode;
  sorted: false | "asc" | "desc";
  onToggle: () => void;
  align?: "left" | "right";
}) {
  const Icon = sorted === "asc" ? ArrowUp : sorted === "desc" ? ArrowDown : ArrowUpDown;
  return (
    <button
      type="button"
      onClick={onToggle}
      className={
        "inline-flex items-center gap-1 " +
        `uppercase tracking-wide hover:text-slate-900 ${align === "right" ? "flex-row-reverse" : ""}`
      }
    >
      {label}
      <Icon className={`size-3 ${sorted ? "text-slate-700" : "text-slate-400"}`} aria-hidden />
    </button>
  );
}

/** `aria-sort` value for a header. */
export function ariaSort(sorted: false | "asc" | "desc"): "ascending" | "descending" | "none" {
  return sorted === "asc" ? "ascending" : sorted === "desc" ? "descending" : "none";
}
