import { dashboardDb } from "@/lib/server/db";
import { logger } from "@/lib/server/log";

/**
 * GET /readyz — readiness, for launchers and load balancers: the dashboard database
 * is open and migrated (and, in demo mode, the demo users exist). The first
 * call does that work, so launchers and load balancers can warm up with it.
 */
export async function GET(): Promise<Response> {
  try {
    await dashboardDb();
    return Response.json({ status: "ready" }, { headers: { "Cache-Control": "no-store" } });
  } catch (err) {
    logger.error({ err }, "not ready");
    return Response.json({ status: "not_ready" }, { status: 503, headers: { "Cache-Control": "no-store" } });
  }
}
