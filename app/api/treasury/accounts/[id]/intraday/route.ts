import { IntradayQuery } from "@/lib/bff/inputs";
import { IdParams, withUser } from "@/lib/bff/route";
import { listAccountIntraday } from "@/lib/bff/queries/ledger";

/** GET /accounts/{id}/intraday */
export const GET = withUser({ permission: "ledger.read", params: IdParams, query: IntradayQuery }, (ctx) =>
  listAccountIntraday(ctx, ctx.params.id, ctx.query),
);
