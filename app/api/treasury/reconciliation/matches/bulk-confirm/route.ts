import { withUser } from "@/lib/bff/route";
import { CompanyOverride } from "@/lib/bff/inputs";
import { BulkConfirmBody, bulkConfirm } from "@/lib/bff/bulk-confirm";

/**
 * POST { ids: uuid[1..100] } → { results: [{ id, status: confirmed | refused, ... }], confirmed, refused }
 * (treasurer). One audit entry per confirmed match; a refusal is reported for its match only.
 */
export const POST = withUser(
  { permission: "reconciliation.write", company: "none", query: CompanyOverride, body: BulkConfirmBody },
  (ctx) => bulkConfirm(ctx),
);
