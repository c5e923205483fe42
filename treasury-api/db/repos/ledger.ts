/**
 * Bank data repositories (docs/treasury-api.md#ledger): accounts, transactions, balance
 * snapshots, coverage days, intraday points. Functions `(db, scope, params)`
 * with the scope in every `where`. Exact list counts for transactions come
 * from the `account_day_flows` aggregate, not from counting a million rows.
 */
import { and, asc, eq, gte, inArray, lte, lt, sql, type SQL } from "drizzle-orm";
import { isValidIBAN, electronicFormatIBAN } from "ibantools";
import type {
  Account,
  AccountSummary,
  AccountUpsert,
  BalanceSnapshot,
  CoverageDay,
  IntradayBalancePoint,
  Transaction,
} from "@treasury/contract/ledger";
import { queryRows, type Db, type DbOrTx } from "../client";
import { accountDayFlows, accounts, balanceSnapshots, coverageDays, intradayPoints, transactions } from "../schema";
import { ApiError, companyNotAccessible, fieldError, notFound } from "../../lib/errors";
import { ISO_UTC_SQL, formatAmount, isoTimestamp, maskIban } from "../../lib/format";
import { bankNameFor } from "../../import/bank-names";
import { companyWhere, scopeWhere, type DataScope } from "../../lib/scope";
import { startOfNextDayUtc } from "../../lib/dates";
import { newId } from "../../lib/secrets";
import { mappedPage, tablePage, type Page } from "./paging";

type AccountRow = typeof accounts.$inferSelect;

export function toAccount(r: AccountRow): Account {
  return {
    id: r.id,
    name: r.name,
    currency: r.currency,
    iban_masked: maskIban(r.externalRef),
    bank_name: r.bankName,
    company_id: r.companyId,
    bank_id: r.bankId,
    external_ref_type: r.externalRefType === "BBAN" || r.externalRefType === "OTHER" ? r.externalRefType : "IBAN",
    status: r.status,
  };
}

/** Accounts in scope, by name then id; optional currency and status filters. */
export async function listAccounts(
  db: Db,
  scope: DataScope,
  f: { currency?: string; status?: string },
  page: Page,
  withCount: boolean,
) {
  const conds: SQL[] = scopeWhere(scope, accounts.tenantId, accounts.companyId);
  if (f.currency) conds.push(eq(accounts.currency, f.currency));
  if (f.status) conds.push(eq(accounts.status, f.status as "active" | "closed"));
  return mappedPage(db, accounts, conds, [asc(accounts.name), asc(accounts.id)], page, withCount, toAccount);
}

/** The account row if it is in scope, else 404. */
export async function getAccountRow(db: DbOrTx, scope: DataScope, id: string): Promise<AccountRow> {
  const [row] = await db
    .select()
    .from(accounts)
    .where(and(eq(accounts.id, id), ...scopeWhere(scope, accounts.tenantId, accounts.companyId)));
  if (!row) throw notFound("Account");
  return row;
}

/**
 * Whether the account has bookings, balances, intraday points or coverage days: its currency is then part of its
 * history.
 */
async function hasHistory(tx: DbOrTx, accountId: string): Promise<boolean> {
  const [row] = await queryRows<{ found: boolean }>(
    tx,
    sql`select exists (select 1 from transactions where account_id = ${accountId})
        or exists (select 1 from balance_snapshots where account_id = ${accountId})
        or exists (select 1 from intraday_points where account_id = ${accountId})
        or exists (select 1 from coverage_days where account_id = ${accountId}) as "found"`,
  );
  return row?.found === true;
}

/**
 * The account number of an upsert as stored: an IBAN in electronic form; a BBAN / OTHER account number as given,
 * trimmed (docs/bank-files.md "Accounts without IBAN").
 * @throws 400 naming external_ref for an invalid IBAN or an account number with other characters
 */
function accountRef(body: AccountUpsert): string {
  const iban =
    body.external_ref_type === "IBAN"
      ? (electronicFormatIBAN(body.external_ref) ?? body.external_ref)
      : body.external_ref.trim();
  if (body.external_ref_type === "IBAN" && !isValidIBAN(iban)) throw fieldError("external_ref", "is not a valid IBAN");
  if (body.external_ref_type !== "IBAN" && !/^[A-Za-z0-9][A-Za-z0-9 ./-]{0,33}$/.test(iban))
    throw fieldError("external_ref", "must be an account number: letters, digits, blanks, '.', '/' or '-'");
  return iban;
}

/**
 * The checked path of {@link upsertAccount}, in one transaction: locks the account of the identity, refuses another
 * company's account and a currency change on an account with history, else updates it.
 * @throws see {@link upsertAccount}
 */
async function updateCheckedAccount(
  db: Db,
  scope: DataScope,
  visibleCompanyIds: readonly string[],
  body: AccountUpsert,
  iban: string,
  now: string,
): Promise<{ account: Account; created: boolean }> {
  return db.transaction(async (tx) => {
    const [existing] = await tx
      .select()
      .from(accounts)
      .where(
        and(eq(accounts.tenantId, scope.tenantId), eq(accounts.bankId, body.bank_id), eq(accounts.externalRef, iban)),
      )
      .for("update");
    if (!existing) throw new ApiError("conflict", "The account changed concurrently; retry");
    if (existing.companyId !== body.company_id) {
      if (!visibleCompanyIds.includes(existing.companyId)) throw companyNotAccessible();
      throw new ApiError(
        "conflict",
        "An account with this bank_id and external_ref belongs to another of this client's companies",
        {
          field: "external_ref",
          account_id: existing.id,
          company_id: existing.companyId,
        },
      );
    }
    // Transactions, balances and intraday points carry the account's currency: changing it would relabel their amounts.
    if (existing.currency !== body.currency && (await hasHistory(tx, existing.id))) {
      const message =
        `currency cannot change from ${existing.currency} on an account with transactions, balances, ` +
        `intraday points or coverage`;
      throw new ApiError("conflict", message, {
        field: "currency",
        currency: existing.currency,
      });
    }
    const [updated] = await tx
      .update(accounts)
      .set({
        currency: body.currency,
        status: body.status,
        name: body.name ?? existing.name,
        bankName: body.bank_name ?? existing.bankName,
        updatedAt: now,
      })
      .where(eq(accounts.id, existing.id))
      .returning();
    return { account: toAccount(updated ?? existing), created: false };
  });
}

/**
 * Account upsert (docs/treasury-api.md#resources, Account upsert body): identity (tenant, bank_id,
 * external_ref). 201 when created, 200 when updated; never a duplicate. The
 * update locks the account row, so the history check and the change are one step.
 * @param visibleCompanyIds the companies the caller may see (Caller.companyIds)
 * @throws 400 for an invalid IBAN; 409 conflict when the identity belongs to another
 *   company the caller can see; 403 permission_denied, the same answer as for a
 *   company the caller may not access, when it belongs to a company the caller
 *   cannot see (no existence leak); 409 conflict `{ field: "currency" }` when the
 *   currency would change on an account with history.
 */
export async function upsertAccount(
  db: Db,
  scope: DataScope,
  visibleCompanyIds: readonly string[],
  body: AccountUpsert,
): Promise<{ account: Account; created: boolean }> {
  const iban = accountRef(body);
  const bankName = body.bank_name ?? bankNameFor(body.bank_id, null);
  const name = body.name ?? `${bankName} ${body.currency} ${iban.slice(-4)}`;
  const now = new Date().toISOString();
  const id = newId();
  // The common cases in one statement: a new identity is inserted; a known one of the same company and currency is
  // updated in place (the statement locks the row it updates). Anything else (another company, a currency change)
  // updates nothing here and takes the checked path below.
  const [done] = await db
    .insert(accounts)
    .values({
      id,
      tenantId: scope.tenantId,
      companyId: body.company_id,
      bankId: body.bank_id,
      externalRef: iban,
      externalRefType: body.external_ref_type,
      name,
      currency: body.currency,
      bankName,
      status: body.status,
    })
    .onConflictDoUpdate({
      target: [accounts.tenantId, accounts.bankId, accounts.externalRef],
      set: {
        status: body.status,
        name: body.name ?? sql`${accounts.name}`,
        bankName: body.bank_name ?? sql`${accounts.bankName}`,
        updatedAt: now,
      },
      setWhere: and(eq(accounts.companyId, body.company_id), eq(accounts.currency, body.currency)),
    })
    .returning();
  if (done) return { account: toAccount(done), created: done.id === id };
  return updateCheckedAccount(db, scope, visibleCompanyIds, body, iban, now);
}

// ------------------------------------------------------------ transactions

export interface TransactionFilter {
  accountId?: string;
  fromDate?: string;
  toDate?: string;
  direction?: "credit" | "debit";
  currency?: string;
}

/** The columns a Transaction is built from (`toTransaction`); also what inserts return for their events. */
export const TRANSACTION_COLUMNS = {
  id: transactions.id,
  accountId: transactions.accountId,
  amount: transactions.amount,
  currency: transactions.currency,
  direction: transactions.direction,
  bookedAt: transactions.bookedAt,
  valueAt: transactions.valueAt,
  bookedDate: transactions.bookedDate,
  valueDate: transactions.valueDate,
  counterpartyName: transactions.counterpartyName,
  remittance: transactions.remittance,
  endToEndId: transactions.endToEndId,
};

type TxRow = { [K in keyof typeof TRANSACTION_COLUMNS]: (typeof transactions.$inferSelect)[K] };

export function toTransaction(r: TxRow): Transaction {
  return {
    id: r.id,
    account_id: r.accountId,
    amount: formatAmount(r.amount, r.currency),
    currency: r.currency,
    direction: r.direction,
    booked_at: isoTimestamp(r.bookedAt),
    value_at: isoTimestamp(r.valueAt),
    counterparty_name: r.counterpartyName,
    remittance: r.remittance,
    end_to_end_id: r.endToEndId,
    booked_date: r.bookedDate,
    value_date: r.valueDate,
  };
}

/** `f` and the scope on the transactions, or on their daily aggregate (the same columns). */
function txWhere(
  t: typeof transactions | typeof accountDayFlows,
  scope: DataScope,
  f: TransactionFilter,
): SQL | undefined {
  return and(...scopeWhere(scope, t.tenantId, t.companyId), ...filterWhere(t, f));
}

/** The conditions of `f` alone, without the scope. */
function filterWhere(t: typeof transactions | typeof accountDayFlows, f: TransactionFilter): SQL[] {
  const conds: SQL[] = [];
  if (f.accountId) conds.push(eq(t.accountId, f.accountId));
  if (f.fromDate) conds.push(gte(t.bookedDate, f.fromDate));
  if (f.toDate) conds.push(lte(t.bookedDate, f.toDate));
  if (f.direction) conds.push(eq(t.direction, f.direction));
  if (f.currency) conds.push(eq(t.currency, f.currency));
  return conds;
}

/** SQL of the exact number of transactions matching `f` (a text value), from the daily aggregate. */
function countSql(scope: DataScope, f: TransactionFilter): SQL {
  return sql`(select coalesce(sum(${accountDayFlows.txCount}), 0)::text from ${accountDayFlows}
    where ${txWhere(accountDayFlows, scope, f)})`;
}

/** The exact number of transactions matching `f`, from the daily aggregate. */
export async function countTransactions(db: Db, scope: DataScope, f: TransactionFilter): Promise<number> {
  const [row] = await queryRows<{ n: string }>(db, sql`select ${countSql(scope, f)} as n`);
  return Number(row?.n ?? 0);
}

/**
 * The transaction columns as text, timestamps already in ISO 8601 UTC: list
 * responses of 1,000 rows then need no per-row Date or Decimal work in Node.
 */
const TX_TEXT_COLUMNS =
  sql.raw(`transactions.id::text as "id", transactions.account_id::text as "accountId", transactions.amount::text
    as "amount",
  transactions.currency as "currency", transactions.direction as "direction",
  to_char(transactions.booked_at at time zone 'UTC', '${ISO_UTC_SQL}') as "bookedAt",
  to_char(transactions.value_at at time zone 'UTC', '${ISO_UTC_SQL}') as "valueAt",
  transactions.booked_date::text as "bookedDate", transactions.value_date::text as "valueDate",
  transactions.counterparty_name as "counterpartyName", transactions.remittance as "remittance",
    transactions.end_to_end_id as "endToEndId"`);

/** Transactions in scope, newest booking first (booked_date, booked_at, id descending). */
export async function listTransactions(db: Db, scope: DataScope, f: TransactionFilter, page: Page, withCount: boolean) {
  const [rows, count] = await Promise.all([
    queryRows<TxRow>(
      db,
      sql`select ${TX_TEXT_COLUMNS} from transactions where ${txWhere(transactions, scope, f)}
          order by transactions.booked_date desc, transactions.booked_at desc, transactions.id desc
          limit ${page.limit} offset ${page.offset}`,
    ),
    withCount ? countTransactions(db, scope, f) : Promise.resolve(0),
  ]);
  return { rows: rows.map(toTransaction), count };
}

/**
 * The same page as `listTransactions`, as JSON the database wrote once: `json` is the JSON array of the page's
 * Transaction objects (docs/treasury-api.md#list-conventions), the rows' stored `json` column (migration 0010's
 * `transaction_json`, computed when each row was written) joined in page order — byte-for-byte what
 * `JSON.stringify` of `listTransactions(...).rows` gives: keys in the Transaction's order, amounts with the
 * currency's minor units (`formatAmount`'s rule, extra digits kept), timestamps as ISO 8601 UTC, nulls as null —
 * and `count` the exact number matching `f` (0 unless `withCount`). One statement, so one round trip: the page as
 * one text value (no 1,000 result rows for the driver to parse) and the count beside it
 * (docs/architecture.md#list-responses).
 */
export async function listTransactionsJson(
  db: Db,
  scope: DataScope,
  f: TransactionFilter,
  page: Page,
  withCount: boolean,
): Promise<{ json: string; count: number }> {
  // The page is cut by company and the tenant checked on the cut page, outside the LIMIT (PostgreSQL does not push a
  // condition into a sub-select with a LIMIT). With the tenant in the same WHERE, the planner walks
  // transactions_tenant_order and skips the tenant's other companies' rows: 2.2 ms instead of 0.6 ms for the busiest
  // company's first 1,000 rows (docs/architecture.md#list-responses). A scope's companies are the tenant's own
  // (lib/scope), so the outer check never shortens a page; it keeps the tenant in this statement's isolation.
  const pageWhere =
    scope.companyIds === null
      ? txWhere(transactions, scope, f)
      : and(...companyWhere(scope, transactions.companyId), ...filterWhere(transactions, f));
  const [row] = await queryRows<{ json: string; n: string }>(
    db,
    sql`select coalesce((
            select string_agg(t.j, ',' order by t.booked_date desc, t.booked_at desc, t.id desc)
            from (
              select transactions.booked_date, transactions.booked_at, transactions.id, transactions.tenant_id,
                transactions.json as j
              from transactions where ${pageWhere}
              order by transactions.booked_date desc, transactions.booked_at desc, transactions.id desc
              limit ${page.limit} offset ${page.offset}
            ) t where t.tenant_id = ${scope.tenantId}), '') as json,
          ${withCount ? countSql(scope, f) : sql`'0'`} as n`,
  );
  return { json: `[${row?.json ?? ""}]`, count: Number(row?.n ?? 0) };
}

export async function getTransaction(db: Db, scope: DataScope, id: string): Promise<Transaction> {
  const [row] = await db
    .select(TRANSACTION_COLUMNS)
    .from(transactions)
    .where(and(eq(transactions.id, id), ...scopeWhere(scope, transactions.tenantId, transactions.companyId)));
  if (!row) throw notFound("Transaction");
  return toTransaction(row);
}

/**
 * Transactions by id in scope (extension `GET /transactions/lookup`), in the order of `ids`; ids that do not exist
 * or lie outside the scope are left out (no 404: a lookup answers what it can see).
 */
export async function lookupTransactions(db: Db, scope: DataScope, ids: readonly string[]): Promise<Transaction[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select(TRANSACTION_COLUMNS)
    .from(transactions)
    .where(
      and(inArray(transactions.id, [...ids]), ...scopeWhere(scope, transactions.tenantId, transactions.companyId)),
    );
  const byId = new Map(rows.map((r) => [r.id, toTransaction(r)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

// ------------------------------------------------------------ balances, coverage, intraday

function toBalanceSnapshot(r: typeof balanceSnapshots.$inferSelect): BalanceSnapshot {
  return {
    id: r.id,
    account_id: r.accountId,
    balance_type: r.balanceType as BalanceSnapshot["balance_type"],
    as_of_date: r.asOfDate,
    balance: formatAmount(r.balance, r.currency),
    currency: r.currency,
  };
}

function toCoverageDay(r: typeof coverageDays.$inferSelect): CoverageDay {
  return {
    id: r.id,
    account_id: r.accountId,
    date: r.date,
    source: r.source as CoverageDay["source"],
    completeness: r.completeness as CoverageDay["completeness"],
  };
}

/** Balance snapshots of one account in scope (another company's account id yields nothing), by date, type, id. */
export async function listBalances(
  db: Db,
  scope: DataScope,
  accountId: string,
  f: { fromDate?: string; toDate?: string; balanceType?: string },
  page: Page,
  withCount: boolean,
) {
  const conds: SQL[] = [
    ...scopeWhere(scope, balanceSnapshots.tenantId, balanceSnapshots.companyId),
    eq(balanceSnapshots.accountId, accountId),
  ];
  if (f.fromDate) conds.push(gte(balanceSnapshots.asOfDate, f.fromDate));
  if (f.toDate) conds.push(lte(balanceSnapshots.asOfDate, f.toDate));
  if (f.balanceType) conds.push(eq(balanceSnapshots.balanceType, f.balanceType));
  return mappedPage(
    db,
    balanceSnapshots,
    conds,
    [asc(balanceSnapshots.asOfDate), asc(balanceSnapshots.balanceType), asc(balanceSnapshots.id)],
    page,
    withCount,
    toBalanceSnapshot,
  );
}

/** Coverage days of one account in scope (another company's account id yields nothing), by date. */
export async function listCoverage(
  db: Db,
  scope: DataScope,
  accountId: string,
  f: { fromDate?: string; toDate?: string },
  page: Page,
  withCount: boolean,
) {
  const conds: SQL[] = [
    ...scopeWhere(scope, coverageDays.tenantId, coverageDays.companyId),
    eq(coverageDays.accountId, accountId),
  ];
  if (f.fromDate) conds.push(gte(coverageDays.date, f.fromDate));
  if (f.toDate) conds.push(lte(coverageDays.date, f.toDate));
  return mappedPage(
    db,
    coverageDays,
    conds,
    [asc(coverageDays.date), asc(coverageDays.id)],
    page,
    withCount,
    toCoverageDay,
  );
}

/**
 * Extension `GET /accounts/summaries`: one page of the accounts in scope (as `listAccounts`), each with its balance
 * snapshots and coverage days of [fromDate, toDate] — three queries, whatever the number of accounts.
 */
export async function listAccountSummaries(
  db: Db,
  scope: DataScope,
  f: { currency?: string; status?: string; fromDate: string; toDate: string },
  page: Page,
  withCount: boolean,
): Promise<{ rows: AccountSummary[]; count: number }> {
  const listed = await listAccounts(db, scope, f, page, withCount);
  const ids = listed.rows.map((a) => a.id);
  if (ids.length === 0) return { rows: [], count: listed.count };
  const [snaps, days] = await Promise.all([
    db
      .select()
      .from(balanceSnapshots)
      .where(
        and(
          ...scopeWhere(scope, balanceSnapshots.tenantId, balanceSnapshots.companyId),
          inArray(balanceSnapshots.accountId, ids),
          gte(balanceSnapshots.asOfDate, f.fromDate),
          lte(balanceSnapshots.asOfDate, f.toDate),
        ),
      )
      .orderBy(asc(balanceSnapshots.asOfDate), asc(balanceSnapshots.balanceType), asc(balanceSnapshots.id)),
    db
      .select()
      .from(coverageDays)
      .where(
        and(
          ...scopeWhere(scope, coverageDays.tenantId, coverageDays.companyId),
          inArray(coverageDays.accountId, ids),
          gte(coverageDays.date, f.fromDate),
          lte(coverageDays.date, f.toDate),
        ),
      )
      .orderBy(asc(coverageDays.date), asc(coverageDays.id)),
  ]);
  const rows = listed.rows.map((account): AccountSummary => ({
    account,
    balances: snaps.filter((r) => r.accountId === account.id).map(toBalanceSnapshot),
    coverage: days.filter((r) => r.accountId === account.id).map(toCoverageDay),
  }));
  return { rows, count: listed.count };
}

/**
 * Intraday points of one account in scope (another company's account id yields nothing), by timestamp; dates are UTC
 * days.
 */
export async function listIntraday(
  db: Db,
  scope: DataScope,
  accountId: string,
  f: { date?: string; fromDate?: string; toDate?: string; balanceType?: string },
  page: Page,
  withCount: boolean,
) {
  const conds: SQL[] = [
    ...scopeWhere(scope, intradayPoints.tenantId, intradayPoints.companyId),
    eq(intradayPoints.accountId, accountId),
  ];
  const from = f.date ?? f.fromDate;
  const to = f.date ?? f.toDate;
  if (from) conds.push(gte(intradayPoints.timestamp, `${from}T00:00:00Z`));
  if (to) conds.push(lt(intradayPoints.timestamp, startOfNextDayUtc(to)));
  if (f.balanceType) conds.push(eq(intradayPoints.balanceType, f.balanceType));
  const where = and(...conds);
  const { rows, count } = await tablePage(
    db,
    intradayPoints,
    where,
    [asc(intradayPoints.timestamp), asc(intradayPoints.id)],
    page,
    withCount,
  );
  const out: IntradayBalancePoint[] = rows.map((r) => ({
    id: r.id,
    account_id: r.accountId,
    timestamp: isoTimestamp(r.timestamp),
    balance: formatAmount(r.balance, r.currency),
    currency: r.currency,
    balance_type: r.balanceType as IntradayBalancePoint["balance_type"],
  }));
  return { rows: out, count };
}
