"use client";

import { useState } from "react";
import { ArrowDown, ArrowUp, Pencil, Trash2 } from "lucide-react";
import { bffFetch, BffRequestError } from "@/components/data/bff-fetch";
import { Button } from "@/components/ui/button";
import type { CategoriesView, CategoryPreview } from "@/lib/bff/queries/categories";
import type { CategoryRuleRow } from "@/lib/categories/store";

const td = "border-b border-slate-100 px-3 py-2 align-top text-[13px]";
const th = "border-b border-slate-200 px-3 py-2 text-left text-xs font-medium text-slate-600";
const input = "h-8 w-full rounded-md border border-slate-300 px-2 text-[13px]";
const label = "flex flex-col gap-1 text-xs font-medium text-slate-700";

/** The form's state: strings as typed; empty = any. */
interface Draft {
  id: string | null;
  category: string;
  counterparty_contains: string;
  remittance_contains: string;
  iban: string;
  direction: "" | "credit" | "debit";
  min_amount: string;
  max_amount: string;
}

const EMPTY: Draft = {
  id: null,
  category: "",
  counterparty_contains: "",
  remittance_contains: "",
  iban: "",
  direction: "",
  min_amount: "",
  max_amount: "",
};

function draftOf(r: CategoryRuleRow): Draft {
  return {
    id: r.id,
    category: r.category,
    counterparty_contains: r.counterparty_contains ?? "",
    remittance_contains: r.remittance_contains ?? "",
    iban: r.iban ?? "",
    direction: r.direction ?? "",
    min_amount: r.min_amount ?? "",
    max_amount: r.max_amount ?? "",
  };
}

function bodyOf(d: Draft) {
  const opt = (s: string) => (s.trim() ? s.trim() : null);
  return {
    category: d.category,
    counterparty_contains: opt(d.counterparty_contains),
    remittance_contains: opt(d.remittance_contains),
    iban: opt(d.iban),
    direction: d.direction || null,
    min_amount: opt(d.min_amount),
    max_amount: opt(d.max_amount),
  };
}

/** One line describing a rule's conditions. */
function conditions(r: CategoryRuleRow): string {
  const parts: string[] = [];
  if (r.direction) parts.push(r.direction === "credit" ? "incoming" : "outgoing");
  if (r.counterparty_contains) parts.push(`counterparty contains “${r.counterparty_contains}”`);
  if (r.remittance_contains) parts.push(`remittance contains “${r.remittance_contains}”`);
  if (r.iban) parts.push(`IBAN ${r.iban}`);
  if (r.min_amount) parts.push(`amount ≥ ${r.min_amount}`);
  if (r.max_amount) parts.push(`amount < ${r.max_amount}`);
  return parts.length ? parts.join(", ") : "every transaction";
}

function problem(e: unknown): string {
  if (e instanceof BffRequestError) {
    const errors = (e.details as { errors?: Record<string, string[]> }).errors;
    if (errors)
      return Object.entries(errors)
        .map(([f, m]) => `${f}: ${m.join(", ")}`)
        .join("; ");
    return e.message;
  }
  return "Something went wrong.";
}

/**
 * Admin editor of the cashflow category rules: the ordered list (move, edit, delete) and a form. A rule is
 * previewed against the selected company's last 90 days before it can be saved; editing a field asks for a new
 * preview.
 */
export function CategoriesAdmin({ initial }: { initial: CategoriesView }) {
  const [rules, setRules] = useState(initial.rules);
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [preview, setPreview] = useState<CategoryPreview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const set = (patch: Partial<Draft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    setPreview(null);
  };
  const reload = async () => setRules((await bffFetch<CategoriesView>("/api/categories")).rules);
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
  const doPreview = () =>
    run(async () => {
      const q = draft.id ? `?rule_id=${draft.id}` : "";
      setPreview(
        await bffFetch<CategoryPreview>(`/api/categories/preview${q}`, {
          method: "POST",
          body: bodyOf(draft),
          idempotencyKey: crypto.randomUUID(),
        }),
      );
    });
  const save = () =>
    run(async () => {
      if (draft.id)
        await bffFetch(`/api/categories/${draft.id}`, {
          method: "PUT",
          body: bodyOf(draft),
          idempotencyKey: crypto.randomUUID(),
        });
      else
        await bffFetch("/api/categories", { method: "POST", body: bodyOf(draft), idempotencyKey: crypto.randomUUID() });
      setDraft(EMPTY);
      setPreview(null);
      await reload();
    });
  const move = (r: CategoryRuleRow, position: number) =>
    run(async () => {
      const res = await bffFetch<{ rules: CategoryRuleRow[] }>(`/api/categories/${r.id}/move`, {
        method: "POST",
        body: { position },
        idempotencyKey: crypto.randomUUID(),
      });
      setRules(res.rules);
    });
  const remove = (r: CategoryRuleRow) =>
    run(async () => {
      if (!window.confirm(`Delete the rule for “${r.category}”?`)) return;
      await bffFetch(`/api/categories/${r.id}`, { method: "DELETE", idempotencyKey: crypto.randomUUID() });
      await reload();
    });

  return (
    <div className="space-y-6">
      <section aria-labelledby="rules-heading" className="rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="rules-heading" className="mb-2 text-sm font-semibold text-slate-800">
          Rules, first match wins
        </h2>
        {rules.length === 0 ? (
          <p className="text-[13px] text-slate-600">No rules yet: every transaction is Uncategorised.</p>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full min-w-[480px]" data-testid="category-rules">
              <thead>
                <tr>
                  <th className={th} scope="col">
                    #
                  </th>
                  <th className={th} scope="col">
                    Category
                  </th>
                  <th className={th} scope="col">
                    When
                  </th>
                  <th className={th} scope="col">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {rules.map((r, i) => (
                  <tr key={r.id}>
                    <td className={td}>{r.position}</td>
                    <th scope="row" className={`${td} text-left font-medium`}>
                      {r.category}
                    </th>
                    <td className={td}>{conditions(r)}</td>
                    <td className={`${td} whitespace-nowrap text-right`}>
                      <Button
                        variant="ghost"
                        aria-label={`Move ${r.category} up`}
                        disabled={busy || i === 0}
                        onClick={() => void move(r, r.position - 1)}
                      >
                        <ArrowUp size={14} aria-hidden />
                      </Button>
                      <Button
                        variant="ghost"
                        aria-label={`Move ${r.category} down`}
                        disabled={busy || i === rules.length - 1}
                        onClick={() => void move(r, r.position + 1)}
                      >
                        <ArrowDown size={14} aria-hidden />
                      </Button>
                      <Button
                        variant="ghost"
                        aria-label={`Edit ${r.category}`}
                        disabled={busy}
                        onClick={() => {
                          setDraft(draftOf(r));
                          setPreview(null);
                        }}
                      >
                        <Pencil size={14} aria-hidden />
                      </Button>
                      <Button
                        variant="ghost"
                        aria-label={`Delete ${r.category}`}
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

      <form
        aria-labelledby="rule-form-heading"
        className="rounded-lg border border-slate-200 bg-white p-4"
        onSubmit={(e) => {
          e.preventDefault();
          void (preview ? save() : doPreview());
        }}
      >
        <h2 id="rule-form-heading" className="mb-3 text-sm font-semibold text-slate-800">
          {draft.id ? "Edit rule" : "New rule"}
        </h2>
        <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
          <label className={label}>
            Category
            <input className={input} value={draft.category} onChange={(e) => set({ category: e.target.value })} />
          </label>
          <label className={label}>
            Counterparty contains
            <input
              className={input}
              value={draft.counterparty_contains}
              onChange={(e) => set({ counterparty_contains: e.target.value })}
            />
          </label>
          <label className={label}>
            Remittance contains
            <input
              className={input}
              value={draft.remittance_contains}
              onChange={(e) => set({ remittance_contains: e.target.value })}
            />
          </label>
          <label className={label}>
            IBAN
            <input className={input} value={draft.iban} onChange={(e) => set({ iban: e.target.value })} />
          </label>
          <label className={label}>
            Direction
            <select
              className={input}
              value={draft.direction}
              onChange={(e) => set({ direction: e.target.value as Draft["direction"] })}
            >
              <option value="">Any</option>
              <option value="credit">Incoming (credit)</option>
              <option value="debit">Outgoing (debit)</option>
            </select>
          </label>
          <div className="grid grid-cols-2 gap-2">
            <label className={label}>
              Amount from (incl.)
              <input
                className={input}
                inputMode="decimal"
                value={draft.min_amount}
                onChange={(e) => set({ min_amount: e.target.value })}
              />
            </label>
            <label className={label}>
              below (excl.)
              <input
                className={input}
                inputMode="decimal"
                value={draft.max_amount}
                onChange={(e) => set({ max_amount: e.target.value })}
              />
            </label>
          </div>
        </div>
        {error ? (
          <p role="alert" className="mt-3 text-[13px] text-red-700">
            {error}
          </p>
        ) : null}
        {preview ? (
          <p role="status" className="mt-3 text-[13px] text-slate-800" data-testid="category-preview">
            Last 90 days ({preview.from_date} to {preview.to_date}): matches {preview.matched} of {preview.scanned}{" "}
            transactions; would categorise <strong>{preview.would_categorise}</strong> placed
            {draft.id ? " at its position" : " last"} ({preview.uncategorised_now} of them uncategorised today).
            {preview.truncated ? " Only the first transactions of the window were read." : ""}
          </p>
        ) : null}
        <div className="mt-4 flex flex-wrap gap-2">
          <Button type="button" variant="secondary" disabled={busy} onClick={() => void doPreview()}>
            Preview on last 90 days
          </Button>
          <Button type="submit" variant="primary" disabled={busy || !preview}>
            {draft.id ? "Save rule" : "Add rule"}
          </Button>
          {draft.id ? (
            <Button
              type="button"
              variant="ghost"
              onClick={() => {
                setDraft(EMPTY);
                setPreview(null);
              }}
            >
              Cancel
            </Button>
          ) : null}
        </div>
      </form>
    </div>
  );
}
