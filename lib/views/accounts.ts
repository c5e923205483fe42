/**
 * The accounts list row: an account with its latest booked and
 * available balance and its statement coverage of the last days. Assembled
 * on the server from the spec's ledger reads; shared with the browser as a
 * plain JSON shape.
 */
import type { Account, BalanceSnapshot, CoverageDay } from "../contract";
import { coverageWindow, type CoverageCell } from "./coverage";

/** A balance as of a date; `kind` says whether it is a closing or an interim (today's) figure. */
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

function latest(snaps: readonly BalanceSnapshot[], types: readonly string[]): DatedBalance | null {
  let best: BalanceSnapshot | null = null;
  for (const s of snaps) {
    if (!types.includes(s.balance_type)) continue;
    // Latest date wins; on the same date a closing figure wins over an interim one.
    if (
      !best ||
      s.as_of_date > best.as_of_date ||
      (s.as_of_date === best.as_of_date &&
        s.balance_type.startsWith("closing") &&
        !best.balance_type.startsWith("closing"))
    )
      best = s;
  }
  return best
    ? { balance: best.balance, currency: best.currency, as_of_date: best.as_of_date, balance_type: best.balance_type }
    : null;
}

/**
 * Builds a row from the account's balance snapshots and coverage days.
 * Booked: the latest `closing_booked` or `interim_booked`; available: the
 * latest `closing_available` or `interim_available`.
 */
export function buildAccountRow(
  account: Account,
  balances: readonly BalanceSnapshot[],
  coverage: readonly CoverageDay[],
  from: string,
  to: string,
): AccountRow {
  return {
    account,
    booked: latest(balances, ["closing_booked", "interim_booked"]),
    available: latest(balances, ["closing_available", "interim_available"]),
    coverage: coverageWindow(coverage, from, to),
  };
}
