/**
 * Ledger queries and writes (spec §4 Ledger), shared by server components
 * and route handlers. Reads are company-scoped (X-Company-ID).
 */
import "server-only";
import type { z } from "zod";
import type { AccountUpsert } from "../../contract";
import { companyCall, type BffContext, type WriteScope } from "../context";
import {
  pageParams,
  type AccountTransactionsQuery,
  type AccountsQuery,
  type BalancesQuery,
  type CoverageQuery,
  type IntradayQuery,
  type TransactionsQuery,
} from "../inputs";
import { treasury } from "../../server/treasury";
import { invalidateAccountCache } from "./account-rows";
import { toBffPage } from "./page";

type In<T extends z.ZodType> = z.output<T>;

export async function listAccounts(ctx: BffContext, q: In<typeof AccountsQuery> = {}) {
  return toBffPage(
    await treasury().listAccounts(companyCall(ctx), { ...pageParams(q), currency: q.currency, status: q.status }),
  );
}

export async function getAccount(ctx: BffContext, id: string) {
  return treasury().getAccount(companyCall(ctx), id);
}

/**
 * Upsert of an account (spec §2 Account upsert); the route has checked that
 * `company_id` is the selected company, which `ctx.write` sends upstream.
 */
export async function upsertAccount(ctx: WriteScope, body: AccountUpsert) {
  const account = await treasury().upsertAccount(ctx.write, body);
  // The accounts list caches the company's accounts for a few seconds; a write must show at once.
  invalidateAccountCache(body.company_id);
  return account;
}

export async function listAccountTransactions(
  ctx: BffContext,
  id: string,
  q: In<typeof AccountTransactionsQuery> = {},
) {
  return toBffPage(
    await treasury().listAccountTransactions(companyCall(ctx), id, {
      ...pageParams(q),
      from_date: q.from_date,
      to_date: q.to_date,
      direction: q.direction,
    }),
  );
}

export async function listAccountBalances(ctx: BffContext, id: string, q: In<typeof BalancesQuery> = {}) {
  return toBffPage(
    await treasury().listAccountBalances(companyCall(ctx), id, {
      ...pageParams(q),
      from_date: q.from_date,
      to_date: q.to_date,
      balance_type: q.balance_type,
    }),
  );
}

export async function listAccountCoverage(ctx: BffContext, id: string, q: In<typeof CoverageQuery> = {}) {
  return toBffPage(
    await treasury().listAccountCoverage(companyCall(ctx), id, {
      ...pageParams(q),
      from_date: q.from_date,
      to_date: q.to_date,
    }),
  );
}

export async function listAccountIntraday(ctx: BffContext, id: string, q: In<typeof IntradayQuery> = {}) {
  return toBffPage(
    await treasury().listAccountIntraday(companyCall(ctx), id, {
      ...pageParams(q),
      date: q.date,
      from_date: q.from_date,
      to_date: q.to_date,
      balance_type: q.balance_type,
    }),
  );
}

export async function listTransactions(ctx: BffContext, q: In<typeof TransactionsQuery> = {}) {
  return toBffPage(
    await treasury().listTransactions(companyCall(ctx), {
      ...pageParams(q),
      from_date: q.from_date,
      to_date: q.to_date,
      account_id: q.account_id,
      direction: q.direction,
      currency: q.currency,
    }),
  );
}

export async function getTransaction(ctx: BffContext, id: string) {
  return treasury().getTransaction(companyCall(ctx), id);
}
