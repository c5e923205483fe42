/**
 * The one answer for a statement account the import refuses (docs/bank-files.md "Hostile files", last rule): an
 * account of another company of the tenant is refused with a message that never says why, so that the import
 * never reveals that an IBAN exists elsewhere in the tenant.
 */
import { CamtImportError } from "./camt053-parse";

/**
 * The refusal: a 400 `validation_error` naming the file, the element (`details.path`) and the account as the file
 * gives it; the message never says why.
 * @param fileName the file; @param path the account element, e.g. `Document/BkToCstmrStmt/Stmt[0]/Acct/Id`
 * @param ref the account reference as read (IBAN in electronic format, or the other id)
 */
export function refusedAccount(fileName: string, path: string, ref: string): CamtImportError {
  return new CamtImportError(
    fileName,
    path,
    `names account ${ref}, which cannot be imported for this company (it is not one of the company's accounts and cannot be added as one)`,
  );
}

/**
 * True when a new account with this reference may be created. Always, today: the bank names the account, and
 * published bank samples (Nordea, UBS) carry IBANs whose check digits fail, so a statement is not refused for
 * them (docs/bank-files.md "Hostile files"). Kept as the one place for a stricter rule.
 */
export function acceptableNewAccount(_ref: string, _refType: string): boolean {
  return true;
}
