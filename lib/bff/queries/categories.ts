/**
 * Cashflow categories on the server: the admin's rules (dashboard DB, changes audited by the routes), the
 * preview of a rule against the selected company's last 90 days, and the per-category cashflow of a range.
 * Transactions are read as background reads in bounded pages (`PAGE_SIZE` × at most `MAX_PAGES`), so a
 * preview or a report never starves the page loads a person waits for, nor reads without end.
 */
import "server-only";
import { cashflowByCategory, type CategoryCashflowRow } from "../../categories/summary";
import { categorise, ruleMatches, UNCATEGORISED, type CategoryRuleInput } from "../../categories/rules";
import {
  createCategoryRule,
  deleteCategoryRule,
  listCategoryRules,
  moveCategoryRule,
  updateCategoryRule,
  type CategoryRuleRow,
} from "../../categories/store";
import type { Transaction } from "@treasury/contract";
import { addDaysIso, todayUtc } from "../../dates";
import { dashboardDb } from "../../server/db";
import { treasury } from "../../server/treasury";
import { iterateItems, type CallContext } from "../../treasury-client";
import { background, companyCall, type BffContext } from "../context";
import { BffError } from "../errors";

/** Page size of the bulk transaction reads. */
export const PAGE_SIZE = 500;
/** At most this many pages per bulk read (10,000 transactions); beyond it the result says `truncated`. */
export const MAX_PAGES = 20;
/** The preview window in days, ending today (UTC). */
export const PREVIEW_DAYS = 90;

/** The rules in order and the categories they name. */
export interface CategoriesView {
  rules: CategoryRuleRow[];
  categories: string[];
}

/** The rules in order and the distinct category names (then `Uncategorised`). */
export async function categoriesView(): Promise<CategoriesView> {
  const rules = await listCategoryRules(await dashboardDb());
  return { rules, categories: [...new Set(rules.map((r) => r.category)), UNCATEGORISED] };
}

/** The rules in order (for categorising). */
export async function categoryRules(): Promise<CategoryRuleRow[]> {
  return listCategoryRules(await dashboardDb());
}

const notFound = () => new BffError("not_found", "There is no such category rule.");

export const addCategoryRule = async (input: CategoryRuleInput) => createCategoryRule(await dashboardDb(), input);

export const changeCategoryRule = async (id: string, input: CategoryRuleInput) =>
  (await updateCategoryRule(await dashboardDb(), id, input)) ?? Promise.reject(notFound());

export const moveCategoryRuleTo = async (id: string, position: number) =>
  (await moveCategoryRule(await dashboardDb(), id, position)) ?? Promise.reject(notFound());

export const removeCategoryRule = async (id: string) =>
  (await deleteCategoryRule(await dashboardDb(), id)) ?? Promise.reject(notFound());

/** Every transaction of the range (bounded), read at background priority. */
function readRange(ctx: BffContext, from_date: string, to_date: string) {
  return readTransactionRange(companyCall(ctx), from_date, to_date);
}

/**
 * Every transaction of one company's range (`call` names the company), at most `PAGE_SIZE` × `MAX_PAGES`, read at
 * background priority; `truncated` when the range holds more.
 * @throws TreasuryApiError as the reads do (after the client's retries)
 */
export async function readTransactionRange(
  call: CallContext & { companyId: string },
  from_date: string,
  to_date: string,
) {
  const first = treasury().listTransactions(background(call), { pageSize: PAGE_SIZE, from_date, to_date });
  const txs: Transaction[] = [];
  let truncated = false;
  const limit = PAGE_SIZE * MAX_PAGES;
  for await (const t of iterateItems(first, { maxPages: MAX_PAGES })) txs.push(t);
  const head = await first;
  if (head.count !== null && head.count > limit) truncated = true;
  else if (head.count === null && txs.length >= limit) truncated = true;
  return { txs, truncated };
}

/** What a rule would categorise over the last 90 days of the selected company. */
export interface CategoryPreview {
  from_date: string;
  to_date: string;
  /** Transactions read. */
  scanned: number;
  /** Transactions the rule's conditions match. */
  matched: number;
  /** Of those, the ones it would categorise placed after the existing rules (not taken by an earlier rule). */
  would_categorise: number;
  /** Of those, the ones that are `Uncategorised` today. */
  uncategorised_now: number;
  /** Up to 5 matched transactions, as examples. */
  examples: Pick<
    Transaction,
    "id" | "booked_at" | "direction" | "amount" | "currency" | "counterparty_name" | "remittance"
  >[];
  /** True when the window held more transactions than one preview reads. */
  truncated: boolean;
}

/**
 * Tests `input` against the last 90 days (today UTC inclusive). When `excludeId` is given (editing a rule) that
 * rule is left out of the existing rules and the tested rule takes its place.
 */
export async function previewCategoryRule(
  ctx: BffContext,
  input: CategoryRuleInput,
  excludeId?: string,
): Promise<CategoryPreview> {
  const to_date = todayUtc();
  const from_date = addDaysIso(to_date, -(PREVIEW_DAYS - 1));
  const all = await categoryRules();
  const existing = all.filter((r) => r.id !== excludeId);
  const at = all.find((r) => r.id === excludeId)?.position ?? Infinity;
  const before = existing.filter((r) => r.position < at);
  const { txs, truncated } = await readRange(ctx, from_date, to_date);
  let matched = 0;
  let would = 0;
  let uncategorisedNow = 0;
  const examples: CategoryPreview["examples"] = [];
  for (const t of txs) {
    if (!ruleMatches(input, t)) continue;
    matched += 1;
    if (categorise(before, t) === UNCATEGORISED) would += 1;
    if (categorise(existing, t) === UNCATEGORISED) uncategorisedNow += 1;
    if (examples.length < 5)
      examples.push({
        id: t.id,
        booked_at: t.booked_at,
        direction: t.direction,
        amount: t.amount,
        currency: t.currency,
        counterparty_name: t.counterparty_name,
        remittance: t.remittance,
      });
  }
  return {
    from_date,
    to_date,
    scanned: txs.length,
    matched,
    would_categorise: would,
    uncategorised_now: uncategorisedNow,
    examples,
    truncated,
  };
}

/** The selected company's cashflow of a range per currency and category. */
export async function getCashflowByCategory(
  ctx: BffContext,
  from_date: string,
  to_date: string,
): Promise<{ rows: CategoryCashflowRow[]; truncated: boolean }> {
  const [rules, read] = await Promise.all([categoryRules(), readRange(ctx, from_date, to_date)]);
  return { rows: cashflowByCategory(rules, read.txs), truncated: read.truncated };
}
