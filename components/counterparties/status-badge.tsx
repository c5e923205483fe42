import { COUNTERPARTY_STATUS_LABEL, type CounterpartyStatusValue } from "@/lib/views/counterparties";

const TONES: Record<CounterpartyStatusValue, string> = {
  pending_verification: "bg-amber-50 text-amber-800 ring-amber-300",
  verified: "bg-emerald-50 text-emerald-800 ring-emerald-300",
  rejected: "bg-red-50 text-red-800 ring-red-300",
  disabled: "bg-slate-100 text-slate-600 ring-slate-300",
};

/** A counterparty's status as a small badge; the words carry the meaning, colour only supports it. */
export function CounterpartyStatusBadge({ status }: { status: CounterpartyStatusValue }) {
  return (
    <span
      data-status={status}
      data-testid="counterparty-status"
      className={
        `inline-flex items-center whitespace-nowrap rounded px-1.5 py-0.5 text-xs font-medium ring-1 ` +
        `ring-inset ${TONES[status]}`
      }
    >
      {COUNTERPARTY_STATUS_LABEL[status]}
    </span>
  );
}

/** An IBAN in groups of four for reading (stored and sent without spaces). */
export function formatIban(iban: string): string {
  return iban.replace(/(.{4})(?=.)/g, "$1 ");
}
