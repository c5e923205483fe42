/**
 * Read views that combine several spec reads into what one
 * screen shows (overview, accounts list with balances and coverage, account
 * detail). Each piece is one allowlisted upstream read (docs/treasury-api.md#ledger,
 * Payments, Approvals, Reconciliation, Reporting) sent with the selected
 * company; nothing is forwarded that the spec does not name. Figures stay
 * decimal strings; totals are computed with decimal.js in `lib/totals`.
 *
 * Shared by server components (prefetch) and route handlers alike.
 */
import "server-only";
import type {
  Account,
  BalanceSnapshot,
  BalanceType,
  CoverageDay,
  PaymentInstruction,
  PaymentStatusEvent,
} from "@treasury/contract";
import { can } from "../../auth/roles";
import { addDaysIso, todayUtc } from "../../dates";
import { latestWithChange } from "../../totals";
import { buildAccountRow, type AccountRow } from "../../views/accounts";
import { hasCoverageGap } from "../../views/account-list";
import { coverageWindow, type CoverageCell } from "../../views/coverage";
import { collectAll, type Page } from "../../treasury-client";
import { companyCall, plainCall, type BffContext } from "../context";
import { treasury } from "../../server/treasury";
import { accountRows, allAccounts, recentWindow } from "./account-rows";

import type { Count, OverviewEvent, OverviewView } from "../../views/overview";
import { capabilities } from "../capabilities";
import { lookup } from "./match-sides";

export { mapLimit } from "./map-limit";
export type { Count, OverviewView };

/** Everything the account detail header, balances table and coverage calendar show. */
export interface AccountDetailView {
  account: Account;
  row: AccountRow;
  /** Balance snapshots of the last 30 days, newest first. */
  balances: BalanceSnapshot[];
  /** The last 90 completed days. */
  coverage: CoverageCell[];
}

export async function getAccountDetail(ctx: BffContext, id: string): Promise<AccountDetailView> {
  const call = companyCall(ctx);
  const today = todayUtc();
  const account = await treasury().getAccount(call, id);
  const [balances, coverage] = await Promise.all([
    collectAll(
      treasury().listAccountBalances(call, id, { from_date: addDaysIso(today, -30), to_date: today, pageSize: 1000 }),
    ),
    collectAll(
      treasury().listAccountCoverage(call, id, {
        from_date: addDaysIso(today, -90),
        to_date: addDaysIso(today, -1),
        pageSize: 1000,
      }),
    ),
  ]);
  const { from, to } = recentWindow(today);
  const sorted = [...balances].sort((a, b) =>
    a.as_of_date < b.as_of_date ? 1 : a.as_of_date > b.as_of_date ? -1 : a.balance_type.localeCompare(b.balance_type),
  );
  return {
    account,
    row: buildAccountRow(
      account,
      balances,
      coverage.filter((c: CoverageDay) => c.date >= from),
      from,
      to,
      today,
    ),
    balances: sorted,
    coverage: coverageWindow(coverage, addDaysIso(today, -90), addDaysIso(today, -1)),
  };
}

async function countOf<T>(fetch: (pageSize: number) => Promise<Page<T>>): Promise<number> {
  const first = await fetch(1);
  if (first.count !== null) return first.count;
  // Form A has no count: read up to the limit and count (docs/treasury-api.md#limits: limit max 1000).
  return (await fetch(1000)).items.length;
}

async function settle<T>(p: Promise<T>, name: string, unavailable: string[]): Promise<T | null> {
  try {
    return await p;
  } catch {
    unavailable.push(name);
    return null;
  }
}

/**
 * What each event is about, in one more upstream call: the instructions in one by-id lookup (the
 * `payments.instructions_lookup` extension; one read per id against an API without it), which also carries each
 * instruction's batch reference, so the batch is named without reading it (a further batches read would take the
 * cold overview past its budget of 8 upstream calls). Without a reference (the per-id fallback, or a batch that has
 * none) `batch_reference` is null and the batch is named by its short id; a failed read leaves the fields null.
 */
async function describeEvents(ctx: BffContext, events: readonly PaymentStatusEvent[]): Promise<OverviewEvent[]> {
  const call = companyCall(ctx);
  const t = treasury();
  const caps = await capabilities();
  const ids = [...new Set(events.map((e) => e.instruction_id))];
  const instructions = await lookup(
    ids,
    caps.has("payments.instructions_lookup") ? (list) => t.lookupInstructions(call, list) : null,
    (id) => t.getInstruction(call, id),
  ).catch(() => new Map<string, PaymentInstruction>());
  const companyName = ctx.companies.find((c) => c.id === call.companyId)?.name ?? ctx.company?.name ?? null;
  return events.map((e) => {
    const i = instructions.get(e.instruction_id);
    const reference = i?.batch_reference?.trim();
    return {
      ...e,
      payee: i?.creditor_name ?? null,
      amount: i?.amount ?? null,
      currency: i?.currency ?? null,
      batch_id: i?.batch_id ?? e.batch_id ?? null,
      batch_reference: reference ? reference : null,
      // The events are read with the selected company's X-Company-ID: they are all of that company.
      company_name: companyName,
    };
  });
}

/** The overview. Every part is read independently, so one failing area leaves the rest visible. */
export async function getOverview(ctx: BffContext): Promise<OverviewView> {
  const call = companyCall(ctx);
  const t = treasury();
  const today = todayUtc();
  const unavailable: string[] = [];
  const mayApprove = can(ctx.user.roles, "approvals.read");
  const [history, approvals, matches, batches, missing, events] = await Promise.all([
    settle(
      collectAll(t.positionsDaily(call, { from_date: addDaysIso(today, -30), to_date: today, pageSize: 1000 })),
      "positions",
      unavailable,
    ),
    mayApprove
      ? settle(
          countOf((n) => t.listPendingApprovals(plainCall(ctx), { pageSize: n })),
          "approvals",
          unavailable,
        )
      : Promise.resolve("not_allowed" as const),
    settle(
      countOf((n) => t.listMatches(call, { state: "proposed", pageSize: n })),
      "reconciliation",
      unavailable,
    ),
    settle(
      countOf((n) => t.listBatches(call, { status: "processing", pageSize: n })),
      "payments",
      unavailable,
    ),
    settle(
      // The same rows (and cache) as the accounts list, so the count equals what its link shows.
      (async () =>
        (await accountRows(ctx, await allAccounts(ctx, { status: "active" }), today)).filter(hasCoverageGap).length)(),
      "coverage",
      unavailable,
    ),
    settle(
      (async () => {
        const rows = await latestStatusEvents(t, call, today);
        const latest = [...rows]
          .sort((a, b) => (a.occurred_at < b.occurred_at ? 1 : a.occurred_at > b.occurred_at ? -1 : 0))
          .slice(0, 10);
        return describeEvents(ctx, latest);
      })(),
      "payment events",
      unavailable,
    ),
  ]);
  const closing = history ?? [];
  return {
    today,
    positions: latestWithChange(closing),
    history: closing,
    counts: {
      approvals:
        approvals === "not_allowed"
          ? "not_allowed"
          : approvals === null
            ? null
            : { value: approvals, href: "/approvals" },
      proposedMatches: matches === null ? null : { value: matches, href: "/reconciliation?status=proposed" },
      processingBatches: batches === null ? null : { value: batches, href: "/payments?status=processing" },
      accountsMissingCoverage:
        missing === null ? null : { value: missing, href: "/accounts?coverage=gaps&status=active" },
    },
    events,
    unavailable,
  };
}

/**
 * Every intraday point of an account for one day (`date`) or a range, of
 * one balance type (`/accounts/{id}/intraday`, docs/treasury-api.md#ledger), following pages.
 * At most 50 pages of 1,000 (a week of 10-second points) are read.
 */
export async function getIntradayPoints(
  ctx: BffContext,
  id: string,
  q: { date?: string; from_date?: string; to_date?: string; balance_type?: BalanceType },
) {
  const first = treasury().listAccountIntraday(companyCall(ctx), id, {
    pageSize: 1000,
    date: q.date,
    from_date: q.from_date,
    to_date: q.to_date,
    balance_type: q.balance_type,
  });
  return collectAll(first, { maxPages: 50 });
}

/** Every daily cashflow row of the range (`/reporting/cashflow/daily`, docs/treasury-api.md#reporting), all pages. */
export async function getCashflowRange(ctx: BffContext, from_date: string, to_date: string) {
  return collectAll(treasury().cashflowDaily(companyCall(ctx), { pageSize: 1000, from_date, to_date }), {
    maxPages: 50,
  });
}

/** Every daily position row of the range (`/reporting/positions/daily`, docs/treasury-api.md#reporting), all pages. */
export async function getPositionsRange(ctx: BffContext, from_date: string, to_date: string) {
  return collectAll(treasury().positionsDaily(companyCall(ctx), { pageSize: 1000, from_date, to_date }), {
    maxPages: 50,
  });
}

/** The whole forecast (`/reporting/forecast`, docs/treasury-api.md#reporting), all pages. */
export async function getForecast(ctx: BffContext, days = 30) {
  return collectAll(treasury().forecast(companyCall(ctx), { pageSize: 1000, days }), { maxPages: 50 });
}

/** Rows per page of the recent status events read: the last 30 days of a company fit in one page. */
const RECENT_EVENTS_PAGE = 200;

/**
 * At least the 10 newest payment status events of the company (`GET /payments/status-events`, docs/treasury-api.md#payments, listed oldest
 * first, so the newest are on the last page): the last 30 days in one call when they fit in one page, else also its
 * last page; with no event in those 30 days, the first and last pages of the whole list (as before the window).
 * Upstream calls: 1 on a company with recent activity, at most 3.
 */
async function latestStatusEvents(t: ReturnType<typeof treasury>, call: ReturnType<typeof companyCall>, today: string) {
  const readTail = async (filters: { from_date?: string; pageSize: number }) => {
    const first = await t.listStatusEvents(call, filters);
    if (!first.totalPages || first.totalPages <= 1) return first.items;
    const last = await t.listStatusEvents(call, { ...filters, page: first.totalPages });
    return [...first.items, ...last.items];
  };
  const recent = await readTail({ from_date: addDaysIso(today, -30), pageSize: RECENT_EVENTS_PAGE });
  return recent.length > 0 ? recent : readTail({ pageSize: 10 });
}
