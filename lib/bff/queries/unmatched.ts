/**
 * The unmatched view of reconciliation: settled payment instructions and debit
 * transactions that no confirmed match names, and the payments the bank
 * rejected with its reason (never proposed: no booking will come), each aged
 * (whole days since its settlement / value / rejection date, in its company's
 * today) and bucketed (0–2, 3–7, 8–30, over 30 days); the counterparts offered
 * for a manual match; and the manual match itself
 * (docs/guides/reconciliation.md, "Unmatched items" and "Rejected by the bank").
 *
 * With the API's extension `GET /reconciliation/unmatched` a page costs one
 * upstream read (age buckets become a date range, sort and search go upstream).
 * Without it, a bounded fallback of spec reads serves one company's last
 * {@link FALLBACK_WINDOW_DAYS} days: confirmed matches, settled status events and
 * debit transactions (one page of each), the page's instructions by id (in bulk when the API offers the lookup, else a bounded
 * number of reads in flight); a search of instructions then covers the page read.
 *
 * Company context: a named `company_id` must be one of the user's; without it an
 * unrestricted user sees every company the API client sees, a user limited to
 * some companies sees the selected company only. Rows are narrowed to the
 * user's companies again before they are answered.
 */
import "server-only";
import Decimal from "decimal.js";
import { z } from "zod";
import {
  CurrencyCode,
  DecimalString,
  IsoDate,
  Uuid,
  freeText,
  type Company,
  type PaymentInstruction,
  type ReconciliationMatch,
  type Transaction,
  type UnmatchedItem,
  type UnmatchedKind,
  UnmatchedKind as UnmatchedKindSchema,
  UNMATCHED_SEARCH_MAX,
} from "@treasury/contract";
import { businessToday } from "@treasury/contract/business-date";
import { collectAll, type CallContext, type WriteContext } from "../../treasury-client";
import { treasury } from "../../server/treasury";
import { capabilities } from "../capabilities";
import type { BffContext, WriteScope } from "../context";
import { BffError } from "../errors";
import { crossCompanyCall, visibleTo } from "./cross-company";
import { lookup } from "./match-sides";
import {
  AGE_BUCKETS,
  AGE_BUCKET_KEYS,
  UNMATCHED_VIEW_SORTS,
  ageBucketOf,
  type MatchCandidate,
  type UnmatchedPage,
  type UnmatchedRow,
  type UnmatchedViewSort,
} from "../../views/unmatched";

export const UNMATCHED_PAGE_SIZE = 25;
/** Days back the fallback (an API without the unmatched list) reads. */
export const FALLBACK_WINDOW_DAYS = 90;
/** Counterparts offered for one item. */
export const CANDIDATE_LIMIT = 20;
/** Without a search, counterparts lie within this share of the item's amount and these days of its date. */
export const CANDIDATE_AMOUNT_SHARE = "0.10";
export const CANDIDATE_DAYS = 30;

const Search = z
  .string()
  .trim()
  .min(1, { message: "must not be empty" })
  .max(UNMATCHED_SEARCH_MAX, { message: `must be at most ${UNMATCHED_SEARCH_MAX} characters` });

/** Query of the view: kind, age bucket, company, search, sort, page. */
export const UnmatchedViewQuery = z.object({
  kind: UnmatchedKindSchema.default("instruction"),
  age: z.enum(AGE_BUCKET_KEYS, { message: `must be one of ${AGE_BUCKET_KEYS.join(", ")}` }).optional(),
  company_id: Uuid.optional(),
  q: Search.optional(),
  sort: z
    .enum(UNMATCHED_VIEW_SORTS, { message: `must be one of ${UNMATCHED_VIEW_SORTS.join(", ")}` })
    .default("oldest"),
  page: z.coerce.number().int().min(1).max(10_000).optional(),
});
export type UnmatchedViewQuery = z.output<typeof UnmatchedViewQuery>;

/** Query of the counterparts of one item: the item's kind, company, currency, amount and date; a search. */
export const CandidatesQuery = z.object({
  // A rejected payment has no counterpart: no booking will come for it.
  for_kind: z.enum(["instruction", "transaction"], { message: "must be instruction or transaction" }),
  company_id: Uuid,
  currency: CurrencyCode,
  amount: DecimalString,
  date: IsoDate,
  q: Search.optional(),
});

/** Body of a manual match: both sides, their company, an optional note (kept as the match's reason). */
export const ManualMatchBody = z
  .object({
    instruction_id: Uuid,
    transaction_id: Uuid,
    company_id: Uuid,
    note: freeText(500).optional(),
  })
  .strict();

const API_SORT: Record<UnmatchedViewSort, "date" | "-date" | "amount" | "-amount"> = {
  oldest: "date",
  newest: "-date",
  amount_desc: "-amount",
  amount_asc: "amount",
};

/** `date` moved by `days` (YYYY-MM-DD, calendar arithmetic in UTC). */
function shift(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` (both YYYY-MM-DD). */
function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** The date range of an age bucket counted back from `today`. */
export function bucketRange(key: string, today: string): { from_date?: string; to_date?: string } {
  const b = AGE_BUCKETS.find((x) => x.key === key);
  if (!b) return {};
  return { ...(b.max !== null ? { from_date: shift(today, -b.max) } : {}), to_date: shift(today, -b.min) };
}

/**
 * The distinct todays (`YYYY-MM-DD`, oldest first) of `companies`, each in its company's zone; UTC's today for none.
 * Two when the companies straddle midnight (at 22:30 UTC a Finnish company is a day ahead of a Norwegian one).
 */
export function companyTodays(companies: readonly Pick<Company, "country">[], now = new Date()): string[] {
  const days = new Set(companies.map((c) => businessToday(c.country, now)));
  if (days.size === 0) days.add(businessToday(null, now));
  return [...days].sort();
}

/**
 * The date range of an age bucket for companies whose todays are `todays` (see {@link companyTodays}): the union of
 * each today's {@link bucketRange}, so no company's item of the bucket is left out; rows are then kept by their own
 * company's age. Docs: docs/guides/reconciliation.md, "Unmatched items".
 */
export function bucketRangeOver(key: string, todays: readonly string[]): { from_date?: string; to_date?: string } {
  const ranges = todays.map((t) => bucketRange(key, t));
  const froms = ranges.map((r) => r.from_date);
  const tos = ranges.map((r) => r.to_date).filter((d): d is string => d !== undefined);
  return {
    ...(froms.every((d): d is string => d !== undefined) && froms.length > 0 ? { from_date: froms.sort()[0] } : {}),
    ...(tos.length > 0 ? { to_date: tos.sort()[tos.length - 1] } : {}),
  };
}

/** The companies and upstream context of the view (see the module comment). */
function viewScope(ctx: BffContext, companyId: string | undefined): { call: CallContext; companies: Company[] } {
  if (companyId || ctx.user.companyIds === null) {
    const call = crossCompanyCall(ctx, companyId, "read");
    return { call, companies: companyId ? ctx.companies.filter((c) => c.id === companyId) : ctx.companies };
  }
  if (!ctx.company)
    throw new BffError("permission_denied", "No company is available to you. Ask an administrator for access.");
  return {
    call: { requestId: ctx.requestId, companyId: ctx.company.id, outcome: ctx.upstream },
    companies: [ctx.company],
  };
}

/** Today where each company is, and the row builder that ages an item with its company's today. */
function rowMaker(companies: readonly Company[]) {
  const byId = new Map(companies.map((c) => [c.id, c]));
  const fallbackToday = businessToday(companies[0]?.country);
  return (item: UnmatchedItem): UnmatchedRow => {
    const company = byId.get(item.company_id);
    const age = Math.max(0, daysBetween(item.date, company ? businessToday(company.country) : fallbackToday));
    return { ...item, company_name: company?.name ?? "", age_days: age, age_bucket: ageBucketOf(age).key };
  };
}

/** Whether the API can make a match by hand, and why not. */
async function manualMatchSupport(): Promise<{ manual_match: boolean; manual_match_reason: string | null }> {
  const ok = (await capabilities()).has("reconciliation.manual_match");
  return {
    manual_match: ok,
    manual_match_reason: ok
      ? null
      : "The Treasury API this dashboard uses cannot create a match by hand; matches can only be confirmed from " +
        "its proposals.",
  };
}

/** One page of the unmatched view. @throws BffError 403 for a company that is not the user's. */
export async function listUnmatchedView(ctx: BffContext, q: UnmatchedViewQuery): Promise<UnmatchedPage> {
  const { call, companies } = viewScope(ctx, q.company_id);
  const caps = await capabilities();
  const support = await manualMatchSupport();
  const toRow = rowMaker(companies);
  const page = q.page ?? 1;
  const listed = q.kind === "rejected" ? "reconciliation.rejected" : "reconciliation.unmatched";
  if (!caps.has(listed)) return fallbackView(ctx, q, call, companies, support);
  const todays = companyTodays(companies.length > 0 ? companies : ctx.company ? [ctx.company] : []);
  const got = await treasury().listUnmatched(call, {
    kind: q.kind,
    ...(q.age ? bucketRangeOver(q.age, todays) : {}),
    ...(q.q ? { q: q.q } : {}),
    sort: API_SORT[q.sort],
    page,
    pageSize: UNMATCHED_PAGE_SIZE,
  });
  // Companies on either side of midnight: the range covers both todays, each row stays only in its own bucket.
  const items = got.items
    .filter(visibleTo(ctx))
    .map(toRow)
    .filter((r) => !q.age || r.age_bucket === q.age);
  const count = got.count ?? items.length;
  const totalPages = got.totalPages ?? Math.max(1, Math.ceil(count / UNMATCHED_PAGE_SIZE));
  return {
    kind: q.kind,
    source: "extension",
    window_days: null,
    ...support,
    items,
    count,
    page,
    page_size: UNMATCHED_PAGE_SIZE,
    total_pages: totalPages,
    has_next: got.next !== null,
    has_previous: page > 1,
  };
}

/** An instruction or transaction read through the spec, as an unmatched item (`kind` instruction or rejected). */
function instructionItem(
  i: PaymentInstruction,
  companyId: string,
  date: string,
  kind: "instruction" | "rejected" = "instruction",
): UnmatchedItem {
  return {
    kind,
    id: i.id,
    company_id: companyId,
    account_id: null,
    account_name: null,
    amount: i.amount,
    currency: i.currency,
    date,
    counterparty_name: i.creditor_name,
    end_to_end_id: i.end_to_end_id,
    remittance: null,
    batch_id: i.batch_id ?? null,
    status: i.status ?? (kind === "rejected" ? "rejected" : "settled"),
    proposed_matches: 0,
  };
}

function transactionItem(t: Transaction, companyId: string): UnmatchedItem {
  return {
    kind: "transaction",
    id: t.id,
    company_id: companyId,
    account_id: t.account_id,
    account_name: null,
    amount: t.amount,
    currency: t.currency,
    date: t.value_date ?? t.value_at.slice(0, 10),
    counterparty_name: t.counterparty_name,
    end_to_end_id: t.end_to_end_id ?? null,
    remittance: t.remittance || null,
    batch_id: null,
    status: "booked",
    proposed_matches: 0,
  };
}

/** The Treasury client (lib/server/treasury.ts). */
type Api = ReturnType<typeof treasury>;

/**
 * The unmatched items of one company's tab from spec reads over the days since `from` (at most 1,000 of each read;
 * docs/guides/reconciliation.md#unmatched-items): debit transactions not in a confirmed match, rejected
 * instructions (with the bank's reason), or settled instructions not in a confirmed match; each with its count of
 * proposed matches.
 * Instructions carry only their id, date and event fields here: the page's rows are read in full later.
 */
async function fallbackItems(
  api: Api,
  call: CallContext,
  kind: UnmatchedViewQuery["kind"],
  companyId: string,
  from: string,
): Promise<UnmatchedItem[]> {
  const matches = await collectAll(api.listMatches(call, { pageSize: 1000 }), { maxPages: 5 });
  const confirmed = matches.filter((m: ReconciliationMatch) => m.state === "confirmed");
  const proposedCount = (key: "payment_instruction_id" | "transaction_id", id: string) =>
    matches.filter((m) => m.state === "proposed" && m[key] === id).length;
  /** An instruction known only by its id, until the page's read fills it. */
  const bare = (id: string) => ({
    id,
    amount: "0",
    currency: "",
    creditor_name: "",
    creditor_iban: "",
    end_to_end_id: "",
  });
  if (kind === "transaction") {
    const taken = new Set(confirmed.map((m) => m.transaction_id));
    const page = await api.listTransactions(call, { direction: "debit", from_date: from, pageSize: 1000 });
    return page.items
      .filter((t) => t.direction === "debit" && !taken.has(t.id))
      .map((t) => ({ ...transactionItem(t, companyId), proposed_matches: proposedCount("transaction_id", t.id) }));
  }
  if (kind === "rejected") {
    // The bank's reason comes with the status event; amount, payee and reference with the page's read below.
    const events = await api.listStatusEvents(call, { status: "rejected", from_date: from, pageSize: 1000 });
    return events.items
      .filter((e) => e.status === "rejected")
      .map((e) => ({
        ...instructionItem(bare(e.instruction_id), companyId, e.occurred_at.slice(0, 10), "rejected"),
        batch_id: e.batch_id ?? null,
        reason: e.reason ?? null,
        reason_text: e.reason_text ?? null,
      }));
  }
  const taken = new Set(confirmed.map((m) => m.payment_instruction_id));
  const events = await api.listStatusEvents(call, { status: "settled", from_date: from, pageSize: 1000 });
  const settledOn = new Map<string, string>();
  for (const e of events.items)
    if (e.status === "settled" && !taken.has(e.instruction_id)) settledOn.set(e.instruction_id, e.occurred_at);
  return [...settledOn].map(([id, at]) => ({
    ...instructionItem(bare(id), companyId, at.slice(0, 10)),
    proposed_matches: proposedCount("payment_instruction_id", id),
  }));
}

/**
 * The page's instruction rows read in full (by the lookup capability when the API has it, else one by one): the
 * read fills amount, payee and reference; the event's batch, reason and the proposal count stay. A row whose
 * instruction is not found stays as it was.
 */
async function filledInstructions(
  api: Api,
  call: CallContext,
  slice: readonly UnmatchedRow[],
  companyId: string,
  kind: "instruction" | "rejected",
): Promise<UnmatchedRow[]> {
  const caps = await capabilities();
  const read = await lookup(
    slice.map((r) => r.id),
    caps.has("payments.instructions_lookup") ? (ids) => api.lookupInstructions(call, ids) : null,
    (id) => api.getInstruction(call, id),
  );
  return slice.map((r) => {
    const i = read.get(r.id);
    if (!i) return r;
    // The read fills amount, payee and reference; the event's batch, reason and the proposal count stay.
    const item = instructionItem(i, companyId, r.date, kind);
    return { ...r, ...item, batch_id: item.batch_id ?? r.batch_id, proposed_matches: r.proposed_matches };
  });
}

/**
 * The view from spec reads (an API without the unmatched list): one company (the named or selected one), the last
 * {@link FALLBACK_WINDOW_DAYS} days, at most 1,000 items of each read; filtered, sorted and paged here.
 * @throws BffError permission_denied when no company is available to the user.
 */
async function fallbackView(
  ctx: BffContext,
  q: UnmatchedViewQuery,
  scoped: CallContext,
  companies: readonly Company[],
  support: { manual_match: boolean; manual_match_reason: string | null },
): Promise<UnmatchedPage> {
  const company = companies.length === 1 ? companies[0] : (ctx.company ?? undefined);
  if (!company)
    throw new BffError("permission_denied", "No company is available to you. Ask an administrator for access.");
  const call: CallContext = { ...scoped, companyId: company.id };
  const today = businessToday(company.country);
  const from = shift(today, -FALLBACK_WINDOW_DAYS);
  const api = treasury();
  const items = await fallbackItems(api, call, q.kind, company.id, from);
  const toRow = rowMaker([company]);
  let rows = items.map(toRow);
  if (q.age) rows = rows.filter((r) => r.age_bucket === q.age);
  const needle = q.q?.toLowerCase();
  const found = (r: UnmatchedRow) =>
    !needle ||
    [r.counterparty_name, r.end_to_end_id ?? "", r.remittance ?? ""].some((s) => s.toLowerCase().includes(needle));
  // Transactions arrive whole and are searched before paging; instructions are read in full for the page only.
  if (q.kind === "transaction") rows = rows.filter(found);
  rows.sort(compareRows(q.sort));
  const pageNo = q.page ?? 1;
  let slice = rows.slice((pageNo - 1) * UNMATCHED_PAGE_SIZE, pageNo * UNMATCHED_PAGE_SIZE);
  const instructions = q.kind !== "transaction";
  // Only the page shown is read in full: amount, creditor and reference come with the instruction.
  if (instructions && slice.length > 0)
    slice = await filledInstructions(api, call, slice, company.id, q.kind === "rejected" ? "rejected" : "instruction");
  if (instructions) slice = slice.filter(found);
  const totalPages = Math.max(1, Math.ceil(rows.length / UNMATCHED_PAGE_SIZE));
  return {
    kind: q.kind,
    source: "fallback",
    window_days: FALLBACK_WINDOW_DAYS,
    ...support,
    items: slice.filter(visibleTo(ctx)),
    count: rows.length,
    page: pageNo,
    page_size: UNMATCHED_PAGE_SIZE,
    total_pages: totalPages,
    has_next: pageNo < totalPages,
    has_previous: pageNo > 1,
  };
}

/** Row order of a view sort (ties by id, so pages are stable). */
function compareRows(sort: UnmatchedViewSort): (a: UnmatchedRow, b: UnmatchedRow) => number {
  const byId = (a: UnmatchedRow, b: UnmatchedRow) => a.id.localeCompare(b.id);
  switch (sort) {
    case "newest":
      return (a, b) => b.date.localeCompare(a.date) || byId(a, b);
    case "amount_desc":
      return (a, b) => new Decimal(b.amount).cmp(a.amount) || byId(a, b);
    case "amount_asc":
      return (a, b) => new Decimal(a.amount).cmp(b.amount) || byId(a, b);
    default:
      return (a, b) => a.date.localeCompare(b.date) || byId(a, b);
  }
}

/**
 * Counterparts for a manual match of one item: unmatched items of the other kind in the same company and currency;
 * without a search those within {@link CANDIDATE_AMOUNT_SHARE} of the amount and {@link CANDIDATE_DAYS} days of the
 * date, with a search anything the search finds. Closest amount first, then closest date. One upstream read.
 * @throws BffError 403 for a company that is not the user's; 409 when the API has no unmatched list.
 */
export async function listCandidates(
  ctx: BffContext,
  q: z.output<typeof CandidatesQuery>,
): Promise<{ items: MatchCandidate[] }> {
  const call = crossCompanyCall(ctx, q.company_id, "read");
  if (!(await capabilities()).has("reconciliation.unmatched"))
    throw new BffError("conflict", "The Treasury API does not list unmatched items to pick a counterpart from.");
  const kind: UnmatchedKind = q.for_kind === "instruction" ? "transaction" : "instruction";
  const amount = new Decimal(q.amount).abs();
  const near = amount.mul(CANDIDATE_AMOUNT_SHARE);
  const got = await treasury().listUnmatched(call, {
    kind,
    currency: q.currency,
    ...(q.q
      ? { q: q.q }
      : {
          min_amount: Decimal.max(0, amount.minus(near)).toFixed(2),
          max_amount: amount.plus(near).toFixed(2),
          from_date: shift(q.date, -CANDIDATE_DAYS),
          to_date: shift(q.date, CANDIDATE_DAYS),
        }),
    pageSize: 200,
  });
  const toRow = rowMaker(ctx.companies.filter((c) => c.id === q.company_id));
  const items = got.items
    .filter(visibleTo(ctx))
    .filter((i) => i.company_id === q.company_id)
    .map((i): MatchCandidate => {
      const row = toRow(i);
      return {
        ...row,
        amount_difference: new Decimal(i.amount).minus(amount).toFixed(2),
        days_apart: Math.abs(daysBetween(q.date, i.date)),
      };
    })
    .sort(
      (a, b) =>
        new Decimal(a.amount_difference).abs().cmp(new Decimal(b.amount_difference).abs()) ||
        a.days_apart - b.days_apart ||
        a.id.localeCompare(b.id),
    )
    .slice(0, CANDIDATE_LIMIT);
  return { items };
}

/**
 * Creates a confirmed match by hand, attributed to the signed-in user (the API's reviewer) and the API client.
 * @throws BffError 409 when the API cannot make matches by hand (reason not_supported); 403 for a company that is
 *   not the user's; TreasuryApiError 404 (a side not visible), 400 (wrong counterpart), 409 (already matched).
 */
export async function createManualMatch(
  ctx: WriteScope,
  body: z.output<typeof ManualMatchBody>,
): Promise<ReconciliationMatch> {
  if (!(await capabilities()).has("reconciliation.manual_match"))
    throw new BffError("conflict", (await manualMatchSupport()).manual_match_reason ?? "", {
      reason: "not_supported",
    });
  const call: WriteContext = { ...ctx.write, ...crossCompanyCall(ctx, body.company_id, "write") };
  return treasury().createManualMatch(call, {
    instruction_id: body.instruction_id,
    transaction_id: body.transaction_id,
    reviewer: ctx.user.email,
    ...(body.note ? { note: body.note } : {}),
  });
}
