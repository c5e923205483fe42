/**
 * GET /metrics — the dashboard server's Prometheus metrics (lib/server/metrics.ts),
 * for operators: any client of a dashboard that listens on loopback only (its own bind address, never request
 * headers), or `Authorization: Bearer $METRICS_TOKEN`
 * (lib/server/metrics-access.ts has the rule and its limits). Outside /api, so
 * no session is needed; proxy.ts only adds headers and redirects nothing.
 */
import type { NextRequest } from "next/server";
import { getConfig } from "@/lib/server/config";
import { listensOnLoopback, metricsResponse } from "@/lib/server/metrics-access";

export const dynamic = "force-dynamic";

export async function GET(req: NextRequest): Promise<Response> {
  return metricsResponse(req.headers, getConfig().METRICS_TOKEN, listensOnLoopback(process.env));
}
