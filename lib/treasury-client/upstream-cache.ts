/**
 * The upstream cache of the Treasury client: every GET the dashboard sends
 * goes through it (transport.ts), so that people of the same company opening
 * the same views share one upstream call per resource and lifetime, and
 * identical GETs in flight at once are sent once (single-flight; across
 * instances too when the store is Redis). The API's rate limit applies per
 * OAuth client, i.e. to the whole team.
 *
 * Key: namespace (API + client) : company id (or "-" without one) : resource
 * : generations : path with sorted query. The BFF checks each person's
 * permission and company before it reads through the client, so everyone in a
 * company shares its entries. A `next` link is cached like any other GET.
 *
 * Invalidation: each (company, resource) and each ("*", resource) has a
 * generation counter in the store; a key carries the current generations, so
 * a write that bumps them makes every older entry unreachable at once
 * (atomic and cheap, in memory as in Redis; old entries just expire).
 * Errors are never cached. `noStore` skips the cached value (the answer is
 * stored for the next reader).
 */
import { sharedLoad, type LoadSource, type SharedLoadOptions, DEFAULT_SHARED_LOAD } from "./store/shared-load";
import type { SharedStore } from "./store/shared-store";

/**
 * Lifetime per resource, and the paths (below `/public`) it covers, first match wins.
 * Balances, intraday and positions move with every bank event: seconds. Transactions, matches, payments and
 * approvals change with people's work and the bank simulator: ~10 s (writes through the dashboard invalidate
 * at once). Companies, koncerner and accounts change rarely: minutes. Webhooks are admin screens where a
 * change made elsewhere should show soon: 5 s. A path in no row is not cached.
 */
export const RESOURCES: readonly { resource: string; ttlMs: number; path: RegExp }[] = [
  { resource: "balances", ttlMs: 10_000, path: /^\/accounts\/[^/]+\/balances$/ },
  { resource: "intraday", ttlMs: 5_000, path: /^\/accounts\/[^/]+\/intraday$/ },
  { resource: "coverage", ttlMs: 10_000, path: /^\/accounts\/[^/]+\/coverage$/ },
  { resource: "transactions", ttlMs: 15_000, path: /^\/accounts\/[^/]+\/transactions$/ },
  // Extension: every account with its balances and coverage; as fresh as the balances it carries. Its own resource,
  // because it also lists the accounts: an account upsert makes it stale, as a statement upload does.
  { resource: "summaries", ttlMs: 10_000, path: /^\/accounts\/summaries$/ },
  { resource: "accounts", ttlMs: 120_000, path: /^\/accounts(\/[^/]+)?$/ },
  { resource: "transactions", ttlMs: 15_000, path: /^\/transactions(\/[^/]+)?$/ },
  { resource: "payments", ttlMs: 10_000, path: /^\/payments\// },
  { resource: "approvals", ttlMs: 5_000, path: /^\/approvals\// },
  { resource: "matches", ttlMs: 10_000, path: /^\/reconciliation\// },
  { resource: "positions", ttlMs: 10_000, path: /^\/reporting\/positions\// },
  { resource: "reporting", ttlMs: 15_000, path: /^\/reporting\// },
  { resource: "companies", ttlMs: 300_000, path: /^\/companies(\/[^/]+)?$/ },
  { resource: "koncerner", ttlMs: 300_000, path: /^\/koncerner(\/|$)/ },
  { resource: "webhooks", ttlMs: 5_000, path: /^\/webhooks(\/|$)/ },
  // Extension: overdue statements change when a statement arrives (an upload invalidates) or a due time passes.
  { resource: "missing_statements", ttlMs: 30_000, path: /^\/statements\/missing$/ },
];

const ALL_RESOURCES = [...new Set(RESOURCES.map((r) => r.resource))];

/** Which entries a write makes stale: resources of the write's company, or of every company. */
interface Invalidation {
  method: RegExp;
  path: RegExp;
  company?: readonly string[];
  all?: readonly string[];
}

/**
 * Writes and what they invalidate, first match wins; a write in no row invalidates everything (a new endpoint
 * must not leave stale reads). "company" falls back to "all" when the write names no company.
 * - An account upsert: that company's accounts and the account summaries (which list them).
 * - A statement upload: that company's ledger (transactions, balances, coverage, the account summaries, positions,
 *   matches, reporting).
 * - A batch create or submit (`/payments/**`): that company's payments and reporting; the pending approvals of
 *   every company (the approvals list is read across companies).
 * - An approval decision: approvals, payments and reporting of every company it may touch.
 * - A match decision: that company's matches and transactions.
 * - Companies and webhooks: every company's companies / koncerner, webhooks.
 */
export const INVALIDATIONS: readonly Invalidation[] = [
  { method: /^POST$/, path: /^\/accounts$/, company: ["accounts", "summaries"] },
  {
    method: /^POST$/,
    path: /^\/statements$/,
    company: [
      "transactions",
      "balances",
      "intraday",
      "coverage",
      "summaries",
      "positions",
      "matches",
      "reporting",
      "missing_statements",
    ],
  },
  {
    method: /^(POST|PATCH|DELETE)$/,
    path: /^\/payments\//,
    company: ["payments", "reporting", "positions"],
    all: ["approvals"],
  },
  {
    method: /^POST$/,
    path: /^\/approvals\/[^/]+\/(approve|reject)$/,
    all: ["approvals", "payments", "reporting", "positions"],
  },
  {
    method: /^POST$/,
    path: /^\/reconciliation\/matches\/[^/]+\/(confirm|reject|reopen)$/,
    company: ["matches", "transactions"],
  },
  // Extension: a match made by hand (POST /reconciliation/matches) changes that company's matches like a decision.
  { method: /^POST$/, path: /^\/reconciliation\/matches$/, company: ["matches", "transactions"] },
  { method: /^POST$/, path: /^\/companies$/, all: ["companies", "koncerner"] },
  { method: /^(POST|PATCH|DELETE)$/, path: /^\/webhooks(\/|$)/, all: ["webhooks"] },
];

/** The resource of a path below the API base, or null when it is not cached. */
export function resourceOf(path: string): { resource: string; ttlMs: number } | null {
  const row = RESOURCES.find((r) => r.path.test(path));
  return row ? { resource: row.resource, ttlMs: row.ttlMs } : null;
}

/** The resources a write makes stale: `company` ones (of its company) and `all` ones (of every company). */
export function invalidationFor(method: string, path: string): { company: string[]; all: string[] } {
  const row = INVALIDATIONS.find((r) => r.method.test(method) && r.path.test(path));
  if (!row) return { company: [], all: [...ALL_RESOURCES] };
  return { company: [...(row.company ?? [])], all: [...(row.all ?? [])] };
}

/** A cache outcome, as counted by `dashboard_upstream_cache_events_total`. */
export type CacheEvent = LoadSource;

export interface UpstreamCacheOptions {
  store: SharedStore;
  /** One per API and OAuth client (see `clientNamespace`), so two clients never share entries. */
  namespace: string;
  /** The API base path, e.g. `/public/`: cache paths are the part after it. */
  basePath: string;
  /** Called once per read with its outcome (metrics). */
  onEvent?: (resource: string, event: CacheEvent) => void;
  /** Cross-instance single-flight timing (locks, bounded wait). */
  singleFlight?: SharedLoadOptions;
}

/** The query string with its parameters sorted, so that the order callers build it in does not matter. */
function sortedQuery(url: URL): string {
  const q = new URLSearchParams(url.searchParams);
  q.sort();
  const s = q.toString();
  return s ? `?${s}` : "";
}

export class UpstreamCache {
  private readonly inflight = new Map<string, Promise<string>>();

  /** @param opts store, namespace and base path; see `UpstreamCacheOptions`. */
  constructor(private readonly opts: UpstreamCacheOptions) {}

  /** The store behind the cache (tests, diagnostics). */
  get store(): SharedStore {
    return this.opts.store;
  }

  /** The path of `url` below the API base (`/accounts/1`). */
  pathOf(url: URL): string {
    const base = this.opts.basePath.replace(/\/*$/, "/");
    return url.pathname.startsWith(base) ? url.pathname.slice(base.length - 1) : url.pathname;
  }

  /** The store key of a read: namespace, company, resource, current generations, path and sorted query. */
  private async keyOf(company: string, resource: string, url: URL): Promise<string> {
    const [own, every] = await this.opts.store.counters([this.genKey(company, resource), this.genKey("*", resource)]);
    return `${this.opts.namespace}:v:${company}:${resource}:${own}.${every}:${this.pathOf(url)}${sortedQuery(url)}`;
  }

  private genKey(company: string, resource: string): string {
    return `${this.opts.namespace}:gen:${company}:${resource}`;
  }

  /**
   * The answer of the GET `url` for `companyId`: cached, coalesced with an identical GET in flight, or `load()`
   * (then stored for its resource's lifetime). Every caller gets its own copy (parsed from the stored JSON).
   * @throws whatever `load` throws; nothing is stored then.
   */
  async read<T>(url: URL, companyId: string | undefined, load: () => Promise<T>, noStore = false): Promise<T> {
    const res = resourceOf(this.pathOf(url));
    if (!res) return load();
    const key = await this.keyOf(companyId ?? "-", res.resource, url);
    const loadJson = async () => ({ json: JSON.stringify(await load()), ttlMs: res.ttlMs });
    if (noStore) {
      const fresh = await loadJson();
      this.event(res.resource, "miss");
      await this.opts.store.set(key, fresh.json, fresh.ttlMs);
      return JSON.parse(fresh.json) as T;
    }
    const pending = this.inflight.get(key);
    if (pending) {
      this.event(res.resource, "coalesced");
      return JSON.parse(await pending) as T;
    }
    const p = sharedLoad(this.opts.store, key, loadJson, this.opts.singleFlight ?? DEFAULT_SHARED_LOAD)
      .then((r) => {
        this.event(res.resource, r.source);
        return r.json;
      })
      .finally(() => this.inflight.delete(key));
    this.inflight.set(key, p);
    return JSON.parse(await p) as T;
  }

  /** Makes stale what a write `method url` in `companyId` changes (see `INVALIDATIONS`). Never throws. */
  async invalidate(method: string, url: URL, companyId: string | undefined): Promise<void> {
    const inv = invalidationFor(method, this.pathOf(url));
    const keys = inv.all.map((r) => this.genKey("*", r));
    for (const r of inv.company) {
      // Entries read without a company may hold this company's rows too.
      if (companyId) keys.push(this.genKey(companyId, r), this.genKey("-", r));
      else keys.push(this.genKey("*", r));
    }
    await this.opts.store.increment([...new Set(keys)]);
  }

  private event(resource: string, event: CacheEvent): void {
    this.opts.onEvent?.(resource, event);
  }
}
