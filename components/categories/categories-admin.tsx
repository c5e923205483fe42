"use client";

import { callBff } from "@/components/data/bff-fetch";
import { categoriesEndpoints } from "@/lib/bff/areas/categories/endpoints";
import { OrderedRulesAdmin } from "@/components/rules-admin/ordered-rules-admin";
import { ruleFields } from "@/components/rules-admin/rule-fields";
import type { CategoriesView, CategoryPreview } from "@/lib/bff/queries/categories";
import type { CategoryRuleRow } from "@/lib/categories/store";

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

function fields(d: Draft, set: (patch: Partial<Draft>) => void) {
  const f = ruleFields(d, set);
  return (
    <>
      {f.text("category", "Category")}
      {f.text("counterparty_contains", "Counterparty contains")}
      {f.text("remittance_contains", "Remittance contains")}
      {f.text("iban", "IBAN")}
      {f.select(
        "direction",
        "Direction",
        <>
          <option value="">Any</option>
          <option value="credit">Incoming (credit)</option>
          <option value="debit">Outgoing (debit)</option>
        </>,
      )}
      <div className="grid grid-cols-2 gap-2">
        {f.text("min_amount", "Amount from (incl.)", { inputMode: "decimal" })}
        {f.text("max_amount", "below (excl.)", { inputMode: "decimal" })}
      </div>
    </>
  );
}

/**
 * Admin editor of the cashflow category rules: the ordered list (move, edit, delete) and a form. A rule is
 * previewed against the selected company's last 90 days before it can be saved; editing a field asks for a new
 * preview.
 */
export function CategoriesAdmin({ initial }: { initial: CategoriesView }) {
  return (
    <OrderedRulesAdmin<CategoryRuleRow, Draft, CategoryPreview>
      initial={initial.rules}
      endpoints={categoriesEndpoints}
      movable
      empty={EMPTY}
      draftOf={draftOf}
      bodyOf={bodyOf}
      confirmDelete={(r) => `Delete the rule for “${r.category}”?`}
      list={{
        heading: "Rules, first match wins",
        empty: "No rules yet: every transaction is Uncategorised.",
        testId: "category-rules",
        columns: [
          { header: "#", cell: (r) => r.position },
          { header: "Category", cell: (r) => r.category, rowHeader: true },
          { header: "When", cell: conditions },
        ],
        nameOf: (r) => r.category,
      }}
      form={{ newHeading: "New rule", editHeading: "Edit rule", addLabel: "Add rule", saveLabel: "Save rule", fields }}
      preview={{
        button: "Preview on last 90 days",
        testId: "category-preview",
        request: (d, body) =>
          callBff(categoriesEndpoints.preview, {
            query: { rule_id: d.id },
            body,
            idempotencyKey: crypto.randomUUID(),
          }),
        render: (p, d) => (
          <>
            Last 90 days ({p.from_date} to {p.to_date}): matches {p.matched} of {p.scanned} transactions; would
            categorise <strong>{p.would_categorise}</strong> placed
            {d.id ? " at its position" : " last"} ({p.uncategorised_now} of them uncategorised today).
            {p.truncated ? " Only the first transactions of the window were read." : ""}
          </>
        ),
      }}
    />
  );
}
