import { withUser } from "@/lib/bff/route";
import { CompanyOverride } from "@/lib/bff/inputs";
import { ConfirmExactBody, confirmExact } from "@/lib/bff/exact-confirm";

/**
 * POST { ids: uuid[1..100] } → { results: [{ id, status: confirmed | refused, ... }], confirmed, refused }
 * (treasurer): "Confirm all exact matches". Each id is re-read first and confirmed only while it is a proposal
 * scoring 100 (else refused `not_exact` / `not_found`); idempotent under the Idempotency-Key; one audit entry per
 * confirmed match. docs/guides/reconciliation.md#exact-matches
 */
export const POST = withUser(
  { permission: "reconciliation.write", company: "none", query: CompanyOverride, body: ConfirmExactBody },
  (ctx) => confirmExact(ctx),
);
