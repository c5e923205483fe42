"use client";

import { Clock } from "lucide-react";
import Link from "next/link";
import type { OverdueAccount } from "@/lib/views/overdue-statements";
import { BusinessDate, Timestamp } from "@/components/format/business-date";

/**
 * "Statement overdue since <day> · expected <time>" for one account (docs/bank-files.md "Missing statements"):
 * the oldest missing statement's day and when it was due, in the viewer's locale and zone; the count when more than
 * one is missing.
 */
export function OverdueStatementNote({ overdue }: { overdue: OverdueAccount }) {
  return (
    <span
      className="mt-0.5 flex flex-wrap items-center gap-x-1 text-xs text-amber-800"
      data-testid="statement-overdue"
      data-account-id={overdue.account_id}
    >
      <Clock className="size-3.5 shrink-0" aria-hidden />
      <span>
        Statement overdue since <BusinessDate date={overdue.since} />
      </span>
      <span className="text-amber-700">
        · expected <Timestamp value={overdue.expected_at} zone />
        {overdue.count > 1 ? ` · ${overdue.count} missing` : ""}
      </span>
    </span>
  );
}

/**
 * The overview's list of accounts with an overdue statement (nothing when none, or when the API does not tell).
 * @param accounts from `missingStatements` (lib/bff/queries/missing-statements.ts), oldest first
 */
export function OverdueStatementsPanel({ accounts }: { accounts: readonly OverdueAccount[] }) {
  if (accounts.length === 0) return null;
  return (
    <section
      aria-labelledby="overdue-statements-h"
      className="mb-4 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3"
      data-testid="overdue-statements"
    >
      <h2 id="overdue-statements-h" className="text-sm font-semibold text-amber-900">
        {accounts.length === 1 ? "1 account has" : `${accounts.length} accounts have`} an overdue bank statement
      </h2>
      <ul className="mt-2 space-y-1.5">
        {accounts.map((a) => (
          <li key={a.account_id} className="text-[13px]">
            <Link href={`/accounts/${a.account_id}`} className="font-medium text-sky-800 hover:underline">
              {a.account_name}
            </Link>
            <OverdueStatementNote overdue={a} />
          </li>
        ))}
      </ul>
    </section>
  );
}
