/**
 * Overdue bank statements of the selected company (docs/bank-files.md "Missing statements"), read from the API's
 * `GET /statements/missing` extension when it advertises it (capability `statements.missing`); an API without it
 * shows nothing. The overview and the accounts list name each account whose statement is overdue, with the oldest
 * missing statement's day and when it was expected.
 */
import "server-only";
import { treasury } from "../../server/treasury";
import { capabilities } from "../capabilities";
import { companyCall, type BffContext } from "../context";
import { overdueAccounts, type OverdueAccount } from "../../views/overdue-statements";

export { overdueAccounts, type OverdueAccount };

/**
 * The selected company's accounts with an overdue statement (one read, cached upstream 30 s and dropped by a
 * statement upload), or null when the API does not advertise `GET /statements/missing`.
 * @throws BffError as the upstream read does (403 without a company, 429/5xx after retries)
 */
export async function missingStatements(ctx: BffContext): Promise<OverdueAccount[] | null> {
  if (!(await capabilities()).has("statements.missing")) return null;
  const call = companyCall(ctx);
  const rows = await treasury().listMissingStatements(call);
  // The API answers with the X-Company-ID company only; the filter keeps that true whatever the API does.
  return overdueAccounts(rows.filter((r) => r.company_id === call.companyId));
}
