import { IdParams, withUser } from "@/lib/bff/route";
import { getKoncernBreakdown } from "@/lib/bff/queries/organization";

/** GET /koncerner/{id}/breakdown — narrowed to the user's companies. */
export const GET = withUser({ permission: "organization.read", params: IdParams, company: "none" }, (ctx) =>
  getKoncernBreakdown(ctx, ctx.params.id),
);
