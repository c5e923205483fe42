import { CoverageQuery } from "@/lib/bff/inputs";
import { IdParams, withUser } from "@/lib/bff/route";
import { listAccountCoverage } from "@/lib/bff/queries/ledger";

/** GET /accounts/{id}/coverage */
export const GET = withUser({ permission: "ledger.read", params: IdParams, query: CoverageQuery }, (ctx) => listAccountCoverage(ctx, ctx.params.id, ctx.query));
