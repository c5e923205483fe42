import type { NextRequest } from "next/server";
import { EVENT_ID_HEADER, SIGNATURE_HEADER } from "@treasury/contract/webhook-signing";
import { emailEnabled, kickOutbox, publicBaseUrl } from "@/lib/notify/runtime";
import { receiveTreasuryWebhook } from "@/lib/notify/treasury-webhooks";
import { getConfig } from "@/lib/server/config";
import { dashboardDb } from "@/lib/server/db";
import { logger } from "@/lib/server/log";

/** Largest delivery body accepted (bytes); the API's events are a few kilobytes. */
const MAX_BODY_BYTES = 256 * 1024;

/**
 * POST /api/webhooks/treasury — the receiver of the Treasury API's signed webhooks
 * (docs/users-and-notifications.md#webhooks-from-the-treasury-api). No session: the `X-Service-Signature` HMAC with
 * `TREASURY_WEBHOOK_SECRET` is the authentication. 503 when that setting is unset; 401 for an absent, bad or stale
 * signature; 413 above 256 KiB; 400 naming the field of a malformed body; 204 for an event of no interest; 200
 * `{ received, duplicate, told }` otherwise. 500 only when the database fails (the API delivers again).
 */
export async function POST(req: NextRequest): Promise<Response> {
  const length = Number(req.headers.get("content-length") ?? "0");
  if (length > MAX_BODY_BYTES) return Response.json({ error: "payload_too_large" }, { status: 413 });
  const rawBody = await req.text();
  if (Buffer.byteLength(rawBody) > MAX_BODY_BYTES)
    return Response.json({ error: "payload_too_large" }, { status: 413 });
  try {
    const answer = await receiveTreasuryWebhook(
      { rawBody, signature: req.headers.get(SIGNATURE_HEADER), eventId: req.headers.get(EVENT_ID_HEADER) },
      {
        secrets: getConfig().TREASURY_WEBHOOK_SECRET,
        db: await dashboardDb(),
        email: emailEnabled(),
        baseUrl: publicBaseUrl(req.nextUrl.origin),
      },
    );
    if (answer.status === 401) logger.warn({ requestId: req.headers.get("x-request-id") }, "webhook: bad signature");
    if (answer.emails) void kickOutbox();
    return answer.body === null ? new Response(null, { status: answer.status }) : Response.json(answer.body, answer);
  } catch (err) {
    logger.error({ err }, "webhook: not handled");
    return Response.json(
      { error: "internal_error", message: "The event was not recorded; deliver it again." },
      { status: 500 },
    );
  }
}
