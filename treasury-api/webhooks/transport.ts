/**
 * The HTTP client of webhook deliveries (docs/architecture.md#webhooks): one POST per
 * attempt over node:http / node:https with the target policy of
 * `target-policy.ts` applied at connect time. The URL is checked first
 * (scheme, IP literals, localhost names); a host name is resolved by the
 * agent's `guardedLookup`, which refuses refused addresses and hands the
 * socket exactly the addresses it checked (pinned: no second resolution).
 * Redirects are never followed (node:http does not follow them).
 */
import http from "node:http";
import https from "node:https";
import type { AppConfig } from "../config";
import { TargetRefusedError, guardedLookup, systemResolver, webhookUrlRefusal } from "./target-policy";

/** Largest response body read from a receiver (the rest is discarded). */
const MAX_RESPONSE_BYTES = 64 * 1024;
/** Idle keep-alive sockets to receivers are closed after this long (ms). */
const IDLE_SOCKET_MS = 5_000;

/** Thrown when no response head arrived within the timeout. */
export class DeliveryTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`no response within ${timeoutMs} ms`);
    this.name = "TimeoutError";
  }
}

export interface WebhookTransport {
  /**
   * POSTs `body` to `url` and resolves with the response status once the body
   * was read (up to 64 KiB) or the time ran out after the head arrived.
   * @throws TargetRefusedError for a refused target (nothing was sent);
   *   DeliveryTimeoutError when no response head came within `timeoutMs`;
   *   the socket's error (e.g. ECONNREFUSED) otherwise.
   */
  post(url: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<number>;
}

/** What decides the policy of a transport: the config's `allowPrivateWebhooks` and `webhookResolver`. */
export type TransportSettings = Pick<AppConfig, "allowPrivateWebhooks" | "webhookResolver">;

/** A transport with its own keep-alive agents, whose sockets connect only through `guardedLookup`. */
export function createWebhookTransport(settings: TransportSettings): WebhookTransport {
  const allowPrivate = settings.allowPrivateWebhooks;
  const lookup = guardedLookup(settings.webhookResolver ?? systemResolver, allowPrivate);
  const agents = {
    "http:": new http.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS, lookup }),
    "https:": new https.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS, lookup }),
  };
  return {
    post(url, headers, body, timeoutMs) {
      const refusal = webhookUrlRefusal(url, allowPrivate);
      if (refusal) return Promise.reject(new TargetRefusedError(refusal));
      const target = new URL(url);
      const agent = target.protocol === "https:" ? agents["https:"] : agents["http:"];
      const send = target.protocol === "https:" ? https.request : http.request;
      return new Promise<number>((resolve, reject) => {
        let status: number | null = null;
        const req = send(
          target,
          { method: "POST", agent, lookup, headers: { ...headers, "content-length": String(Buffer.byteLength(body)) } },
          (res) => {
            const code = res.statusCode ?? 0;
            status = code;
            let read = 0;
            res.on("data", (chunk: Buffer) => {
              read += chunk.byteLength;
              if (read >= MAX_RESPONSE_BYTES) res.destroy();
            });
            // The status decided the outcome; a body that ends, breaks or is cut off does not change it.
            res.on("end", () => resolve(code));
            res.on("close", () => resolve(code));
            res.on("error", () => resolve(code));
          },
        );
        const timer = setTimeout(() => req.destroy(new DeliveryTimeoutError(timeoutMs)), timeoutMs);
        req.on("error", (err) => (status === null ? reject(err) : resolve(status)));
        req.on("close", () => clearTimeout(timer));
        req.end(body);
      });
    },
  };
}

const transports = new WeakMap<TransportSettings, WebhookTransport>();

/** The transport of a config object, created once per config (its agents pool connections across deliveries). */
export function webhookTransport(config: TransportSettings): WebhookTransport {
  let t = transports.get(config);
  if (!t) {
    t = createWebhookTransport(config);
    transports.set(config, t);
  }
  return t;
}
