"use client";

import { useState } from "react";
import { ArrowDown, ArrowUp, Pencil, Plus, Trash2 } from "lucide-react";
import Link from "next/link";
import { confirmWithPasskey, StepUpError, useStepUpStatus } from "@/components/auth/step-up";
import { PasskeyBanner } from "@/components/auth/step-up-notice";
import { bffFetch, BffRequestError } from "@/components/data/bff-fetch";
import { Button } from "@/components/ui/button";
import { toast } from "@/components/ui/toast";
import { ROLES } from "@/lib/auth/roles";
import { RISK_SIGNAL_CODES } from "@/lib/payments/risk-signals";
import type { PoliciesView, RuleView } from "@/lib/bff/queries/policies";

const td = "border-b border-slate-100 px-3 py-2 align-top";
const input = "h-8 rounded-md border border-slate-300 px-2 text-[13px]";

/** The form's state: strings as typed; converted to the API body on save. */
interface Draft {
  id: string | null;
  name: string;
  currency: string;
  amount_currency: string;
  min_amount: string;
  max_amount: string;
  risk: "" | "any" | "kinds";
  kinds: string[];
  required_approvals: string;
  eligible_roles: string[];
  eligible_group_ids: string[];
}

const EMPTY: Draft = {
  id: null,
  name: "",
  currency: "",
  amount_currency: "EUR",
  min_amount: "",
  max_amount: "",
  risk: "",
  kinds: [],
  required_approvals: "1",
  eligible_roles: ["approver"],
  eligible_group_ids: [],
};

function draftOf(r: RuleView): Draft {
  return {
    id: r.id,
    name: r.name,
    currency: r.currency ?? "",
    amount_currency: r.amount_currency ?? "",
    min_amount: r.min_amount ?? "",
    max_amount: r.max_amount ?? "",
    risk: r.risk ? r.risk.mode : "",
    kinds: r.risk?.mode === "kinds" ? r.risk.kinds : [],
    required_approvals: String(r.required_approvals),
    eligible_roles: r.eligible_roles,
    eligible_group_ids: r.eligible_group_ids,
  };
}

function bodyOf(d: Draft) {
  const text = (s: string) => (s.trim() === "" ? null : s.trim());
  return {
    name: d.name,
    currency: text(d.currency)?.toUpperCase() ?? null,
    amount_currency: text(d.amount_currency)?.toUpperCase() ?? null,
    min_amount: text(d.min_amount),
    max_amount: text(d.max_amount),
    risk: d.risk === "" ? null : d.risk === "any" ? { mode: "any" } : { mode: "kinds", kinds: d.kinds },
    required_approvals: Number(d.required_approvals),
    eligible_roles: d.eligible_roles,
    eligible_group_ids: d.eligible_group_ids,
  };
}

/** Field errors of a 400 answer, by field name. */
function fieldErrors(err: unknown): Record<string, string> {
  if (!(err instanceof BffRequestError)) return {};
  const errors = (err.details as { errors?: Record<string, string[]> } | undefined)?.errors ?? {};
  return Object.fromEntries(Object.entries(errors).map(([k, v]) => [k.split(".")[0] ?? k, v.join("; ")]));
}

const toggle = (list: string[], v: string) => (list.includes(v) ? list.filter((x) => x !== v) : [...list, v]);

/** Approval policy admin: the ordered rules (add, edit, move, delete) and the approver groups with their members. */
export function PoliciesAdmin({ initial }: { initial: PoliciesView }) {
  const [view, setView] = useState(initial);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [group, setGroup] = useState<{ id: string | null; name: string; user_ids: string[] } | null>(null);

  const [noPasskey, setNoPasskey] = useState(false);
  const stepUp = useStepUpStatus();

  const reload = async () => setView(await bffFetch<PoliciesView>("/api/policies"));
  /**
   * Runs one policy change: first a passkey confirmation covering `subjects` (the rule or group id, `new_rule` /
   * `new_group` for a creation) when this user's changes need one, then `f` with the proof's headers.
   */
  const run = async (what: string, subjects: string[], f: (headers: Record<string, string>) => Promise<unknown>) => {
    setBusy(true);
    try {
      const headers = await confirmWithPasskey({ action: "approval_policy.change", subjects }, stepUp.data);
      await f(headers);
      await reload();
      return true;
    } catch (err) {
      setErrors(fieldErrors(err));
      if (err instanceof StepUpError && err.kind === "no_passkey") setNoPasskey(true);
      toast.error(err instanceof Error ? `${what}: ${err.message}` : `${what} failed`);
      return false;
    } finally {
      setBusy(false);
    }
  };
  const key = () => crypto.randomUUID();
  const saveRule = async (d: Draft) => {
    const ok = await run("Saving the rule", [d.id ?? "new_rule"], (headers) =>
      bffFetch(d.id ? `/api/policies/${d.id}` : "/api/policies", {
        method: d.id ? "PUT" : "POST",
        body: bodyOf(d),
        headers,
        idempotencyKey: key(),
      }),
    );
    if (ok) {
      setDraft(null);
      setErrors({});
    }
  };
  const move = (r: RuleView, position: number) =>
    run("Moving the rule", [r.id], (headers) =>
      bffFetch(`/api/policies/${r.id}/move`, { method: "POST", body: { position }, headers, idempotencyKey: key() }),
    );
  const remove = (r: RuleView) => {
    if (!window.confirm(`Delete ${r.explanation}? Batches already submitted keep their policy.`)) return;
    void run("Deleting the rule", [r.id], (headers) =>
      bffFetch(`/api/policies/${r.id}`, { method: "DELETE", headers, idempotencyKey: key() }),
    );
  };
  const saveGroup = async () => {
    if (!group) return;
    const ok = await run("Saving the group", [group.id ?? "new_group"], (headers) =>
      bffFetch(group.id ? `/api/policies/groups/${group.id}` : "/api/policies/groups", {
        method: group.id ? "PUT" : "POST",
        body: { name: group.name, user_ids: group.user_ids },
        headers,
        idempotencyKey: key(),
      }),
    );
    if (ok) {
      setGroup(null);
      setErrors({});
    }
  };
  const removeGroup = (g: { id: string; name: string }) => {
    if (!window.confirm(`Delete the group ${g.name}? Rules naming it keep it, and no one is eligible through it.`))
      return;
    void run("Deleting the group", [g.id], (headers) =>
      bffFetch(`/api/policies/groups/${g.id}`, { method: "DELETE", headers, idempotencyKey: key() }),
    );
  };
  const err = (field: string) =>
    errors[field] ? (
      <span className="text-xs text-red-700" data-testid={`error-${field}`}>
        {errors[field]}
      </span>
    ) : null;

  return (
    <div className="space-y-8">
      <PasskeyBanner status={stepUp.data} />
      {stepUp.data?.needed ? (
        <p className="text-xs text-slate-600" data-testid="policy-step-up-note">
          Every change asks for a confirmation with your passkey.
        </p>
      ) : null}
      {noPasskey ? (
        <p role="alert" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-[13px] text-amber-900">
          Changing a policy needs a passkey confirmation, and you have no passkey.{" "}
          <Link href="/profile" className="underline">
            Add one on your profile page
          </Link>
          .
        </p>
      ) : null}
      <section aria-labelledby="rules-h">
        <div className="mb-2 flex items-center justify-between">
          <h2 id="rules-h" className="text-sm font-semibold text-slate-800">
            Rules, in order
          </h2>
          <Button variant="primary" onClick={() => setDraft({ ...EMPTY })} data-testid="new-rule">
            <Plus className="size-4" aria-hidden /> New rule
          </Button>
        </div>
        <table className="w-full border-collapse text-[13px]" aria-label="Approval policy rules">
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
                <td className={`${td} w-56 whitespace-nowrap text-right`}>
                  <Button
                    variant="ghost"
                    aria-label={`Move up: ${r.name}`}
                    disabled={i === 0 || busy}
                    onClick={() => void move(r, r.position - 1)}
                  >
                    <ArrowUp className="size-4" aria-hidden />
                  </Button>
                  <Button
                    variant="ghost"
                    aria-label={`Move down: ${r.name}`}
                    disabled={i === view.rules.length - 1 || busy}
                    onClick={() => void move(r, r.position + 1)}
                  >
                    <ArrowDown className="size-4" aria-hidden />
                  </Button>
                  <Button variant="ghost" aria-label={`Edit: ${r.name}`} onClick={() => setDraft(draftOf(r))}>
                    <Pencil className="size-4" aria-hidden />
                  </Button>
                  <Button variant="ghost" aria-label={`Delete: ${r.name}`} disabled={busy} onClick={() => remove(r)}>
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

      {draft ? (
        <form
          className="space-y-3 rounded-md border border-slate-200 bg-slate-50 p-4"
          aria-label={draft.id ? "Edit rule" : "New rule"}
          onSubmit={(e) => {
            e.preventDefault();
            void saveRule(draft);
          }}
        >
          <div className="grid grid-cols-2 gap-3 md:grid-cols-3">
            <label className="flex flex-col gap-1 text-xs text-slate-600">
              Name
              <input
                className={input}
                value={draft.name}
                onChange={(e) => setDraft({ ...draft, name: e.target.value })}
              />
              {err("name")}
            </label>
            <label className="flex flex-col gap-1 text-xs text-slate-600">
              Batch currency (empty: any)
              <input
                className={input}
                value={draft.currency}
                maxLength={3}
                onChange={(e) => setDraft({ ...draft, currency: e.target.value })}
              />
              {err("currency")}
            </label>
            <label className="flex flex-col gap-1 text-xs text-slate-600">
              Amounts in (empty: the batch currency)
              <input
                className={input}
                value={draft.amount_currency}
                maxLength={3}
                onChange={(e) => setDraft({ ...draft, amount_currency: e.target.value })}
              />
              {err("amount_currency")}
            </label>
            <label className="flex flex-col gap-1 text-xs text-slate-600">
              From amount (inclusive)
              <input
                className={input}
                inputMode="decimal"
                value={draft.min_amount}
                onChange={(e) => setDraft({ ...draft, min_amount: e.target.value })}
              />
              {err("min_amount")}
            </label>
            <label className="flex flex-col gap-1 text-xs text-slate-600">
              Below amount (exclusive)
              <input
                className={input}
                inputMode="decimal"
                value={draft.max_amount}
                onChange={(e) => setDraft({ ...draft, max_amount: e.target.value })}
              />
              {err("max_amount")}
            </label>
            <label className="flex flex-col gap-1 text-xs text-slate-600">
              Approvals required
              <input
                className={input}
                type="number"
                min={1}
                max={10}
                value={draft.required_approvals}
                onChange={(e) => setDraft({ ...draft, required_approvals: e.target.value })}
              />
              {err("required_approvals")}
            </label>
            <label className="flex flex-col gap-1 text-xs text-slate-600">
              Risk signals
              <select
                className={input}
                value={draft.risk}
                onChange={(e) => setDraft({ ...draft, risk: e.target.value as Draft["risk"] })}
              >
                <option value="">Not considered</option>
                <option value="any">Any signal present</option>
                <option value="kinds">One of these kinds…</option>
              </select>
              {err("risk")}
            </label>
          </div>
          {draft.risk === "kinds" ? (
            <fieldset className="flex flex-wrap gap-3 text-xs">
              <legend className="mb-1 text-slate-600">Signal kinds</legend>
              {RISK_SIGNAL_CODES.map((c) => (
                <label key={c} className="inline-flex items-center gap-1">
                  <input
                    type="checkbox"
                    checked={draft.kinds.includes(c)}
                    onChange={() => setDraft({ ...draft, kinds: toggle(draft.kinds, c) })}
                  />
                  {c.replaceAll("_", " ")}
                </label>
              ))}
            </fieldset>
          ) : null}
          <fieldset className="flex flex-wrap gap-3 text-xs">
            <legend className="mb-1 text-slate-600">Who may approve (any of)</legend>
            {ROLES.map((r) => (
              <label key={r} className="inline-flex items-center gap-1">
                <input
                  type="checkbox"
                  checked={draft.eligible_roles.includes(r)}
                  onChange={() => setDraft({ ...draft, eligible_roles: toggle(draft.eligible_roles, r) })}
                />
                role {r}
              </label>
            ))}
            {view.groups.map((g) => (
              <label key={g.id} className="inline-flex items-center gap-1">
                <input
                  type="checkbox"
                  checked={draft.eligible_group_ids.includes(g.id)}
                  onChange={() => setDraft({ ...draft, eligible_group_ids: toggle(draft.eligible_group_ids, g.id) })}
                />
                {g.name}
              </label>
            ))}
          </fieldset>
          {err("eligible_roles")}
          {err("eligible_group_ids")}
          <p className="text-xs text-slate-500">
            Every approver also needs the approver role. Amounts in another currency are converted with the FX rates of
            the batch&apos;s creation date; without a usable rate the strictest rule that could apply is used.
          </p>
          <div className="flex gap-2">
            <Button type="submit" variant="primary" pending={busy} data-testid="save-rule">
              Save rule
            </Button>
            <Button onClick={() => (setDraft(null), setErrors({}))}>Cancel</Button>
          </div>
        </form>
      ) : null}

      <section aria-labelledby="groups-h">
        <div className="mb-2 flex items-center justify-between">
          <h2 id="groups-h" className="text-sm font-semibold text-slate-800">
            Approver groups
          </h2>
          <Button onClick={() => setGroup({ id: null, name: "", user_ids: [] })} data-testid="new-group">
            <Plus className="size-4" aria-hidden /> New group
          </Button>
        </div>
        <ul className="space-y-1 text-[13px]">
          {view.groups.map((g) => (
            <li key={g.id} className="flex items-center gap-2" data-testid="group-row" data-name={g.name}>
              <span className="font-medium">{g.name}</span>
              <span className="text-slate-500">
                {g.user_ids.map((id) => view.users.find((u) => u.id === id)?.name ?? "(removed user)").join(", ") ||
                  "no members"}
              </span>
              <Button variant="ghost" aria-label={`Edit group: ${g.name}`} onClick={() => setGroup({ ...g })}>
                <Pencil className="size-4" aria-hidden />
              </Button>
              <Button
                variant="ghost"
                aria-label={`Delete group: ${g.name}`}
                disabled={busy}
                onClick={() => removeGroup(g)}
              >
                <Trash2 className="size-4" aria-hidden />
              </Button>
            </li>
          ))}
        </ul>
        {group ? (
          <form
            className="mt-3 space-y-3 rounded-md border border-slate-200 bg-slate-50 p-4"
            aria-label="Approver group"
            onSubmit={(e) => {
              e.preventDefault();
              void saveGroup();
            }}
          >
            <label className="flex flex-col gap-1 text-xs text-slate-600">
              Group name
              <input
                className={input}
                value={group.name}
                onChange={(e) => setGroup({ ...group, name: e.target.value })}
              />
              {err("name")}
            </label>
            <fieldset className="flex flex-wrap gap-3 text-xs">
              <legend className="mb-1 text-slate-600">Members</legend>
              {view.users.map((u) => (
                <label key={u.id} className="inline-flex items-center gap-1">
                  <input
                    type="checkbox"
                    checked={group.user_ids.includes(u.id)}
                    onChange={() => setGroup({ ...group, user_ids: toggle(group.user_ids, u.id) })}
                  />
                  {u.name} <span className="text-slate-400">{u.email}</span>
                  {u.approver ? null : <span className="text-amber-700">(not an approver)</span>}
                </label>
              ))}
            </fieldset>
            <div className="flex gap-2">
              <Button type="submit" variant="primary" pending={busy} data-testid="save-group">
                Save group
              </Button>
              <Button onClick={() => setGroup(null)}>Cancel</Button>
            </div>
          </form>
        ) : null}
      </section>
    </div>
  );
}
