/**
 * The harness of the BFF's integration tests (test-only; imported by `*.integration.test.ts`, never by product
 * code): the real local treasury-api (in-memory PGlite, small demo seed) with a Treasury client on it installed as
 * the BFF's client, and, for tests that go through the route handlers, the signed-in user and company cookie that
 * the mocked session and `next/headers` modules read. Also: the capabilities the BFF reads (advertised by the API,
 * or none), fresh clients that record their upstream calls, and the fields a 400 answer names.
 *
 * A test file that calls route handlers mocks the two modules with what this module exports (a `vi.mock` factory
 * must stay in the test file, where Vitest hoists it):
 *
 *     vi.mock("../auth/session", async () => (await import("./testing/local-api")).sessionModule);
 *     vi.mock("next/headers", async () => (await import("./testing/local-api")).headersModule);
 */
import { randomUUID } from "node:crypto";
import { NextRequest } from "next/server";
import { afterAll, beforeAll } from "vitest";
import { startLoopbackServer, type RunningServer, type ServerOptions } from "@treasury/test-support/local-api";
import { DEMO_TREASURY_B, type DemoClientSpec } from "@treasury/test-support/local-api";
import type { Role } from "../../auth/roles";
import type { Company } from "@treasury/contract";
import type { DashboardUser } from "../../db/users";
import { createTreasuryClient, type TreasuryClient } from "../../treasury-client";
import { createCapabilities, type Capabilities } from "../capabilities";
import type { BffContext } from "../context";

/** The fetch the Treasury client calls; a test's `fetch` option wraps it (to record, or to fail on purpose). */
export type UpstreamFetch = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;

export interface LocalApi {
  api: RunningServer;
  /** The API's base URL as the dashboard calls it (`…/public`). */
  baseUrl: string;
  /** The client installed as the BFF's Treasury client (Form B, the demo client that sees every company). */
  client: TreasuryClient;
  /** The capabilities installed (`capabilities` option), else null. Stopped by the caller when advertised. */
  capabilities: Capabilities | null;
  /** A seeded company by name (the demo seed's "Nordlys Norge AS" when none is given); throws when absent. */
  company(name?: string): Company;
  /** The seeded companies the installed client's demo client (Form B) is linked to, in seed order. */
  companies(): Company[];
}

/** What {@link startLocalApi} takes (see there). */
export interface LocalApiOptions {
  fetch?: (input: RequestInfo | URL, init: RequestInit | undefined, next: UpstreamFetch) => Promise<Response>;
  capabilities?: "advertised" | "none";
  config?: ServerOptions["config"];
  seedScale?: number;
}

/**
 * Starts the local treasury-api and installs a client on it as the BFF's Treasury client.
 *
 * - `fetch(input, init, next)`: sees every upstream request (token requests included) and answers it, usually by
 *   recording it and calling `next`.
 * - `capabilities`: installed with `installCapabilities` (read before this resolves); omitted, the BFF reads them
 *   from `TREASURY_API_BASE_URL` when it first needs them.
 * - `config`: the API's settings (e.g. `allowPrivateWebhooks`).
 * - `seedScale`: the demo seed's size, a fraction of the full demo (default 0.01).
 * Close `api` in `afterAll`.
 */
export async function startLocalApi(opts: LocalApiOptions = {}): Promise<LocalApi> {
  const api = await startLoopbackServer({
    seed: "demo",
    seedScale: opts.seedScale ?? 0.01,
    ...(opts.config ? { config: opts.config } : {}),
  });
  const baseUrl = `${api.url}/public`;
  const wrap = opts.fetch;
  const client = createTreasuryClient({
    baseUrl,
    form: "B",
    clientId: DEMO_TREASURY_B.clientId,
    clientSecret: DEMO_TREASURY_B.clientSecret,
    scopes: DEMO_TREASURY_B.scopes,
    ...(wrap ? { fetch: (input: RequestInfo | URL, init?: RequestInit) => wrap(input, init, fetch) } : {}),
  });
  installed().__treasuryClient = client;
  const capabilities = opts.capabilities ? await installCapabilities(baseUrl, opts.capabilities) : null;
  const companyOf = (c: { id: string; name: string; orgnr: string; country: string }): Company => ({
    id: c.id,
    name: c.name,
    orgnr: c.orgnr,
    country: c.country,
  });
  return {
    api,
    baseUrl,
    client,
    capabilities,
    company(name = "Nordlys Norge AS") {
      const c = api.fixtures?.companies.find((x) => x.name === name);
      if (!c) throw new Error(`demo seed has no company "${name}"`);
      return companyOf(c);
    },
    companies() {
      const linked = new Set<string>(
        api.fixtures?.clients.find((c) => c.client_id === DEMO_TREASURY_B.clientId)?.company_ids ?? [],
      );
      return (api.fixtures?.companies ?? []).filter((c) => linked.has(c.id)).map(companyOf);
    },
  };
}

/** The process-wide Treasury client and capabilities the BFF reads (lib/server/treasury, ./capabilities). */
function installed(): { __treasuryClient?: TreasuryClient; __treasuryCapabilities?: Capabilities } {
  return globalThis as { __treasuryClient?: TreasuryClient; __treasuryCapabilities?: Capabilities };
}

/**
 * Installs the capabilities the BFF reads, stopping those installed before, and resolves to them once read:
 * "advertised" reads the API's own OpenAPI document at `baseUrl` (`…/public`), as production does, with a patient
 * timeout (60 s, for a loaded machine); "none" is an API that advertises no extension.
 */
export async function installCapabilities(baseUrl: string, kind: "advertised" | "none"): Promise<Capabilities> {
  const g = installed();
  g.__treasuryCapabilities?.stop();
  const caps: Capabilities =
    kind === "advertised"
      ? createCapabilities({ baseUrl, timeoutMs: 60_000 })
      : { has: () => false, ready: Promise.resolve(), refresh: async () => undefined, stop: () => undefined };
  g.__treasuryCapabilities = caps;
  await caps.ready;
  return caps;
}

/**
 * A fresh Treasury client on `local` (no token yet; `spec` is the demo client it signs in as, Form B by default),
 * not installed, whose every upstream request is recorded in `calls` as `METHOD /path` (token requests included),
 * with `peak()` the most requests it had in flight at once.
 */
export function countingClient(
  local: LocalApi,
  spec: DemoClientSpec = DEMO_TREASURY_B,
): { client: TreasuryClient; calls: string[]; peak(): number } {
  const calls: string[] = [];
  let inFlight = 0;
  let peak = 0;
  const client = createTreasuryClient({
    baseUrl: local.baseUrl,
    form: "B",
    clientId: spec.clientId,
    clientSecret: spec.clientSecret,
    scopes: spec.scopes,
    fetch: async (input, init) => {
      calls.push(`${init?.method ?? "GET"} ${upstreamPath(input)}`);
      inFlight++;
      peak = Math.max(peak, inFlight);
      try {
        return await fetch(input, init);
      } finally {
        inFlight--;
      }
    },
  });
  return { client, calls, peak: () => peak };
}

/** The fields a 400 answer's `details.errors` names (none when it names none). */
export function errorFields(body: Record<string, unknown>): string[] {
  return Object.keys(((body.details as { errors?: object } | undefined)?.errors ?? {}) as object);
}

/** The path of a request the Treasury client makes, without the API's `/public` prefix. */
export function upstreamPath(input: RequestInfo | URL): string {
  return new URL(input instanceof Request ? input.url : String(input)).pathname.replace(/^\/public/, "");
}

/**
 * The environment the dashboard's server modules read, pointed at `local` (dashboard DB in memory, not demo mode,
 * passkey step-up off: it is tested on its own in lib/auth/step-up-rules.test.ts and e2e/passkeys.spec.ts).
 */
export function useBffEnv(local: LocalApi, origin: string, extra: Record<string, string> = {}): void {
  Object.assign(process.env, {
    TREASURY_API_BASE_URL: local.baseUrl,
    TREASURY_CLIENT_ID: DEMO_TREASURY_B.clientId,
    TREASURY_CLIENT_SECRET: DEMO_TREASURY_B.clientSecret,
    NEXTAUTH_SECRET: "bff-integration-test-secret-0123456789",
    NEXTAUTH_URL: origin,
    DASHBOARD_DATA_DIR: "memory",
    DASHBOARD_DEMO: "0",
    DASHBOARD_STEP_UP: "off",
    ...extra,
  });
}

/** The signed-in user of the next route call and the selected company (the `td_company` cookie). */
export const session: { user: DashboardUser | null; cookie: string | undefined } = { user: null, cookie: undefined };

/** Stands in for lib/auth/session: the signed-in user is `session.user`. */
export const sessionModule = { currentUser: async (): Promise<DashboardUser | null> => session.user };

/** Stands in for next/headers: no request headers, and the `td_company` cookie from `session.cookie`. */
export const headersModule = {
  headers: async () => new Headers(),
  cookies: async () => ({
    get: (name: string) => (name === "td_company" && session.cookie ? { name, value: session.cookie } : undefined),
  }),
};

/** A dashboard user with a fresh id (e-mail `<name>@test.local`). */
export function testUser(name: string, roles: Role[], companyIds: string[] | null = null): DashboardUser {
  return { id: randomUUID(), email: `${name}@test.local`, name, roles, companyIds, disabled: false };
}

/**
 * The context a query function is called with in a test that skips the route (test-only): `company` selected and
 * the only one visible, the user `u1` with `role` (e-mail `<role>@test.local`, named after the role, every
 * company), request id `test`.
 */
export function queryContext(company: Company, role: Role = "viewer"): BffContext {
  const name = role.charAt(0).toUpperCase() + role.slice(1);
  return {
    user: { id: "u1", email: `${role}@test.local`, name, roles: [role], companyIds: null, disabled: false },
    companies: [company],
    company,
    requestId: "test",
  };
}

/** A Next route handler as the App Router calls it. */
export type RouteHandler = (
  req: NextRequest,
  segment: { params: Promise<Record<string, string>> },
) => Promise<Response>;

/**
 * One request through a route handler as `who`: writes carry `origin` and an Idempotency-Key (`key`, or a fresh
 * one); `companyId`, when given, is the selected company (undefined clears it); `params` are the route's segments;
 * `path` is below `/api/treasury`, or the whole path when it starts with `/api/` (the dashboard's own routes).
 * Resolves to the status and the parsed JSON body (null when empty).
 */
export async function callRoute<B = Record<string, unknown>>(
  handler: RouteHandler,
  opts: CallOptions,
): Promise<{ status: number; body: B }> {
  const res = await callRouteResponse(handler, opts);
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as B };
}

/** What {@link callRoute} and {@link callRouteResponse} take. */
export interface CallOptions {
  who: DashboardUser;
  origin: string;
  method: string;
  path: string;
  params?: Record<string, string>;
  json?: unknown;
  key?: string;
  companyId?: string;
}

/** As {@link callRoute}, but the handler's Response itself (for a binary download such as an .xlsx). */
export async function callRouteResponse(handler: RouteHandler, opts: CallOptions): Promise<Response> {
  session.user = opts.who;
  if ("companyId" in opts) session.cookie = opts.companyId;
  const headers: Record<string, string> =
    opts.method === "GET" ? {} : { origin: opts.origin, "idempotency-key": opts.key ?? randomUUID() };
  if (opts.json !== undefined) headers["content-type"] = "application/json";
  const path = opts.path.startsWith("/api/") ? opts.path : `/api/treasury${opts.path}`;
  const req = new NextRequest(`${opts.origin}${path}`, {
    method: opts.method,
    headers,
    body: opts.json === undefined ? undefined : JSON.stringify(opts.json),
  });
  return handler(req, { params: Promise.resolve(opts.params ?? {}) });
}

/** A test file's BFF suite: the local API it started, its installed client, and a route caller as a given user. */
export interface BffSuite {
  /** The running local API (read it inside hooks and tests, not at module level: it starts in `beforeAll`). */
  readonly local: LocalApi;
  /** `local.client`, the BFF's installed Treasury client. */
  readonly client: TreasuryClient;
  /** The dashboard origin the suite's writes carry (`useBffEnv`'s NEXTAUTH_URL). */
  readonly origin: string;
  /** {@link callRoute} as `who` with the suite's origin; `opts` as {@link CallOptions} (params, json, key, companyId). */
  call<B = Record<string, unknown>>(
    handler: unknown,
    who: DashboardUser,
    method: string,
    path: string,
    opts?: Partial<Omit<CallOptions, "who" | "origin" | "method" | "path">>,
  ): Promise<{ status: number; body: B }>;
}

/**
 * The shared set-up of a BFF integration test file (docs/testing.md#bff-integration-tests): registers a
 * `beforeAll` that starts the local treasury-api (one in-memory PGlite database for the whole file, never one per
 * test; `opts` as {@link startLocalApi}) and points the dashboard's environment at it ({@link useBffEnv} with
 * `origin` and `env`; the dashboard database is in memory), and an `afterAll` that stops the capabilities it
 * installed and closes the API. Call it once at the top level of the file, after the `vi.mock`s of the session and
 * `next/headers` (see the module comment); a file's own `beforeAll` registered after it runs once the API is up.
 * `startTimeoutMs` is the start hook's timeout (default: the Vitest config's `hookTimeout`, 300 s).
 */
export function bffSuite(
  opts: LocalApiOptions & { origin: string; env?: Record<string, string>; startTimeoutMs?: number },
): BffSuite {
  const { origin, env, startTimeoutMs, ...start } = opts;
  let local: LocalApi | undefined;
  const running = (): LocalApi => {
    if (!local) throw new Error("bffSuite: the local API is not started yet (read it in a hook or a test)");
    return local;
  };
  beforeAll(async () => {
    local = await startLocalApi(start);
    useBffEnv(local, origin, env);
  }, startTimeoutMs);
  afterAll(async () => {
    local?.capabilities?.stop();
    installed().__treasuryCapabilities?.stop(); // the ones a test installed since
    await local?.api.close();
  });
  return {
    get local() {
      return running();
    },
    get client() {
      return running().client;
    },
    origin,
    call: (handler, who, method, path, rest = {}) =>
      callRoute(handler as RouteHandler, { who, origin, method, path, ...rest }),
  };
}
