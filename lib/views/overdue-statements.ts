/**
 * Overdue bank statements per account, as the overview and the accounts list show them (docs/bank-files.md
 * "Missing statements"); read by lib/bff/queries/missing-statements.ts from the API's `GET /statements/missing`.
 */
import type { MissingStatement } from "@treasury/contract";

/** One account's overdue statements, as the pages show them. */
export interface OverdueAccount {
  account_id: string;
  account_name: string;
  /** The oldest missing statement's last day, `YYYY-MM-DD` ("overdue since"). */
  since: string;
  /** When that statement was expected (ISO 8601, UTC; shown in the viewer's zone). */
  expected_at: string;
  /** How many statements of the account are overdue (at most 31, the API's limit). */
  count: number;
  /** The last statement day received, null when none ever arrived. */
  last_statement_date: string | null;
}

/**
 * Groups the API's rows per account: the oldest overdue statement of each, accounts ordered by that day, then name.
 * @param rows `GET /statements/missing` results (any order)
 */
export function overdueAccounts(rows: readonly MissingStatement[]): OverdueAccount[] {
  const byAccount = new Map<string, OverdueAccount>();
  for (const r of rows) {
    const seen = byAccount.get(r.account_id);
    if (!seen) {
      byAccount.set(r.account_id, {
        account_id: r.account_id,
        account_name: r.account_name,
        since: r.expected_date,
        expected_at: r.due_at,
        count: 1,
        last_statement_date: r.last_statement_date,
      });
      continue;
    }
    seen.count += 1;
    if (r.expected_date < seen.since) {
      seen.since = r.expected_date;
      seen.expected_at = r.due_at;
    }
  }
  return [...byAccount.values()].sort(
    (a, b) => a.since.localeCompare(b.since) || a.account_name.localeCompare(b.account_name),
  );
}
