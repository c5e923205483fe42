"use client";

import type { AccountRow } from "@/lib/views/accounts";
import { headlineBasisLabel } from "@/lib/views/headline-balance";
import { Amount } from "@/components/format/amount";
import { BusinessDate } from "@/components/format/business-date";

/**
 * Account detail header: name, bank, masked IBAN, currency and the headline booked / available balances (today's
 * interim, else the latest ended day's closing; lib/views/headline-balance.ts) with their basis and date.
 */
export function AccountHeader({ row }: { row: AccountRow }) {
  const { account, booked, available } = row;
  const card = (label: string, b: AccountRow["booked"], testId: string) => (
    <div className="rounded-lg border border-slate-200 bg-white px-4 py-3">
      <div className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</div>
      {b ? (
        <>
          <div className="mt-1 text-xl font-semibold" data-testid={testId}>
            <Amount value={b.balance} currency={b.currency} />
          </div>
          <div className="text-xs text-slate-500">
            {`${headlineBasisLabel(b)}, `}
            <BusinessDate date={b.as_of_date} />
          </div>
        </>
      ) : (
        <div className="mt-1 text-[13px] text-slate-500">No balance reported</div>
      )}
    </div>
  );
  return (
    <div className="flex flex-wrap items-end justify-between gap-4">
      <div>
        <h1 className="text-lg font-semibold tracking-tight text-slate-900">{account.name}</h1>
        <p className="mt-0.5 text-[13px] text-slate-600">
          {account.bank_name} · <span className="font-mono text-xs">{account.iban_masked}</span>
          {account.external_ref_type && account.external_ref_type !== "IBAN"
            ? ` (${account.external_ref_type}${account.bank_id ? `, bank ${account.bank_id}` : ""})`
            : ""}{" "}
          · {account.currency}
          {account.status === "closed" ? " · closed" : ""}
        </p>
      </div>
      <div className="grid w-full grid-cols-1 gap-3 sm:w-auto sm:grid-cols-2">
        {card("Booked balance", booked, "header-booked")}
        {card("Available balance", available, "header-available")}
      </div>
    </div>
  );
}
