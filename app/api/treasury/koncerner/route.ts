import { PagingQuery } from "@/lib/bff/inputs";
import { withUser } from "@/lib/bff/route";
import { listKoncerner } from "@/lib/bff/queries/organization";

/** GET /koncerner */
export const GET = withUser({ permission: "organization.read", company: "none", query: PagingQuery }, (ctx) =>
  listKoncerner(ctx, ctx.query),
);
