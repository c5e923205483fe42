/**
 * Database helpers of the statement import tests: a fresh tenant per test,
 * row counts of every table the importer writes, and small result helpers.
 * The tests open one in-memory database per file and pass it in.
 */
import { eq, sql } from "drizzle-orm";
import { expect } from "vitest";
import type { Database } from "../db/client";
import { balanceSnapshots, companies, tenants } from "../db/schema";
import type { CliOutput } from "../import/cli";
import { newId } from "../lib/secrets";

/** A fresh tenant with two companies, so that no test sees another's accounts. */
export async function newTenant(
  database: Database,
): Promise<{ tenantId: string; companyId: string; otherCompanyId: string }> {
  const tenantId = newId();
  const companyId = newId();
  const otherCompanyId = newId();
  await database.db.insert(tenants).values({ id: tenantId, name: "Test tenant" });
  await database.db.insert(companies).values([
    { id: companyId, tenantId, orgnr: "910000001", name: "Importer AS", country: "NO" },
    { id: otherCompanyId, tenantId, orgnr: "910000002", name: "Other AS", country: "NO" },
  ]);
  return { tenantId, companyId, otherCompanyId };
}

/** Row counts of every table the importer writes (and the trigger-kept aggregate's transaction count). */
export async function tableCounts(database: Database): Promise<Record<string, number>> {
  const res = await database.db.execute<{ t: string; n: number }>(sql`
    select 'accounts' as t, count(*)::int as n from accounts
    union all select 'transactions', count(*)::int from transactions
    union all select 'balance_snapshots', count(*)::int from balance_snapshots
    union all select 'coverage_days', count(*)::int from coverage_days
    union all select 'webhook_events', count(*)::int from webhook_events
    union all select 'pending_entries', count(*)::int from pending_entries
    union all select 'intraday_points', count(*)::int from intraday_points
    union all select 'account_day_flows', coalesce(sum(tx_count), 0)::int from account_day_flows`);
  return Object.fromEntries(rowsOf<{ t: string; n: number }>(res).map((r) => [r.t, Number(r.n)]));
}

/**
 * Rows of the transactions whose per-account daily aggregate (`account_day_flows`,
 * kept by a trigger) disagrees with the transactions of `companyId`: 0 when they agree.
 */
export async function flowMismatches(database: Database, companyId: string): Promise<number> {
  const res = await database.db.execute(sql`
    with t as (select account_id, booked_date, direction, count(*)::int as n, sum(amount) as total from
      transactions where company_id = ${companyId} group by 1, 2, 3),
         f as (select account_id, booked_date, direction, tx_count as n, amount_sum as total from account_day_flows
           where company_id = ${companyId})
    select count(*)::int as diff from (select * from t except select * from f union all (select * from f except
      select * from t)) x`);
  return rowsOf<{ diff: number }>(res)[0]?.diff ?? -1;
}

/** PGlite and node-postgres both return `{ rows }` from `execute`. */
export function rowsOf<T>(res: unknown): T[] {
  return (res as { rows: T[] }).rows;
}

/** Runs `fn` and returns the error it rejects with; fails when it resolves. */
export async function rejection(fn: () => Promise<unknown>): Promise<Error> {
  try {
    await fn();
  } catch (e) {
    if (e instanceof Error) return e;
  }
  throw new Error("expected a rejection");
}

/** A CliOutput that collects what the import CLI prints, for assertions on stdout and stderr. */
export function captureCliOutput(): CliOutput & { stdout: string; stderr: string } {
  const io = {
    stdout: "",
    stderr: "",
    out: (t: string) => {
      io.stdout += t;
    },
    err: (t: string) => {
      io.stderr += t;
    },
  };
  return io;
}

/**
 * The import command's table (docs/bank-files.md#command-line) after asserting the run succeeded (exit `code` 0,
 * nothing on stderr) and its first two lines are the title for `companyId` and the column header. Each line of
 * stdout is split on runs of two or more spaces, so `rows[3]` is the first file's row.
 * @throws AssertionError (vitest) when the run failed or the title or header differ
 */
export function importTableRows(io: { stdout: string; stderr: string }, code: number, companyId: string): string[][] {
  expect(io.stderr).toBe("");
  expect(code).toBe(0);
  const lines = io.stdout.trimEnd().split("\n");
  expect(lines[0]).toMatch(new RegExp(`^statement import for company ${companyId} \\(`));
  expect(lines[1]).toMatch(
    new RegExp(
      String.raw`^file\s+stmts\s+accts matched\s+accts created\s+tx inserted\s+tx duplicate\s+not booked\s+` +
        String.raw`balances\s+coverage days\s+skipped balance codes$`,
    ),
  );
  return lines.map((line) => line.split(/\s{2,}/));
}

/**
 * The balance snapshots of `companyId` (`rows`, with their `source`) and `of(ref)`: the snapshots of the account
 * `accountOf(ref)` gives, as sorted `<balance type> <YYYY-MM-DD> <exact decimal balance>` lines.
 */
export async function companyBalances(
  database: Database,
  companyId: string,
  accountOf: (ref: string) => string | undefined,
): Promise<{
  rows: { accountId: string; type: string; date: string; balance: string; source: string }[];
  of: (ref: string) => string[];
}> {
  const rows = await database.db
    .select({
      accountId: balanceSnapshots.accountId,
      type: balanceSnapshots.balanceType,
      date: balanceSnapshots.asOfDate,
      balance: balanceSnapshots.balance,
      source: balanceSnapshots.source,
    })
    .from(balanceSnapshots)
    .where(eq(balanceSnapshots.companyId, companyId));
  const of = (ref: string) =>
    rows
      .filter((b) => b.accountId === accountOf(ref))
      .map((b) => `${b.type} ${b.date} ${b.balance}`)
      .sort();
  return { rows, of };
}
