"use client";

import { Button } from "@/components/ui/button";
import { ROLES } from "@/lib/auth/roles";
import { RISK_SIGNAL_CODES } from "@/lib/payments/risk-signals";
import { FieldError, inputClass, TextField } from "./field-error";
import { toggle, type Draft } from "./policy-draft";
import type { PolicyActions } from "./use-policy-actions";
import { Form } from "@/components/ui/form";

/** One checkbox of a list field (`values`), toggling `value`. */
function Check({
  values,
  value,
  onChange,
  children,
}: {
  values: string[];
  value: string;
  onChange: (next: string[]) => void;
  children: React.ReactNode;
}) {
  return (
    <label className="inline-flex items-center gap-1">
      <input type="checkbox" checked={values.includes(value)} onChange={() => onChange(toggle(values, value))} />
      {children}
    </label>
  );
}

/** The rule's conditions and count: name, currencies, amount band, approvals required, risk signals. */
function RuleConditions({
  draft,
  set,
  errors,
}: {
  draft: Draft;
  set: (d: Draft) => void;
  errors: Record<string, string>;
}) {
  const text = (
    field: keyof Draft & string,
    label: string,
    extra: Omit<React.InputHTMLAttributes<HTMLInputElement>, "value" | "onChange"> = {},
  ) => (
    <TextField
      label={label}
      field={field}
      value={draft[field] as string}
      onChange={(v) => set({ ...draft, [field]: v })}
      errors={errors}
      {...extra}
    />
  );
  return (
    <div className="grid grid-cols-2 gap-3 md:grid-cols-3">
      {text("name", "Name")}
      {text("currency", "Batch currency (empty: any)", { maxLength: 3 })}
      {text("amount_currency", "Amounts in (empty: the batch currency)", { maxLength: 3 })}
      {text("min_amount", "From amount (inclusive)", { inputMode: "decimal" })}
      {text("max_amount", "Below amount (exclusive)", { inputMode: "decimal" })}
      {text("required_approvals", "Approvals required", { type: "number", min: 1, max: 10 })}
      <label className="flex flex-col gap-1 text-xs text-slate-600">
        Risk signals
        <select
          className={inputClass}
          value={draft.risk}
          onChange={(e) => set({ ...draft, risk: e.target.value as Draft["risk"] })}
        >
          <option value="">Not considered</option>
          <option value="any">Any signal present</option>
          <option value="kinds">One of these kinds…</option>
        </select>
        <FieldError errors={errors} field="risk" />
      </label>
    </div>
  );
}

/** The form of a new or edited rule; saved through `a.saveRule`. */
export function RuleForm({ a, draft }: { a: PolicyActions; draft: Draft }) {
  const set = a.setDraft;
  return (
    <Form
      className="space-y-3 rounded-md border border-slate-200 bg-slate-50 p-4"
      aria-label={draft.id ? "Edit rule" : "New rule"}
      onSubmit={(e) => {
        e.preventDefault();
        void a.saveRule(draft);
      }}
    >
      <RuleConditions draft={draft} set={set} errors={a.errors} />
      {draft.risk === "kinds" ? (
        <fieldset className="flex flex-wrap gap-3 text-xs">
          <legend className="mb-1 text-slate-600">Signal kinds</legend>
          {RISK_SIGNAL_CODES.map((c) => (
            <Check key={c} values={draft.kinds} value={c} onChange={(kinds) => set({ ...draft, kinds })}>
              {c.replaceAll("_", " ")}
            </Check>
          ))}
        </fieldset>
      ) : null}
      <fieldset className="flex flex-wrap gap-3 text-xs">
        <legend className="mb-1 text-slate-600">Who may approve (any of)</legend>
        {ROLES.map((r) => (
          <Check
            key={r}
            values={draft.eligible_roles}
            value={r}
            onChange={(eligible_roles) => set({ ...draft, eligible_roles })}
          >
            role {r}
          </Check>
        ))}
        {a.view.groups.map((g) => (
          <Check
            key={g.id}
            values={draft.eligible_group_ids}
            value={g.id}
            onChange={(eligible_group_ids) => set({ ...draft, eligible_group_ids })}
          >
            {g.name}
          </Check>
        ))}
      </fieldset>
      <FieldError errors={a.errors} field="eligible_roles" />
      <FieldError errors={a.errors} field="eligible_group_ids" />
      <p className="text-xs text-slate-500">
        Every approver also needs the approver role. Amounts in another currency are converted with the FX rates of the
        batch&apos;s creation date; without a usable rate the strictest rule that could apply is used.
      </p>
      <div className="flex gap-2">
        <Button type="submit" variant="primary" pending={a.busy} data-testid="save-rule">
          Save rule
        </Button>
        <Button onClick={a.cancelRule}>Cancel</Button>
      </div>
    </Form>
  );
}
