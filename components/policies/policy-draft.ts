/**
 * The approval-policy admin's form state (docs/guides/approval-policies.md): a rule as typed (strings), converted to
 * the BFF body on save, and the field errors of a 400 answer.
 */
import { BffRequestError } from "@/components/data/bff-fetch";
import type { RuleView } from "@/lib/bff/queries/policies";

/** The rule form's state: strings as typed; converted to the API body on save (`bodyOf`). */
export interface Draft {
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

/** An approver group being edited (`id` null: a new one). */
export interface GroupDraft {
  id: string | null;
  name: string;
  user_ids: string[];
}

/** A new rule: any batch, one approval from any approver, amounts in EUR. */
export const EMPTY: Draft = {
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

/** The form state of an existing rule. */
export function draftOf(r: RuleView): Draft {
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

/** The POST / PUT body of a rule: empty strings become null, currencies upper case; the BFF validates it. */
export function bodyOf(d: Draft) {
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

/** Field errors of a 400 answer, by top-level field name (`risk.kinds` → `risk`). */
export function fieldErrors(err: unknown): Record<string, string> {
  if (!(err instanceof BffRequestError)) return {};
  const errors = (err.details as { errors?: Record<string, string[]> } | undefined)?.errors ?? {};
  return Object.fromEntries(Object.entries(errors).map(([k, v]) => [k.split(".")[0] ?? k, v.join("; ")]));
}

/** `list` with `v` added, or removed when present (a checkbox list). */
export const toggle = (list: string[], v: string) => (list.includes(v) ? list.filter((x) => x !== v) : [...list, v]);
