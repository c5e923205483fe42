/**
 * Every account the dashboard's OAuth client sees, each with its balance
 * snapshots and coverage days of the recent window, from one upstream call
 * (the API's `GET /accounts/summaries` extension, read without X-Company-ID).
 * It serves the accounts lists' balance and coverage columns, the overview's
 * coverage count and the group position, which otherwise read two lists per
 * account (spec §4 has no batch form). Read through the upstream cache and
 * shared by every user: callers keep only the accounts of the companies the
 * user may see (the BFF has checked them before). Null when the API does not
 * advertise the extension; the callers then read per account.
 */
import "server-only";
import type { AccountSummary } from "../../contract";
import { addDaysIso, todayUtc } from "../../dates";
import { collectAll } from "../../treasury-client";
import { treasury } from "../../server/treasury";
import { capabilities } from "../capabilities";
import { TtlCache } from "../ttl-cache";

/**
 * The parsed map is kept briefly, so that the rows of one view (each account asks for it) share one parse; the
 * upstream cache holds the answer itself as long as balances live (10 s) and drops it on the writes that change it.
 */
const CACHE_MS = 2_000;

const g = globalThis as typeof globalThis & { __accountSummaryCache?: TtlCache<Map<string, AccountSummary>> };
const cache = (g.__accountSummaryCache ??= new TtlCache<Map<string, AccountSummary>>({
  ttlMs: CACHE_MS,
  maxEntries: 8,
}));

/** The window of the summaries: the 8 days up to `today` (the balances window of the account rows and group). */
export function summaryWindow(today: string): { from: string; to: string } {
  return { from: addDaysIso(today, -7), to: today };
}

/**
 * The summaries by account id (every company of the client), or null without the extension.
 * @throws TreasuryApiError as the read does (429 / 5xx after the client's retries)
 */
export async function accountSummaries(
  requestId: string,
  today = todayUtc(),
): Promise<ReadonlyMap<string, AccountSummary> | null> {
  if (!(await capabilities()).has("ledger.account_summaries")) return null;
  return cache.get(today, async () => {
    const { from, to } = summaryWindow(today);
    const rows = await collectAll(
      treasury().listAccountSummaries({ requestId }, { from_date: from, to_date: to, pageSize: 1000 }),
      { maxPages: 100 },
    );
    return new Map(rows.map((s) => [s.account.id, s]));
  });
}

/** Drops the cached summaries (after an account write). */
export function invalidateAccountSummaries(): void {
  cache.dropPrefix("");
}
