/**
 * A webhook receiver on 127.0.0.1 for tests and benchmarks. It checks every
 * delivery's `X-Service-Signature` with its own HMAC-SHA256 code (written
 * from the documented scheme, not by calling `verifySignature`), so it tests
 * the signer the way a customer's receiver would. What the receiver answers is
 * decided per request by `respond` (default 200).
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedDelivery {
  path: string;
  eventId: string | undefined;
  signatureHeader: string | undefined;
  /** Number of `v1=` signatures in the header. */
  v1Count: number;
  /** Names of the `secrets` entries whose HMAC matched one v1 (e.g. ["new", "old"]). */
  validFor: string[];
  /** Timestamp within 5 minutes of now. */
  fresh: boolean;
  rawBody: string;
  body: { id?: string; type?: string; created_at?: string; data?: Record<string, unknown> };
  receivedAt: number;
}

export interface ReceiverReply {
  status: number;
  headers?: Record<string, string>;
  /** Wait this long before answering (ms). */
  delayMs?: number;
}

export interface LoopbackReceiver {
  /** e.g. `http://127.0.0.1:40123` */
  url: string;
  received: ReceivedDelivery[];
  /** Named secrets the signature is checked against (add after creating an endpoint). */
  secrets: Map<string, string>;
  /** Decides the answer; `attempt` counts requests for the same path + event id, from 1. */
  respond: (d: ReceivedDelivery, attempt: number) => ReceiverReply;
  close(): Promise<void>;
}

function hmacHex(secret: string, data: string): Buffer {
  return createHmac("sha256", secret).update(data).digest();
}

/** Starts a receiver on an ephemeral loopback port. */
export async function startLoopbackReceiver(): Promise<LoopbackReceiver> {
  const counts = new Map<string, number>();
  const receiver: LoopbackReceiver = {
    url: "",
    received: [],
    secrets: new Map(),
    respond: () => ({ status: 200 }),
    close: async () => undefined,
  };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks).toString("utf8");
    const header = req.headers["x-service-signature"];
    const sigHeader = Array.isArray(header) ? header[0] : header;
    const parts = (sigHeader ?? "").split(",").map((p) => p.split("=", 2) as [string, string | undefined]);
    const t = parts.find(([k]) => k === "t")?.[1] ?? "";
    const v1s = parts.filter(([k]) => k === "v1").map(([, v]) => Buffer.from(v ?? "", "hex"));
    const validFor: string[] = [];
    for (const [name, secret] of receiver.secrets) {
      const expected = hmacHex(secret, `${t}.${rawBody}`);
      if (v1s.some((v) => v.length === expected.length && timingSafeEqual(v, expected))) validFor.push(name);
    }
    let body: ReceivedDelivery["body"] = {};
    try {
      body = JSON.parse(rawBody) as ReceivedDelivery["body"];
    } catch {
      body = {};
    }
    const eventHeader = req.headers["x-service-event-id"];
    const d: ReceivedDelivery = {
      path: req.url ?? "/",
      eventId: Array.isArray(eventHeader) ? eventHeader[0] : eventHeader,
      signatureHeader: sigHeader,
      v1Count: v1s.length,
      validFor,
      fresh: /^\d+$/.test(t) && Math.abs(Date.now() / 1000 - Number(t)) <= 300,
      rawBody,
      body,
      receivedAt: Date.now(),
    };
    receiver.received.push(d);
    const key = `${d.path}|${d.eventId ?? ""}`;
    const attempt = (counts.get(key) ?? 0) + 1;
    counts.set(key, attempt);
    const reply = receiver.respond(d, attempt);
    if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
    if (res.destroyed) return;
    res.writeHead(reply.status, { "content-type": "text/plain", ...reply.headers });
    res.end(reply.status < 300 ? "ok" : "no");
  };
  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  receiver.url = `http://127.0.0.1:${port}`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}
