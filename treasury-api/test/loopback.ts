/**
 * Test-only: the two set-ups most integration tests repeat — the API's real HTTP server on loopback, and an OAuth
 * access token for a Form B client (docs/testing.md, the paragraph "Test helpers" under its suites). The dashboard's tests take them through
 * `@treasury/test-support/local-api`.
 */
import { startServer, type RunningServer, type ServerOptions } from "../server";

/**
 * Starts the API's real HTTP server on 127.0.0.1 at a free port over an in-memory PGlite, without a request log
 * and without a seed (`seed: "none"`, `seedScale: 1`) unless `options` says otherwise; every other field of
 * `options` is passed on as it is.
 * @returns the running server (`url` like http://127.0.0.1:40123; close it in `afterAll`)
 */
export function startLoopbackServer(options: Partial<ServerOptions> = {}): Promise<RunningServer> {
  return startServer({
    port: 0,
    host: "127.0.0.1",
    data: "memory",
    seed: "none",
    seedScale: 1,
    log: false,
    ...options,
  });
}

/** Where a token request goes: a server's base address (`http://127.0.0.1:port`, no `/public`), or an app in-process. */
export type TokenTarget = string | { request(path: string, init: RequestInit): Response | Promise<Response> };

/**
 * A Form B client's access token: `POST /public/auth/token/` with HTTP Basic credentials and
 * `grant_type=client_credentials` (docs/treasury-api.md "Authentication and scopes"), `scope` narrowing it when given.
 * @throws Error with the status and body when the answer is not 200
 */
export async function clientToken(
  target: TokenTarget,
  clientId: string,
  secret: string,
  scope?: string,
): Promise<string> {
  const init: RequestInit = {
    method: "POST",
    headers: {
      authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString("base64")}`,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams({ grant_type: "client_credentials", ...(scope ? { scope } : {}) }).toString(),
  };
  const path = "/public/auth/token/";
  const res = await (typeof target === "string" ? fetch(`${target}${path}`, init) : target.request(path, init));
  if (res.status !== 200) throw new Error(`token for ${clientId}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}
