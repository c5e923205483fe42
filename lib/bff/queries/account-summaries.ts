/**
 * Every account the dashboard's OAuth client sees, each with its balance
 * snapshots and coverage days of the recent window, from one upstream call
 * (the API's `GET /accounts/summaries` extension, read without X-Company-ID).
 * It serves the accounts lists' balance and coverage columns, the overview's
 * coverage count and the group position, which otherwise read two lists per
 * account (docs/treasury-api.md#ledger has no batch form). Read through the upstream cache and
 * shared by every user: callers keep only the accounts of the companies the
 * user may see (the BFF has checked them before). Null when the API does not
 * advertise the extension; the callers then read per account.
 *
 * Null too when the read fails after the client's retries (a 5xx or timeout of
 * the one call that spans every company): the callers then read per company
 * and per account, each with its own `X-Company-ID`, so an outage of one
 * company's data excludes that company only (the group view names it) rather
 * than failing every company at once. The failure is remembered as briefly as
 * a good answer, so the rows of one view do not each repeat the failing call.
 */
import "server-only";
import type { AccountSummary } from "@treasury/contract";
import { addDaysIso, todayUtc } from "../../dates";
import { collectAll } from "../../treasury-client";
import { logger } from "../../server/log";
import { treasury } from "../../server/treasury";
import { capabilities } from "../capabilities";
import { TtlCache } from "../ttl-cache";

/**
 * The parsed map is kept briefly, so that the rows of one view (each account asks for it) share one parse; the
 * upstream cache holds the answer itself as long as balances live (10 s) and drops it on the writes that change it.
 */
const CACHE_MS = 2_000;

const g = globalThis as typeof globalThis & { __accountSummaryCache?: TtlCache<Map<string, AccountSummary> | null> };
const cache = (g.__accountSummaryCache ??= new TtlCache<Map<string, AccountSummary> | null>({
  ttlMs: CACHE_MS,
  maxEntries: 8,
}));

/** The window of the summaries: the 8 days up to `today` (the balances window of the account rows and group). */
export function summaryWindow(today: string): { from: string; to: string } {
  return { from: addDaysIso(today, -7), to: today };
}

/**
 * The summaries by account id (every company of the client), or null without the extension or when the read failed
 * (logged; the callers fall back to per-company reads). Never rejects for an upstream error.
 */
export async function accountSummaries(
  requestId: string,
  today = todayUtc(),
): Promise<ReadonlyMap<string, AccountSummary> | null> {
  if (!(await capabilities()).has("ledger.account_summaries")) return null;
  return cache.get(today, async () => {
    const { from, to } = summaryWindow(today);
    try {
      const rows = await collectAll(
        treasury().listAccountSummaries({ requestId }, { from_date: from, to_date: to, pageSize: 1000 }),
        { maxPages: 100 },
      );
      return new Map(rows.map((s) => [s.account.id, s]));
    } catch (err) {
      logger.warn(
        { requestId, err: err instanceof Error ? err.message : String(err) },
        "account summaries read failed; reading per company",
      );
      return null;
    }
  });
}

/** Drops the cached summaries (after an account write). */
export function invalidateAccountSummaries(): void {
  cache.dropPrefix("");
}
