/**
 * Lists and decisions that span companies: the approval queue and
 * reconciliation (upstream, an absent X-Company-ID means every linked company,
 * so that one approver sees one queue; the BFF narrows the answer to the user's companies).
 */
import "server-only";
import type { CallContext } from "../../treasury-client";
import type { BffContext } from "../context";
import { mayUseCompany } from "../company";
import { BffError } from "../errors";

/**
 * The upstream context of a cross-company call. A named company must be one
 * of the user's (403). Without one, an unrestricted user's reads and writes
 * span every company; a user limited to some companies reads everything and
 * is narrowed afterwards, and writes within the selected company.
 */
export function crossCompanyCall(ctx: BffContext, companyId: string | undefined, kind: "read" | "write"): CallContext {
  if (companyId) {
    if (!mayUseCompany(ctx.user, ctx.companies, companyId))
      throw new BffError("permission_denied", "You do not have access to this company.", { company_id: companyId });
    return { requestId: ctx.requestId, companyId, outcome: ctx.upstream };
  }
  if (kind === "write" && ctx.user.companyIds !== null) {
    if (!ctx.company)
      throw new BffError("permission_denied", "No company is available to you. Ask an administrator for access.");
    return { requestId: ctx.requestId, companyId: ctx.company.id, outcome: ctx.upstream };
  }
  return { requestId: ctx.requestId, outcome: ctx.upstream };
}

/** Keeps rows of the user's companies; a row without a company is kept only for unrestricted users. */
export function visibleTo(ctx: BffContext): (row: { company_id?: string }) => boolean {
  const ids = new Set(ctx.companies.map((c) => c.id));
  return (row) => (row.company_id ? ids.has(row.company_id) : ctx.user.companyIds === null);
}
