import { withUser } from "@/lib/bff/route";
import { getDebtorAccountView } from "@/lib/bff/queries/pain001";

/** GET: the account the batch is paid from (IBAN masked), `{ account: null }` when the API cannot name it. */
export const GET = withUser({ permission: "payments.read" }, async (ctx) => ({ account: await getDebtorAccountView(ctx, ctx.params.id ?? "") }));
