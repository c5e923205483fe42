/**
 * What the configured Treasury API offers beyond the public spec, read from
 * its OpenAPI document (`GET {TREASURY_API_BASE_URL}/openapi.json`; the local
 * API serves `/public/openapi.json` with paths relative to `/public`). The
 * dashboard shows a feature only when the API advertises the operation behind
 * it: the local API's extensions are not part of every deployment.
 *
 * The document is read once at start (first use) and again every
 * `refreshMs` (default 10 minutes). A failed read keeps what was known
 * before and is tried again after `retryMs` (default 30 s), so an API that
 * was slow or not up yet at start is seen within seconds, not minutes;
 * before the first successful read nothing is advertised.
 */
import "server-only";
import { getConfig } from "../server/config";
import { logger } from "../server/log";

/**
 * Named capabilities and what each needs in the OpenAPI document: an
 * operation (method + path as in the document), or request-body fields (the
 * named component schema lists every one of `properties`), or several of these.
 */
export const CAPABILITIES = {
  "statements.upload": [{ method: "post", path: "/statements" }],
  /** Overdue bank statements per account (overview, accounts list; docs/bank-files.md "Missing statements"). */
  "statements.missing": [{ method: "get", path: "/statements/missing" }],
  "payments.debtor_account": [{ method: "get", path: "/payments/batches/{id}/debtor-account" }],
  /** Batch reference and chosen debtor account; per instruction a BIC and remittance information. */
  "payments.run_fields": [
    { schema: "PaymentBatchCreate", properties: ["reference", "debtor_account_id"] },
    { schema: "PaymentInstructionCreate", properties: ["creditor_bic", "remittance_information"] },
  ],
  "payments.batch_edit": [{ method: "patch", path: "/payments/batches/{id}" }],
  "payments.batch_discard": [{ method: "delete", path: "/payments/batches/{id}" }],
  /** Instructions by id in one call (the sides of a page of reconciliation matches). */
  "payments.instructions_lookup": [{ method: "get", path: "/payments/instructions" }],
  /** Accounts with their balances and coverage of a window, in one call (overview, group position). */
  "ledger.account_summaries": [{ method: "get", path: "/accounts/summaries" }],
  /** Transactions by id in one call. */
  "ledger.transactions_lookup": [{ method: "get", path: "/transactions/lookup" }],
  /** Settled instructions and debit transactions without a confirmed match, dated and filtered (unmatched view). */
  "reconciliation.unmatched": [{ method: "get", path: "/reconciliation/unmatched" }],
  /** Rejected instructions with the bank's reason in the unmatched list (kind=rejected; the view's third tab). */
  "reconciliation.rejected": [
    { method: "get", path: "/reconciliation/unmatched" },
    { schema: "UnmatchedItem", properties: ["reason", "reason_text"] },
  ],
  /** A confirmed match made by hand from an instruction and a transaction (the unmatched view's manual match). */
  "reconciliation.manual_match": [{ method: "post", path: "/reconciliation/matches" }],
  /** A confirmed match back to proposed within 24 h (undo of an automatic confirmation). */
  "reconciliation.reopen": [{ method: "post", path: "/reconciliation/matches/{id}/reopen" }],
  /** Host-to-host bank connections with their health (the bank connections page). */
  "bank_connections.health": [{ method: "get", path: "/bank-connections" }],
} as const satisfies Record<string, readonly Requirement[]>;
export type Capability = keyof typeof CAPABILITIES;

type Requirement = { method: string; path: string } | { schema: string; properties: readonly string[] };

export interface CapabilitiesOptions {
  /** Base address ending in `/public`. */
  baseUrl: string;
  /** Default 600 000 (10 minutes). */
  refreshMs?: number;
  /** Per read, default 10 000. */
  timeoutMs?: number;
  /** After a failed read, default 30 000. */
  retryMs?: number;
  fetch?: typeof fetch;
}

export interface Capabilities {
  /** True when the last document read advertises everything `name` needs (operations, body fields). */
  has(name: Capability): boolean;
  /** Resolves once the first read has finished (successfully or not). */
  ready: Promise<void>;
  /** Reads the document now; never rejects. */
  refresh(): Promise<void>;
  /** Stops the timer. */
  stop(): void;
}

type OpenApiPaths = Record<string, Record<string, unknown> | undefined>;

/**
 * The set of `method path` keys the document lists, e.g. `post /statements`,
 * and `schema#property` keys of its component schemas, e.g.
 * `PaymentBatchCreate#reference`; null when the body is not an OpenAPI document.
 */
function operations(doc: unknown): Set<string> | null {
  if (
    typeof doc !== "object" ||
    doc === null ||
    !("paths" in doc) ||
    typeof doc.paths !== "object" ||
    doc.paths === null
  )
    return null;
  const out = new Set<string>();
  for (const [path, item] of Object.entries(doc.paths as OpenApiPaths)) {
    if (typeof item !== "object" || item === null) continue;
    for (const method of Object.keys(item)) out.add(`${method.toLowerCase()} ${path}`);
  }
  const schemas = (doc as { components?: { schemas?: Record<string, { properties?: Record<string, unknown> }> } })
    .components?.schemas;
  for (const [name, schema] of Object.entries(schemas ?? {})) {
    if (typeof schema !== "object" || schema === null) continue;
    for (const prop of Object.keys(schema.properties ?? {})) out.add(`${name}#${prop}`);
  }
  return out;
}

/** Starts reading the document of `opts.baseUrl` now and on a timer (unref'd, so it never holds the process open). */
export function createCapabilities(opts: CapabilitiesOptions): Capabilities {
  const fetchImpl = opts.fetch ?? globalThis.fetch.bind(globalThis);
  const url = `${opts.baseUrl.replace(/\/+$/, "")}/openapi.json`;
  let known = new Set<string>();
  let retry: ReturnType<typeof setTimeout> | undefined;

  async function refresh(): Promise<void> {
    clearTimeout(retry);
    try {
      const res = await fetchImpl(url, {
        headers: { Accept: "application/json" },
        signal: AbortSignal.timeout(opts.timeoutMs ?? 10_000),
        cache: "no-store",
      });
      if (res.status === 404) {
        // An API without an OpenAPI document advertises no extension.
        known = new Set();
        return;
      }
      if (!res.ok) throw new Error(`openapi.json answered ${res.status}`);
      const ops = operations(await res.json());
      if (!ops) throw new Error("openapi.json has no paths object");
      known = ops;
    } catch (err) {
      logger.warn(
        { url, err: err instanceof Error ? err.message : String(err) },
        "treasury api capabilities not read; keeping the previous ones",
      );
      retry = setTimeout(() => void refresh(), opts.retryMs ?? 30_000);
      retry.unref?.();
    }
  }

  const ready = refresh();
  const timer = setInterval(() => void refresh(), opts.refreshMs ?? 600_000);
  timer.unref?.();
  return {
    has: (name) =>
      CAPABILITIES[name].every((r: Requirement) =>
        "method" in r ? known.has(`${r.method} ${r.path}`) : r.properties.every((p) => known.has(`${r.schema}#${p}`)),
      ),
    ready,
    refresh,
    stop: () => {
      clearInterval(timer);
      clearTimeout(retry);
    },
  };
}

const g = globalThis as typeof globalThis & { __treasuryCapabilities?: Capabilities };

/** The process-wide capabilities of the configured API, after its first read. */
export async function capabilities(): Promise<Capabilities> {
  if (!g.__treasuryCapabilities)
    g.__treasuryCapabilities = createCapabilities({ baseUrl: getConfig().TREASURY_API_BASE_URL });
  await g.__treasuryCapabilities.ready;
  return g.__treasuryCapabilities;
}
