import { randomUUID } from "node:crypto";
import type { BffErrorBody } from "@/lib/bff/errors";

/**
 * Every `/api/...` address no route answers: a JSON 404 in the BFF's error shape (docs/architecture.md), so that a
 * script or the browser's fetch never receives the shell's HTML "not found" page, which the dashboard's catch-all
 * (app/(dashboard)/[...missing]) gives every other unknown address. A static `api` segment wins over that catch-all.
 */
function missing(request: Request): Response {
  const given = request.headers.get("x-request-id");
  const requestId = given && /^[A-Za-z0-9._:-]{1,128}$/.test(given) ? given : randomUUID();
  const body: BffErrorBody = {
    error: "not_found",
    message: `No API endpoint at ${new URL(request.url).pathname}`,
    details: {},
    request_id: requestId,
  };
  return Response.json(body, { status: 404, headers: { "X-Request-ID": requestId, "Cache-Control": "no-store" } });
}

export const GET = missing;
export const POST = missing;
export const PUT = missing;
export const PATCH = missing;
export const DELETE = missing;
