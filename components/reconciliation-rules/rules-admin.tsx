"use client";

import { reconciliationEndpoints } from "@/lib/bff/areas/reconciliation/endpoints";
import { OrderedRulesAdmin } from "@/components/rules-admin/ordered-rules-admin";
import { ruleFields } from "@/components/rules-admin/rule-fields";
import { describeRule } from "@/lib/auto-confirm/rules";
import type { AutoRuleRow } from "@/lib/auto-confirm/store";
import type { AutoRulesView } from "@/lib/bff/queries/auto-rules";

/** The form's state: strings as typed; empty company / currency / max amount = any. */
interface Draft {
  id: string | null;
  name: string;
  enabled: boolean;
  min_score: string;
  exact_amount: boolean;
  end_to_end_id: boolean;
  company_id: string;
  currency: string;
  max_amount: string;
}

const EMPTY: Draft = {
  id: null,
  name: "",
  enabled: true,
  min_score: "100",
  exact_amount: true,
  end_to_end_id: true,
  company_id: "",
  currency: "",
  max_amount: "",
};

function draftOf(r: AutoRuleRow): Draft {
  return {
    id: r.id,
    name: r.name,
    enabled: r.enabled,
    min_score: String(r.min_score),
    exact_amount: r.exact_amount,
    end_to_end_id: r.end_to_end_id,
    company_id: r.company_id ?? "",
    currency: r.currency ?? "",
    max_amount: r.max_amount ?? "",
  };
}

/** The request body; a score that is not a whole number is sent as typed, so the BFF names the field. */
function bodyOf(d: Draft) {
  const score = d.min_score.trim();
  return {
    name: d.name,
    enabled: d.enabled,
    min_score: /^\d+$/.test(score) ? Number(score) : score,
    exact_amount: d.exact_amount,
    end_to_end_id: d.end_to_end_id,
    company_id: d.company_id || null,
    currency: d.currency.trim() || null,
    max_amount: d.max_amount.trim() || null,
  };
}

const FIELD_LABELS: Record<string, string> = {
  name: "Name",
  min_score: "Minimum score",
  currency: "Currency",
  max_amount: "Maximum amount",
  company_id: "Company",
};

/** The notice above the rules: whether a person can undo a rule's confirmation, and why not. */
function UndoAvailability({ canUndo }: { canUndo: boolean }) {
  return (
    <p
      className={`rounded-md border px-3 py-2 text-[13px] ${
        canUndo ? "border-slate-200 bg-slate-50 text-slate-700" : "border-amber-300 bg-amber-50 text-amber-900"
      }`}
      data-testid="undo-availability"
    >
      {canUndo
        ? "A treasurer can undo an automatic confirmation for 24 hours from the Decided tab of the reconciliation review."
        : "Automatic confirmations cannot be undone here: the Treasury API does not offer reopening a confirmed match " +
          "(POST /reconciliation/matches/{id}/reopen), so the Undo button is hidden. Keep rules strict."}
    </p>
  );
}

/**
 * Admin editor of the reconciliation auto-confirm rules: the list (edit, delete, enabled or paused) and a form. A
 * proposal that meets an enabled rule is confirmed automatically, attributed to the rule, when the review is read
 * (and by the server's sweep when it is on). Says whether a person can undo such a confirmation for 24 hours, and
 * why not when the Treasury API lacks the reopen extension. Rules are tried in creation order (no moves).
 */
export function AutoRulesAdmin({ initial }: { initial: AutoRulesView }) {
  const names = new Map(initial.companies.map((c) => [c.id, c.name]));
  const fields = (d: Draft, set: (patch: Partial<Draft>) => void) => {
    const f = ruleFields(d, set);
    return (
      <>
        {f.text("name", "Name")}
        {f.text("min_score", "Minimum score (0–100)", { inputMode: "numeric" })}
        {f.select(
          "company_id",
          "Company",
          <>
            <option value="">Any company</option>
            {initial.companies.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </>,
        )}
        {f.text("currency", "Currency (optional)", { placeholder: "Any, e.g. NOK" })}
        {f.text("max_amount", "Maximum amount (optional)", { inputMode: "decimal", placeholder: "Any, e.g. 10000.00" })}
        <fieldset className="flex flex-col gap-1.5">
          <legend className="mb-1 text-xs font-medium text-slate-700">Also required</legend>
          {f.check("exact_amount", "Exact amount (no fee deducted)")}
          {f.check("end_to_end_id", "End-to-end id equal")}
          {f.check("enabled", "Rule is on")}
        </fieldset>
      </>
    );
  };

  return (
    <OrderedRulesAdmin<AutoRuleRow, Draft, never>
      intro={<UndoAvailability canUndo={initial.can_undo} />}
      initial={initial.rules}
      endpoints={{
        list: reconciliationEndpoints.rules,
        add: reconciliationEndpoints.addRule,
        change: reconciliationEndpoints.changeRule,
        remove: reconciliationEndpoints.removeRule,
      }}
      empty={EMPTY}
      draftOf={draftOf}
      bodyOf={bodyOf}
      fieldLabels={FIELD_LABELS}
      confirmDelete={(r) => `Delete the rule “${r.name}”? Matches it confirmed stay confirmed.`}
      list={{
        heading: "Rules, the first that holds confirms",
        empty: "No rules yet: every proposal waits for a person.",
        testId: "auto-rules",
        rowTestId: "auto-rule-row",
        columns: [
          { header: "Rule", cell: (r) => r.name, rowHeader: true },
          { header: "Confirms when", cell: (r) => describeRule(r, (id) => names.get(id)) },
          { header: "State", cell: (r) => (r.enabled ? "On" : "Paused") },
        ],
        nameOf: (r) => r.name,
      }}
      form={{
        newHeading: "New rule",
        editHeading: "Change the rule",
        addLabel: "Add rule",
        saveLabel: "Save changes",
        testId: "auto-rule-form",
        errorTestId: "auto-rule-error",
        saveTestId: "save-auto-rule",
        fields,
      }}
    />
  );
}
