/** Reconciliation matches (spec §4 Reconciliation), spanning the user's companies. */
import "server-only";
import type { z } from "zod";
import type { BffContext } from "../context";
import { pageParams, type MatchesQuery } from "../inputs";
import { treasury } from "../treasury";
import { crossCompanyCall, visibleTo } from "./cross-company";
import { toBffPage } from "./page";

export async function listMatches(ctx: BffContext, q: z.output<typeof MatchesQuery> = {}) {
  const page = await treasury().listMatches(crossCompanyCall(ctx, q.company_id, "read"), { ...pageParams(q), state: q.state, transaction_id: q.transaction_id, payment_instruction_id: q.payment_instruction_id });
  return toBffPage(page, visibleTo(ctx));
}

/** Confirms or rejects a proposed match; a restricted user acts within the named or selected company. */
export async function decideMatch(ctx: BffContext, id: string, decision: "confirm" | "reject", companyId: string | undefined, idempotencyKey: string) {
  const call = { ...crossCompanyCall(ctx, companyId, "write"), idempotencyKey };
  const match = decision === "confirm" ? await treasury().confirmMatch(call, id) : await treasury().rejectMatch(call, id);
  return { match, companyId: match?.company_id ?? call.companyId };
}
