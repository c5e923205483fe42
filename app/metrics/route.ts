/**
 * GET /metrics — the dashboard server's Prometheus metrics (lib/server/metrics.ts),
 * for operators: loopback clients, or `Authorization: Bearer $METRICS_TOKEN`
 * (lib/server/metrics-access.ts has the rule and its limits). Outside /api, so
 * no session is needed; proxy.ts only adds headers and redirects nothing.
 */
import type { NextRequest } from "next/server";
import { getConfig } from "@/lib/server/config";
import { metricsResponse } from "@/lib/server/metrics-access";

export const dynamic = "force-dynamic";

export async function GET(req: NextRequest): Promise<Response> {
  return metricsResponse(req.headers, getConfig().METRICS_TOKEN);
}
