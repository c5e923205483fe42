/**
 * OAuth 2.0 client-credentials token manager (docs/treasury-api.md#token;
 * docs/architecture.md#treasury-client-rules).
 *
 * - One cache entry per (form, tenant, scopes).
 * - One in-flight token request per entry: concurrent callers share it.
 * - Renewal at `expires_in - 300` seconds (55 minutes into a 3600 s token);
 *   tokens shorter than 10 minutes are renewed at half their life.
 * - `invalidate(token)` drops a token the API refused (401), so the next
 *   `get` fetches a new one.
 * - With a `store` (Redis mode), the token is shared by every instance: one
 *   instance fetches it (the others wait on the store's lock), every one uses
 *   it until its renewal time; a token the API refused is never taken from
 *   the store again by this instance.
 * Form B: POST /auth/token/ form-urlencoded with HTTP Basic credentials.
 * Form A: POST /auth/tenant-token JSON `{ tenant_id, grant_type, scope }`
 * with HTTP Basic credentials.
 */
import { TokenResponse } from "@treasury/contract/auth";
import { errorBodyFields, readLenientJson } from "../http/error-body";
import { TreasuryApiError, TreasuryResponseError, TreasuryTransportError } from "./errors";
import { sharedLoad } from "./store/shared-load";
import type { SharedStore } from "./store/shared-store";
import type { TreasuryClientConfig } from "./transport";

/** The client's identity from its configuration (`TreasuryClientConfig`), with the defaults already applied. */
export interface TokenManagerOptions extends Pick<
  TreasuryClientConfig,
  "baseUrl" | "form" | "clientId" | "clientSecret" | "tenantId" | "scopes"
> {
  timeoutMs: number;
  fetch: typeof fetch;
  now: () => number;
  /** Shares the token between instances (see the module comment). */
  store?: SharedStore;
  /** The store key prefix of this client (`clientNamespace`); required with `store`. */
  namespace?: string;
}

interface CachedToken {
  token: string;
  /** Epoch ms after which a new token is fetched. */
  renewAt: number;
}

const RENEW_MARGIN_SECONDS = 300;

export class TokenManager {
  private readonly cache = new Map<string, CachedToken>();
  private readonly inflight = new Map<string, Promise<CachedToken>>();
  /** Tokens the API refused (401): never taken from the shared store again. Bounded. */
  private readonly refused = new Set<string>();
  /** Number of token requests sent (for tests and metrics). */
  requests = 0;

  constructor(private readonly opts: TokenManagerOptions) {}

  /** The cache key: form, tenant and the sorted scope list. */
  get key(): string {
    return [this.opts.form, this.opts.tenantId ?? "", [...this.opts.scopes].sort().join(" ")].join("|");
  }

  /**
   * A valid access token, from the cache or a new token request.
   * @throws TreasuryApiError (e.g. 401 `invalid_client`), TreasuryTransportError.
   */
  async get(): Promise<string> {
    const key = this.key;
    const cached = this.cache.get(key);
    if (cached && this.opts.now() < cached.renewAt) return cached.token;
    let pending = this.inflight.get(key);
    if (!pending) {
      pending = this.obtain().finally(() => this.inflight.delete(key));
      this.inflight.set(key, pending);
    }
    const fresh = await pending;
    this.cache.set(key, fresh);
    return fresh.token;
  }

  /** Forgets `token` if it is still the cached one (another caller may already have renewed it). */
  invalidate(token: string): void {
    const key = this.key;
    if (this.cache.get(key)?.token === token) this.cache.delete(key);
    this.refused.add(token);
    if (this.refused.size > 16) this.refused.delete(this.refused.values().next().value as string);
  }

  /** A new token: from the shared store when one is there and usable, else fetched (once across instances). */
  private async obtain(): Promise<CachedToken> {
    const { store, namespace } = this.opts;
    if (!store || !namespace) return this.fetchToken();
    const key = `${namespace}:token`;
    const load = async () => {
      const t = await this.fetchToken();
      return { json: JSON.stringify(t), ttlMs: t.renewAt - this.opts.now() };
    };
    const shared = JSON.parse((await sharedLoad(store, key, load)).json) as CachedToken;
    if (!this.refused.has(shared.token) && this.opts.now() < shared.renewAt) return shared;
    // The stored token was refused here (or is due): replace it for everyone.
    const fresh = await this.fetchToken();
    await store.set(key, JSON.stringify(fresh), fresh.renewAt - this.opts.now());
    return fresh;
  }

  private async fetchToken(): Promise<CachedToken> {
    const o = this.opts;
    const basic =
      "Basic " +
      Buffer.from(`${encodeURIComponent(o.clientId)}:${encodeURIComponent(o.clientSecret)}`).toString("base64");
    const scope = o.scopes.join(" ");
    const init: RequestInit =
      o.form === "B"
        ? {
            method: "POST",
            headers: {
              Authorization: basic,
              "Content-Type": "application/x-www-form-urlencoded",
              Accept: "application/json",
            },
            body: new URLSearchParams({ grant_type: "client_credentials", scope }).toString(),
          }
        : {
            method: "POST",
            headers: { Authorization: basic, "Content-Type": "application/json", Accept: "application/json" },
            body: JSON.stringify({ tenant_id: o.tenantId, grant_type: "client_credentials", scope }),
          };
    const url = o.baseUrl + (o.form === "B" ? "/auth/token/" : "/auth/tenant-token");
    const issuedAt = o.now();
    this.requests++;
    let res: Response;
    try {
      res = await o.fetch(url, { ...init, signal: AbortSignal.timeout(o.timeoutMs), cache: "no-store" });
    } catch (err) {
      const timeout = err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError");
      throw new TreasuryTransportError(
        timeout ? "timeout" : "network",
        timeout ? "The token request timed out" : "The Treasury API could not be reached for a token",
        { cause: err },
      );
    }
    const body = await readLenientJson(res);
    if (!res.ok) {
      const e = errorBodyFields(body);
      throw new TreasuryApiError({
        status: res.status,
        code: e.error ?? "authentication_failed",
        // Never echo the credentials; the API's own message is safe to keep.
        message: e.message ?? `The token request failed with status ${res.status}`,
        details: e.details,
        requestId: res.headers.get("x-request-id") ?? undefined,
      });
    }
    const parsed = TokenResponse.safeParse(body);
    if (!parsed.success) {
      throw new TreasuryResponseError(
        "The token response does not match the contract",
        res.status,
        parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`),
      );
    }
    const life = parsed.data.expires_in;
    const renewInSeconds = life > 2 * RENEW_MARGIN_SECONDS ? life - RENEW_MARGIN_SECONDS : life / 2;
    return { token: parsed.data.access_token, renewAt: issuedAt + renewInSeconds * 1000 };
  }
}
