import { StatusEventsQuery } from "@/lib/bff/inputs";
import { withUser } from "@/lib/bff/route";
import { listStatusEvents } from "@/lib/bff/queries/payments";

/** GET /payments/status-events */
export const GET = withUser({ permission: "payments.read", query: StatusEventsQuery }, (ctx) =>
  listStatusEvents(ctx, ctx.query),
);
