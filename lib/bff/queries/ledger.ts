/**
 * Ledger loads shared by a page and its route handler (docs/treasury-api.md#ledger), and
 * the account upsert. Reads are company-scoped (X-Company-ID). Routes that
 * only forward a filter call the client themselves.
 */
import "server-only";
import type { z } from "zod";
import type { AccountUpsert } from "@treasury/contract";
import { treasury } from "../../server/treasury";
import { companyCall, type BffContext, type WriteScope } from "../context";
import type { AccountsQuery, TransactionsQuery } from "../inputs";
import { categorise } from "../../categories/rules";
import { categoryRules } from "./categories";
import { invalidateAccountCache } from "./account-rows";
import { clientFilters, toBffPage } from "./page";

/** The selected company's accounts, one page (the transactions filter and the new-batch form list them). */
export async function listAccounts(ctx: BffContext, q: z.output<typeof AccountsQuery> = {}) {
  return toBffPage(await treasury().listAccounts(companyCall(ctx), clientFilters(q)));
}

/**
 * Upsert of an account (docs/treasury-api.md#resources, Account upsert body); the route has checked that
 * `company_id` is the selected company, which `ctx.write` sends upstream.
 */
export async function upsertAccount(ctx: WriteScope, body: AccountUpsert) {
  const account = await treasury().upsertAccount(ctx.write, body);
  // The accounts list caches the company's accounts for a few seconds; a write must show at once.
  invalidateAccountCache(body.company_id);
  return account;
}

/**
 * The selected company's transactions, one page (the transactions and account pages prefetch it), each with its
 * cashflow `category` (lib/categories/rules.ts; `Uncategorised` when no rule matches), computed here on the server.
 */
export async function listTransactions(ctx: BffContext, q: z.output<typeof TransactionsQuery> = {}) {
  const [page, rules] = await Promise.all([
    treasury().listTransactions(companyCall(ctx), clientFilters(q)),
    categoryRules(),
  ]);
  const out = toBffPage(page);
  return { ...out, items: out.items.map((t) => ({ ...t, category: categorise(rules, t) })) };
}
