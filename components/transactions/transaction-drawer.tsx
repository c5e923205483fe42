"use client";

import * as Dialog from "@radix-ui/react-dialog";
import Link from "next/link";
import { X } from "lucide-react";
import type { Transaction } from "@treasury/contract";
import { signedAmount } from "@/lib/money";
import { datePartOf } from "@/lib/format-date";
import { Amount } from "@/components/format/amount";
import { BusinessDate, Timestamp } from "@/components/format/business-date";
import { iconButtonClass } from "@/components/ui/button";

/**
 * Detail drawer of one transaction: every field, exact amount, link to its account. Esc or the close button returns
 * focus to the row.
 */
export function TransactionDrawer({
  transaction,
  accountName,
  onClose,
}: {
  transaction: Transaction | null;
  accountName?: (id: string) => string | undefined;
  onClose: () => void;
}) {
  const t = transaction;
  return (
    <Dialog.Root open={t !== null} onOpenChange={(o) => !o && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 bg-slate-900/20" />
        <Dialog.Content
          className={
            "fixed inset-y-0 right-0 w-full max-w-md overflow-y-auto border-l border-slate-200 bg-white " +
            "p-5 shadow-xl focus:outline-none"
          }
          data-testid="transaction-drawer"
        >
          {t && (
            <>
              <div className="mb-4 flex items-start justify-between gap-3">
                <div>
                  <Dialog.Title className="text-base font-semibold text-slate-900">
                    {t.counterparty_name || "Transaction"}
                  </Dialog.Title>
                  <Dialog.Description className="text-[13px] text-slate-600">
                    {t.direction === "credit" ? "Incoming payment (credit)" : "Outgoing payment (debit)"}
                  </Dialog.Description>
                </div>
                <Dialog.Close className={iconButtonClass()} aria-label="Close">
                  <X className="size-4" aria-hidden />
                </Dialog.Close>
              </div>
              <p className="mb-4 text-2xl font-semibold" data-testid="drawer-amount">
                <Amount value={signedAmount(t.amount, t.direction)} currency={t.currency} signed />
              </p>
              <dl className="grid grid-cols-[8rem_1fr] gap-x-3 gap-y-2 text-[13px]">
                <dt className="text-slate-500">Booked date</dt>
                <dd>
                  <BusinessDate date={t.booked_date ?? datePartOf(t.booked_at)} style="long" />
                </dd>
                <dt className="text-slate-500">Value date</dt>
                <dd>
                  <BusinessDate date={t.value_date ?? datePartOf(t.value_at)} style="long" />
                </dd>
                <dt className="text-slate-500">Booked at</dt>
                <dd>
                  <Timestamp value={t.booked_at} seconds />
                </dd>
                <dt className="text-slate-500">Account</dt>
                <dd>
                  <Link className="text-sky-700 hover:underline" href={`/accounts/${t.account_id}`}>
                    {accountName?.(t.account_id) ?? "Open account"}
                  </Link>
                </dd>
                <dt className="text-slate-500">Counterparty</dt>
                <dd>{t.counterparty_name || "—"}</dd>
                <dt className="text-slate-500">Remittance</dt>
                <dd className="break-words">{t.remittance || "—"}</dd>
                <dt className="text-slate-500">End-to-end id</dt>
                <dd className="break-all font-mono text-xs">{t.end_to_end_id ?? "—"}</dd>
                <dt className="text-slate-500">Transaction id</dt>
                <dd className="break-all font-mono text-xs">{t.id}</dd>
              </dl>
            </>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
