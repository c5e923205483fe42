/**
 * A minimal fake upstream for e2e: a loopback HTTP proxy in front of a real treasury-api that forwards every request
 * unchanged, except that it answers the reads of one company with 503 `service_unavailable` (the spec's error body)
 * as an API does when that company's data is unavailable:
 *
 * - every request carrying the failing company's `X-Company-ID`;
 * - the `GET /accounts/summaries` extension read without `X-Company-ID` (it spans every company the client sees,
 *   so it cannot be answered while one of them is down; the dashboard must then fall back to per-company reads).
 *
 * Everything else (OAuth token, discovery, the company list, the other companies' reads, writes) reaches the API
 * as sent, Host header included, so the links the API writes (a list's `next` page) name the proxy, not the API
 * behind it. The failing company can be changed or cleared at run time. Counts the answers it failed, so a test can
 * show that the dashboard really asked for the failing company's data.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface FailingUpstream {
  /** `http://127.0.0.1:<port>`: use `${url}/public` as the dashboard's `TREASURY_API_BASE_URL`. */
  url: string;
  /** The company whose reads fail, or null to forward everything. */
  failCompany(id: string | null): void;
  /** Requests answered 503 so far, as `METHOD path` (query left out). */
  failed(): string[];
  close(): Promise<void>;
}

/**
 * Starts the proxy on 127.0.0.1 (a free port unless `port` is given) in front of `target` (an origin such as
 * `http://127.0.0.1:4010`; paths are kept as they are).
 */
export async function startFailingUpstream(target: string, port = 0): Promise<FailingUpstream> {
  const to = new URL(target);
  let failing: string | null = null;
  const failedLog: string[] = [];

  const server = http.createServer((req, res) => {
    const companyId = req.headers["x-company-id"];
    const pathOnly = (req.url ?? "/").split("?")[0] ?? "/";
    const bulk = req.method === "GET" && /\/accounts\/summaries$/.test(pathOnly) && companyId === undefined;
    if (failing !== null && (companyId === failing || bulk)) {
      failedLog.push(`${req.method} ${pathOnly}`);
      req.resume();
      const body = JSON.stringify({
        error: "service_unavailable",
        message: "The company's ledger is temporarily unavailable.",
        details: {},
      });
      res.writeHead(503, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
      res.end(body);
      return;
    }
    const upstream = http.request(
      {
        host: to.hostname,
        port: to.port,
        method: req.method,
        path: req.url,
        // The Host header goes on as the dashboard sent it (the proxy's address), as a transparent proxy's does: the
        // API builds its absolute pagination links (`next`, `previous`) from it, and the client refuses a link to
        // any other origin than its base URL's ("A pagination link points outside the Treasury API").
        headers: req.headers,
      },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on("error", (err) => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
      res.end(`proxy: ${err.message}`);
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}`,
    failCompany: (id) => {
      failing = id;
    },
    failed: () => [...failedLog],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
