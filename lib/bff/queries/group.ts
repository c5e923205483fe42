/**
 * The group cash position of the signed-in user (lib/group/group-position.ts)
 * read through the process's treasury client: only the user's visible
 * companies (`ctx.companies`, already narrowed to the user's allowed list),
 * each read with its own `X-Company-ID`. When the API offers account
 * summaries (./account-summaries.ts), the accounts and their balances of
 * every company come from that one shared read; otherwise the account lists
 * share the accounts list's 30-second cache and balance reads are cached for
 * 30 s per company, account and window, so a currency switch or a reload
 * within that time makes no upstream call. Rates come from the dashboard
 * database.
 */
import "server-only";
import type { BalanceSnapshot, Company } from "../../contract";
import { todayUtc } from "../../dates";
import { loadFxRates } from "../../fx/convert";
import { groupPosition, type GroupPosition, type GroupSource } from "../../group/group-position";
import { collectAll } from "../../treasury-client";
import { dashboardDb } from "../../server/db";
import { treasury } from "../../server/treasury";
import type { BffContext } from "../context";
import { TtlCache } from "../ttl-cache";
import { allAccounts } from "./account-rows";
import { accountSummaries, summaryWindow } from "./account-summaries";

export type { GroupPosition };

/** Upstream calls in flight at most for one group view (spec §8 rate limits per client). */
export const GROUP_CONCURRENCY = 6;

const g = globalThis as typeof globalThis & { __groupBalanceCache?: TtlCache<BalanceSnapshot[]> };
const balanceCache = (g.__groupBalanceCache ??= new TtlCache<BalanceSnapshot[]>({
  ttlMs: 30_000,
  maxEntries: 20_000,
}));

/** The reads of one request: every call names its company and carries the request id. */
function sourceFor(ctx: BffContext): GroupSource {
  const call = (c: Company) => ({ companyId: c.id, requestId: ctx.requestId });
  return {
    // A plain context per company (a route's context has getters that must not be spread).
    listAccounts: (c) =>
      allAccounts({ user: ctx.user, companies: ctx.companies, company: c, requestId: ctx.requestId }),
    listBalances: async (c, a, from, to) => {
      // Within the summaries' window, the one shared read already holds the account's balances.
      const window = summaryWindow(to);
      const summary = from >= window.from ? (await accountSummaries(ctx.requestId, to))?.get(a.id) : undefined;
      if (summary) return summary.balances.filter((b) => b.as_of_date >= from && b.as_of_date <= to);
      return balanceCache.get(`${c.id}|${a.id}|${from}|${to}`, () =>
        collectAll(treasury().listAccountBalances(call(c), a.id, { from_date: from, to_date: to, pageSize: 1000 })),
      );
    },
  };
}

/**
 * The group position of the user's visible companies in `reportingCurrency`.
 * A company whose reads fail is named in `failedCompanies`; a failing rate
 * read rejects (BffError 500 through the route's error mapping).
 */
export async function getGroupPosition(ctx: BffContext, reportingCurrency: string): Promise<GroupPosition> {
  const db = await dashboardDb();
  return groupPosition({
    companies: ctx.companies,
    reportingCurrency,
    today: todayUtc(),
    source: sourceFor(ctx),
    loadRates: (q) => loadFxRates(db, q),
    concurrency: GROUP_CONCURRENCY,
  });
}
