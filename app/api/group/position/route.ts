import { z } from "zod";
import { withUser } from "@/lib/bff/route";
import { BffError } from "@/lib/bff/errors";
import { getGroupPosition } from "@/lib/bff/queries/group";
import { reportingCurrencyFor, supportedReportingCurrencies } from "@/lib/group/reporting-currency";

const Query = z.object({ currency: z.string().optional() });

/**
 * GET /api/group/position[?currency=XXX] — the group cash position of every company the user may see, in the
 * user's reporting currency (or `currency`, which must be a supported one: 400 naming `currency` otherwise).
 * Companies whose reads failed are named in `failedCompanies`; the rest is returned.
 */
export const GET = withUser({ permission: "ledger.read", company: "none", query: Query }, async (ctx) => {
  let currency = (await reportingCurrencyFor(ctx.user.id)).currency;
  if (ctx.query.currency !== undefined) {
    const supported = await supportedReportingCurrencies();
    if (!supported.includes(ctx.query.currency)) {
      const message = `must be one of ${supported.join(", ")}`;
      throw new BffError("validation_error", `currency ${message}`, { errors: { currency: [message] } });
    }
    currency = ctx.query.currency;
  }
  return getGroupPosition(ctx, currency);
});
