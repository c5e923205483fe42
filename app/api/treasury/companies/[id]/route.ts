import { IdParams, withUser } from "@/lib/bff/route";
import { getCompany } from "@/lib/bff/queries/organization";

/** GET /companies/{id} — 404 outside the user's companies. */
export const GET = withUser({ permission: "organization.read", params: IdParams, company: "none" }, (ctx) =>
  getCompany(ctx, ctx.params.id),
);
