/**
 * The accounts list row: an account with its latest booked and
 * available balance and its statement coverage of the last days. Assembled
 * on the server from the spec's ledger reads; shared with the browser as a
 * plain JSON shape.
 */
import type { Account, BalanceSnapshot, CoverageDay } from "@treasury/contract";
import { coverageWindow, type CoverageCell } from "./coverage";
import { headlineBalance } from "./headline-balance";

/** A balance as of a date; `balance_type` says whether it is a closing or an interim (today's) figure. */
export interface DatedBalance {
  balance: string;
  currency: string;
  as_of_date: string;
  balance_type: string;
}

export interface AccountRow {
  account: Account;
  booked: DatedBalance | null;
  available: DatedBalance | null;
  coverage: CoverageCell[];
}

/**
 * Builds a row from the account's balance snapshots and coverage days.
 * Booked and available are the headline figures of `today`
 * (./headline-balance.ts: today's interim, else the latest closing of an
 * ended day — the same rule as the group overview).
 */
export function buildAccountRow(
  account: Account,
  balances: readonly BalanceSnapshot[],
  coverage: readonly CoverageDay[],
  from: string,
  to: string,
  today: string,
): AccountRow {
  return {
    account,
    booked: headlineBalance(balances, today, "booked"),
    available: headlineBalance(balances, today, "available"),
    coverage: coverageWindow(coverage, from, to),
  };
}
