"use client";

import type { FieldErrors } from "react-hook-form";
import { cellMessage, remittanceError, type BatchFormValues, type RemittanceErrors } from "./batch-form-schema";

const CELL_LABEL: Record<string, string> = {
  creditor_name: "Creditor name",
  creditor_iban: "Creditor IBAN",
  end_to_end_id: "End-to-end id",
  amount: "Amount",
  creditor_bic: "BIC",
  remittance_information: "Remittance",
};
const CELL_TARGET: Record<string, (i: number) => string> = {
  creditor_bic: (i) => `ins-${i}-bic`,
  remittance_information: (i) => `ins-${i}-rem`,
};
const CELLS = ["creditor_name", "creditor_iban", "end_to_end_id", "amount", "creditor_bic"] as const;

/** Every problem of the form, in form order: the field's label, its message, and the element to go to. */
export function errorList(errors: FieldErrors<BatchFormValues>): { label: string; message: string; target: string }[] {
  const out: { label: string; message: string; target: string }[] = [];
  const top: [keyof BatchFormValues, string, string][] = [
    ["reference", "Batch name", "#batch-reference"],
    ["debtor_account_id", "Pay from", "#debtor-account"],
    ["requested_execution_date", "Execution date", '[data-testid="execution-date"]'],
  ];
  for (const [key, label, target] of top) {
    const m = (errors[key] as { message?: string } | undefined)?.message;
    if (m) out.push({ label, message: cellMessage(label, m), target });
  }
  const rows = errors.instructions as unknown as Record<
    string,
    (RemittanceErrors & Record<string, { message?: string }>) | undefined
  >;
  const listMessage = errors.instructions?.root?.message ?? errors.instructions?.message;
  if (listMessage) out.push({ label: "Instructions", message: `Instructions ${listMessage}`, target: "#ins-0-amount" });
  for (const [key, row] of Object.entries(rows ?? {})) {
    const i = Number(key);
    if (!Number.isInteger(i) || !row) continue;
    for (const cell of [...CELLS, "remittance_information"]) {
      // The remittance's message is on its text, its reference or the whole object (remittanceError).
      const m = cell === "remittance_information" ? remittanceError(row) : row[cell]?.message;
      const label = CELL_LABEL[cell] ?? cell;
      if (m)
        out.push({
          label: `Row ${i + 1} · ${label}`,
          message: cellMessage(label, String(m)),
          target: `#${CELL_TARGET[cell]?.(i) ?? `ins-${i}-${cell}`}`,
        });
    }
  }
  return out;
}

/**
 * After a save attempt, the form's problems at its top, each a link that moves the focus to its field; it follows
 * the fields as they are corrected (validation runs on every change) and disappears when none is left.
 */
export function ErrorSummary({ errors }: { errors: FieldErrors<BatchFormValues> }) {
  const list = errorList(errors);
  if (list.length === 0) return null;
  return (
    <div
      role="alert"
      aria-labelledby="error-summary-title"
      className="mb-4 rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-[13px] text-red-900"
      data-testid="error-summary"
    >
      <h2 id="error-summary-title" className="font-semibold">
        {list.length === 1 ? "1 thing to fix before saving" : `${list.length} things to fix before saving`}
      </h2>
      <ul className="mt-1 list-disc space-y-0.5 pl-5">
        {list.map((e) => (
          <li key={`${e.label}-${e.target}`}>
            <a
              href={e.target.startsWith("#") ? e.target : "#"}
              className="inline-block min-h-6 py-0.5 underline underline-offset-2 hover:text-red-700"
              onClick={(ev) => {
                const el = document.querySelector<HTMLElement>(e.target);
                if (!el) return;
                ev.preventDefault();
                el.scrollIntoView({ block: "center" });
                el.focus();
              }}
            >
              {e.label}: {e.message}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
