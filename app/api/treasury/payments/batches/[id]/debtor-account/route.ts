import { IdParams, withUser } from "@/lib/bff/route";
import { getDebtorAccountView } from "@/lib/bff/queries/pain001";

/**
 * GET: `{ account, reason }`: the account the batch is paid from (IBAN masked),
 * or null and why no payment file can be written.
 */
export const GET = withUser({ permission: "payments.read", params: IdParams }, (ctx) =>
  getDebtorAccountView(ctx, ctx.params.id),
);
