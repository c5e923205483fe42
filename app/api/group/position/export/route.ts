import { z } from "zod";
import { withUser } from "@/lib/bff/route";
import { exportGroupPosition } from "@/lib/bff/queries/group";
import { resolveReportingCurrency } from "@/lib/bff/queries/group-reports";

const Query = z.object({ currency: z.string().optional() });

/**
 * GET /api/group/position/export[?currency=XXX] — the group position as CSV, one line per account with its
 * original balance, the rate used and its date, and the converted balance (400 naming `currency` when unsupported).
 */
export const GET = withUser({ permission: "ledger.read", company: "none", query: Query }, async (ctx) =>
  exportGroupPosition(ctx, await resolveReportingCurrency(ctx.user.id, ctx.query.currency)),
);
