"use client";

import { useState } from "react";
import { Pencil, Trash2 } from "lucide-react";
import { bffFetch, BffRequestError } from "@/components/data/bff-fetch";
import { Button } from "@/components/ui/button";
import { describeRule } from "@/lib/auto-confirm/rules";
import type { AutoRuleRow } from "@/lib/auto-confirm/store";
import type { AutoRulesView } from "@/lib/bff/queries/auto-rules";

const td = "border-b border-slate-100 px-3 py-2 align-top text-[13px]";
const th = "border-b border-slate-200 px-3 py-2 text-left text-xs font-medium text-slate-600";
const input = "h-8 w-full rounded-md border border-slate-300 px-2 text-[13px]";
const label = "flex flex-col gap-1 text-xs font-medium text-slate-700";
const check = "flex items-center gap-2 text-[13px] text-slate-800";

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

function problem(e: unknown): string {
  if (e instanceof BffRequestError) {
    const errors = (e.details as { errors?: Record<string, string[]> }).errors;
    if (errors)
      return Object.entries(errors)
        .map(([f, m]) => `${FIELD_LABELS[f] ?? f}: ${m.join(", ")}`)
        .join("; ");
    return e.message;
  }
  return "Something went wrong.";
}

/**
 * Admin editor of the reconciliation auto-confirm rules: the list (edit, delete, enabled or paused) and a form. A
 * proposal that meets an enabled rule is confirmed automatically, attributed to the rule, when the review is read
 * (and by the server's sweep when it is on). Says whether a person can undo such a confirmation for 24 hours, and
 * why not when the Treasury API lacks the reopen extension.
 */
export function AutoRulesAdmin({ initial }: { initial: AutoRulesView }) {
  const [rules, setRules] = useState(initial.rules);
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const names = new Map(initial.companies.map((c) => [c.id, c.name]));
  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));
  const reload = async () => setRules((await bffFetch<AutoRulesView>("/api/reconciliation-rules")).rules);
  const run = async (f: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await f();
    } catch (e) {
      setError(problem(e));
    } finally {
      setBusy(false);
    }
  };
  const save = () =>
    run(async () => {
      const init = { body: bodyOf(draft), idempotencyKey: crypto.randomUUID() };
      if (draft.id) await bffFetch(`/api/reconciliation-rules/${draft.id}`, { method: "PUT", ...init });
      else await bffFetch("/api/reconciliation-rules", { method: "POST", ...init });
      setDraft(EMPTY);
      await reload();
    });
  const remove = (r: AutoRuleRow) =>
    run(async () => {
      if (!window.confirm(`Delete the rule “${r.name}”? Matches it confirmed stay confirmed.`)) return;
      await bffFetch(`/api/reconciliation-rules/${r.id}`, { method: "DELETE", idempotencyKey: crypto.randomUUID() });
      await reload();
    });

  return (
    <div className="space-y-6">
      <p
        className={`rounded-md border px-3 py-2 text-[13px] ${
          initial.can_undo
            ? "border-slate-200 bg-slate-50 text-slate-700"
            : "border-amber-300 bg-amber-50 text-amber-900"
        }`}
        data-testid="undo-availability"
      >
        {initial.can_undo
          ? "A treasurer can undo an automatic confirmation for 24 hours from the Decided tab of the reconciliation review."
          : "Automatic confirmations cannot be undone here: the Treasury API does not offer reopening a confirmed match " +
            "(POST /reconciliation/matches/{id}/reopen), so the Undo button is hidden. Keep rules strict."}
      </p>
      <section aria-labelledby="auto-rules-heading" className="rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="auto-rules-heading" className="mb-2 text-sm font-semibold text-slate-800">
          Rules, the first that holds confirms
        </h2>
        {rules.length === 0 ? (
          <p className="text-[13px] text-slate-600">No rules yet: every proposal waits for a person.</p>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full min-w-[480px]" data-testid="auto-rules">
              <thead>
                <tr>
                  <th className={th} scope="col">
                    Rule
                  </th>
                  <th className={th} scope="col">
                    Confirms when
                  </th>
                  <th className={th} scope="col">
                    State
                  </th>
                  <th className={th} scope="col">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {rules.map((r) => (
                  <tr key={r.id} data-testid="auto-rule-row">
                    <th scope="row" className={`${td} text-left font-medium`}>
                      {r.name}
                    </th>
                    <td className={td}>{describeRule(r, (id) => names.get(id))}</td>
                    <td className={td}>{r.enabled ? "On" : "Paused"}</td>
                    <td className={`${td} whitespace-nowrap text-right`}>
                      <Button
                        variant="ghost"
                        aria-label={`Edit ${r.name}`}
                        disabled={busy}
                        onClick={() => setDraft(draftOf(r))}
                      >
                        <Pencil size={14} aria-hidden />
                      </Button>
                      <Button
                        variant="ghost"
                        aria-label={`Delete ${r.name}`}
                        disabled={busy}
                        onClick={() => void remove(r)}
                      >
                        <Trash2 size={14} aria-hidden />
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <section aria-labelledby="auto-rule-form" className="rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="auto-rule-form" className="mb-3 text-sm font-semibold text-slate-800">
          {draft.id ? "Change the rule" : "New rule"}
        </h2>
        <form
          className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3"
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
          data-testid="auto-rule-form"
        >
          <label className={label}>
            Name
            <input className={input} value={draft.name} onChange={(e) => set({ name: e.target.value })} name="name" />
          </label>
          <label className={label}>
            Minimum score (0–100)
            <input
              className={input}
              inputMode="numeric"
              value={draft.min_score}
              onChange={(e) => set({ min_score: e.target.value })}
              name="min_score"
            />
          </label>
          <label className={label}>
            Company
            <select
              className={input}
              value={draft.company_id}
              onChange={(e) => set({ company_id: e.target.value })}
              name="company_id"
            >
              <option value="">Any company</option>
              {initial.companies.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          </label>
          <label className={label}>
            Currency (optional)
            <input
              className={input}
              value={draft.currency}
              placeholder="Any, e.g. NOK"
              onChange={(e) => set({ currency: e.target.value })}
              name="currency"
            />
          </label>
          <label className={label}>
            Maximum amount (optional)
            <input
              className={input}
              inputMode="decimal"
              value={draft.max_amount}
              placeholder="Any, e.g. 10000.00"
              onChange={(e) => set({ max_amount: e.target.value })}
              name="max_amount"
            />
          </label>
          <fieldset className="flex flex-col gap-1.5">
            <legend className="mb-1 text-xs font-medium text-slate-700">Also required</legend>
            <label className={check}>
              <input
                type="checkbox"
                className="size-4"
                checked={draft.exact_amount}
                onChange={(e) => set({ exact_amount: e.target.checked })}
                name="exact_amount"
              />
              Exact amount (no fee deducted)
            </label>
            <label className={check}>
              <input
                type="checkbox"
                className="size-4"
                checked={draft.end_to_end_id}
                onChange={(e) => set({ end_to_end_id: e.target.checked })}
                name="end_to_end_id"
              />
              End-to-end id equal
            </label>
            <label className={check}>
              <input
                type="checkbox"
                className="size-4"
                checked={draft.enabled}
                onChange={(e) => set({ enabled: e.target.checked })}
                name="enabled"
              />
              Rule is on
            </label>
          </fieldset>
          {error && (
            <p
              role="alert"
              className="text-[13px] text-red-700 sm:col-span-2 lg:col-span-3"
              data-testid="auto-rule-error"
            >
              {error}
            </p>
          )}
          <div className="flex gap-2 sm:col-span-2 lg:col-span-3">
            <Button type="submit" variant="primary" pending={busy} data-testid="save-auto-rule">
              {draft.id ? "Save changes" : "Add rule"}
            </Button>
            {draft.id && (
              <Button type="button" onClick={() => setDraft(EMPTY)} disabled={busy}>
                Cancel
              </Button>
            )}
          </div>
        </form>
      </section>
    </div>
  );
}
