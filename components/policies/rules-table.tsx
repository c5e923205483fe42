"use client";

import { useRef } from "react";
import { ArrowDown, ArrowUp, Pencil, Plus, Trash2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { STACK_TABLE, useStackLabels } from "@/components/ui/table";
import { draftOf, EMPTY } from "./policy-draft";
import type { PolicyActions } from "./use-policy-actions";

const td = "border-b border-slate-100 px-3 py-2 align-top";

/**
 * The ordered policy rules with move up / down, edit and delete, and "New rule". Below md each rule is a card
 * (STACK_TABLE: its position, its explanation, its buttons in view; docs/architecture.md#phones).
 */
export function RulesTable({ a }: { a: PolicyActions }) {
  const { view, busy } = a;
  const tableRef = useRef<HTMLTableElement>(null);
  useStackLabels(tableRef);
  return (
    <section aria-labelledby="rules-h">
      <div className="mb-2 flex items-center justify-between">
        <h2 id="rules-h" className="text-sm font-semibold text-slate-800">
          Rules, in order
        </h2>
        <Button variant="primary" onClick={() => a.setDraft({ ...EMPTY })} data-testid="new-rule">
          <Plus className="size-4" aria-hidden /> New rule
        </Button>
      </div>
      <table
        ref={tableRef}
        className={`w-full border-collapse text-[13px] ${STACK_TABLE}`}
        aria-label="Approval policy rules"
      >
        <thead>
          <tr className="text-left text-xs text-slate-500">
            <th className="px-3 py-2">#</th>
            <th className="px-3 py-2">Rule</th>
            <th className="px-3 py-2">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {view.rules.map((r, i) => (
            <tr key={r.id} data-testid="policy-row" data-name={r.name}>
              <td className={`${td} w-10 tabular-nums text-slate-500`}>{r.position}</td>
              <td className={td}>{r.explanation}</td>
              <td className={`${td} whitespace-nowrap text-right md:w-56`} data-testid="rule-actions">
                <Button
                  variant="ghost"
                  aria-label={`Move up: ${r.name}`}
                  disabled={i === 0 || busy}
                  onClick={() => void a.move(r, r.position - 1)}
                >
                  <ArrowUp className="size-4" aria-hidden />
                </Button>
                <Button
                  variant="ghost"
                  aria-label={`Move down: ${r.name}`}
                  disabled={i === view.rules.length - 1 || busy}
                  onClick={() => void a.move(r, r.position + 1)}
                >
                  <ArrowDown className="size-4" aria-hidden />
                </Button>
                <Button variant="ghost" aria-label={`Edit: ${r.name}`} onClick={() => a.setDraft(draftOf(r))}>
                  <Pencil className="size-4" aria-hidden />
                </Button>
                <Button variant="ghost" aria-label={`Delete: ${r.name}`} disabled={busy} onClick={() => a.remove(r)}>
                  <Trash2 className="size-4" aria-hidden />
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {view.rules.length === 0 ? (
        <p className="mt-2 text-xs text-amber-800">
          No rules: every batch needs two approvals from any approver until a rule is added.
        </p>
      ) : null}
    </section>
  );
}
