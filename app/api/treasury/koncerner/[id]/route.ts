import { IdParams, withUser } from "@/lib/bff/route";
import { getKoncern } from "@/lib/bff/queries/organization";

/** GET /koncerner/{id} */
export const GET = withUser({ permission: "organization.read", params: IdParams, company: "none" }, (ctx) =>
  getKoncern(ctx, ctx.params.id),
);
