import { StatusEventsQuery } from "@/lib/bff/inputs";
import { clientFilters, toBffPage } from "@/lib/bff/queries/page";
import { withUser } from "@/lib/bff/route";
import { treasury } from "@/lib/server/treasury";

/** GET /payments/status-events */
export const GET = withUser({ permission: "payments.read", query: StatusEventsQuery }, async (ctx) =>
  toBffPage(await treasury().listStatusEvents(ctx.read, clientFilters(ctx.query))),
);
