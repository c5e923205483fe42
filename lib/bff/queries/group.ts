/**
 * The group cash position of the signed-in user (lib/group/group-position.ts)
 * read through the process's treasury client: only the user's visible
 * companies (`ctx.companies`, already narrowed to the user's allowed list),
 * each read with its own `X-Company-ID`. When the API offers account
 * summaries (./account-summaries.ts), the balances and the statement coverage
 * (gap flags) of every account come from that one shared read; otherwise one
 * read each per account. Every read goes through the client's upstream cache
 * (per-resource lifetimes, invalidated by writes, shared across instances),
 * so a currency switch or a reload soon after makes no upstream call. Rates
 * come from the dashboard database.
 */
import "server-only";
import type { Company } from "@treasury/contract";
import { todayUtc } from "../../dates";
import { loadFxRates } from "../../fx/convert";
import { formatISO } from "date-fns";
import { csvHeaders, toCsv, type CsvColumn } from "../../csv/csv-stream";
import { groupPosition, type AccountPosition, type GroupPosition, type GroupSource } from "../../group/group-position";
import { collectAll } from "../../treasury-client";
import { plainCall } from "../context";
import { mapLimit } from "./map-limit";
import { dashboardDb } from "../../server/db";
import { treasury } from "../../server/treasury";
import type { BffContext } from "../context";
import { allAccounts } from "./account-rows";
import { accountSummaries, summaryWindow } from "./account-summaries";

export type { GroupPosition };

/** Upstream calls in flight at most for one group view (docs/treasury-api.md#limits rate limits per client). */
export const GROUP_CONCURRENCY = 6;

/** The reads of one request: every call names its company and carries the request id. */
function sourceFor(ctx: BffContext): GroupSource {
  // Cross-company fan-out (every account of every company): background reads, which yield to page loads.
  const call = (c: Company) => ({ companyId: c.id, requestId: ctx.requestId, priority: "background" as const });
  /**
   * The account's summary when today's one shared summaries read covers `from`..`to`, else undefined. Always today's
   * read (also for the coverage window, which ends yesterday), so balances and coverage share one upstream call.
   */
  const today = todayUtc();
  const summaryOf = async (accountId: string, from: string, to: string) => {
    const window = summaryWindow(today);
    return from >= window.from && to <= window.to
      ? (await accountSummaries(ctx.requestId, today))?.get(accountId)
      : undefined;
  };
  return {
    // A plain context per company (a route's context has getters that must not be spread).
    listAccounts: (c) =>
      allAccounts({ user: ctx.user, companies: ctx.companies, company: c, requestId: ctx.requestId }),
    // Within the summaries' window, the one shared read already holds the account's balances and coverage; outside
    // it (or without the extension) one read per account, cached by the upstream cache like every GET.
    listBalances: async (c, a, from, to) => {
      const summary = await summaryOf(a.id, from, to);
      if (summary) return summary.balances.filter((b) => b.as_of_date >= from && b.as_of_date <= to);
      return collectAll(
        treasury().listAccountBalances(call(c), a.id, { from_date: from, to_date: to, pageSize: 1000 }),
      );
    },
    listCoverage: async (c, a, from, to) => {
      const summary = await summaryOf(a.id, from, to);
      if (summary) return summary.coverage.filter((d) => d.date >= from && d.date <= to);
      return collectAll(
        treasury().listAccountCoverage(call(c), a.id, { from_date: from, to_date: to, pageSize: 1000 }),
      );
    },
  };
}

type Structure = { id: string; name: string; companyIds: string[] }[];

/**
 * The koncern structure (spec `/koncerner` and each one's breakdown for its
 * member companies), read through the upstream cache (minutes); only membership is
 * kept, narrowed to `visible` companies. Null when it cannot be read (the
 * grouping is optional: the position is shown without it).
 */
async function koncernStructure(ctx: BffContext, visible: ReadonlySet<string>): Promise<Structure | null> {
  try {
    const koncerner = await collectAll(treasury().listKoncerner(plainCall(ctx), { pageSize: 1000 }), {
      maxPages: 10,
    });
    const all = await mapLimit(koncerner, GROUP_CONCURRENCY, async (k) => {
      const b = await treasury().getKoncernBreakdown(plainCall(ctx), k.id);
      return { id: k.id, name: k.name, companyIds: b.companies.map((c) => c.company_id) };
    });
    return all
      .map((k) => ({ ...k, companyIds: k.companyIds.filter((id) => visible.has(id)) }))
      .filter((k) => k.companyIds.length > 0);
  } catch {
    return null;
  }
}

/**
 * The group position of the user's visible companies in `reportingCurrency`.
 * A company whose reads fail is named in `failedCompanies`; a failing rate
 * read rejects (BffError 500 through the route's error mapping).
 */
export async function getGroupPosition(ctx: BffContext, reportingCurrency: string): Promise<GroupPosition> {
  const [db, koncerner] = await Promise.all([
    dashboardDb(),
    koncernStructure(ctx, new Set(ctx.companies.map((c) => c.id))),
  ]);
  return groupPosition({
    koncerner: koncerner ?? undefined,
    companies: ctx.companies,
    reportingCurrency,
    today: todayUtc(),
    source: sourceFor(ctx),
    loadRates: (q) => loadFxRates(db, q),
    concurrency: GROUP_CONCURRENCY,
  });
}

/**
 * The group position as CSV, one line per account: company, koncern,
 * account, bank, the headline balance in its currency with its basis and
 * date, the rate used (1 unit = rate reporting currency), the rate's date,
 * whether it is an earlier day's rate, the converted balance (empty when
 * unconverted), the flags and the export time (ISO 8601 with offset).
 * Companies whose reads failed are named in `X-Failed-Companies`.
 */
export async function exportGroupPosition(ctx: BffContext, reportingCurrency: string): Promise<Response> {
  const p = await getGroupPosition(ctx, reportingCurrency);
  const exportedAt = formatISO(new Date());
  const columns: CsvColumn<AccountPosition>[] = [
    { header: "company_id", value: (a) => a.companyId },
    { header: "company", value: (a) => a.companyName, text: true },
    { header: "koncern", value: (a) => a.koncernName, text: true },
    { header: "account_id", value: (a) => a.accountId },
    { header: "account", value: (a) => a.accountName, text: true },
    { header: "iban_masked", value: (a) => a.ibanMasked },
    { header: "bank", value: (a) => a.bankName, text: true },
    { header: "currency", value: (a) => a.currency },
    { header: "balance", value: (a) => a.balance },
    { header: "basis", value: (a) => a.basis },
    { header: "as_of_date", value: (a) => a.asOfDate },
    { header: "reporting_currency", value: () => reportingCurrency },
    { header: "rate", value: (a) => (a.conversion?.status === "converted" ? a.conversion.rate : null) },
    { header: "rate_date", value: (a) => (a.conversion?.status === "converted" ? a.conversion.rateDate : null) },
    {
      header: "rate_stale",
      value: (a) => (a.conversion?.status === "converted" ? String(a.conversion.stale) : null),
    },
    { header: "converted", value: (a) => (a.conversion?.status === "converted" ? a.conversion.value : null) },
    { header: "flags", value: (a) => a.flags.join(" ") },
    { header: "exported_at", value: () => exportedAt },
  ];
  const headers: Record<string, string> = csvHeaders(
    `group_position_${p.today}_${reportingCurrency}.csv`,
    p.accounts.length,
  );
  if (p.failedCompanies.length > 0)
    headers["X-Failed-Companies"] = p.failedCompanies.map((c) => encodeURIComponent(c.name)).join(",");
  return new Response(toCsv(p.accounts, columns, true), { status: 200, headers });
}
