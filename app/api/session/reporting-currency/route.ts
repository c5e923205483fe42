import { z } from "zod";
import { SETTINGS_MAX_BODY_BYTES, withUser } from "@/lib/bff/route";
import { BffError } from "@/lib/bff/errors";
import { setReportingCurrency } from "@/lib/db/user-preferences";
import { dashboardDb } from "@/lib/server/db";
import { reportingCurrencyFor, supportedReportingCurrencies } from "@/lib/group/reporting-currency";

const Body = z.object({
  currency: z.string({ message: "must be an ISO 4217 currency code such as EUR" }),
});

/**
 * GET /api/session/reporting-currency — `{ currency, origin, supported }`: the user's reporting currency and the
 * choices.
 */
export const GET = withUser({ permission: "ledger.read", company: "none" }, async (ctx) => {
  const [current, supported] = await Promise.all([reportingCurrencyFor(ctx.user.id), supportedReportingCurrencies()]);
  return { ...current, supported };
});

/**
 * PUT /api/session/reporting-currency `{ currency }` — stores the user's reporting currency. 400 naming
 * `currency` when it is not one of the supported codes (EUR or a currency with stored reference rates).
 */
export const PUT = withUser(
  { permission: "ledger.read", company: "none", body: Body, maxBody: SETTINGS_MAX_BODY_BYTES },
  async (ctx) => {
    const supported = await supportedReportingCurrencies();
    const currency = ctx.body.currency.trim();
    if (!supported.includes(currency)) {
      const message = `must be one of ${supported.join(", ")}`;
      throw new BffError("validation_error", `currency ${message}`, { errors: { currency: [message] } });
    }
    await setReportingCurrency(await dashboardDb(), ctx.user.id, currency);
    return { currency, origin: "user" as const, supported };
  },
);
