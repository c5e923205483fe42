import { z } from "zod";
import { Iban, Uuid } from "@treasury/contract";
import { IdParams, withUser } from "@/lib/bff/route";
import { payeeHistory } from "@/lib/bff/queries/risk";

const PayeeHistoryQuery = z.object({ iban: Iban, company_id: Uuid.optional() });

/**
 * GET ?iban= — the company's last 12 payments to that IBAN, this batch's own left out (the payee's history, shown in
 * place
 * next to a batch's instruction). `company_id` as for the risk read.
 */
export const GET = withUser(
  { permission: "payments.read", company: "none", params: IdParams, query: PayeeHistoryQuery },
  (ctx) => payeeHistory(ctx, ctx.query.iban, ctx.query.company_id, ctx.params.id),
);
