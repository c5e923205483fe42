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

/** An IBAN's shape: country, two check digits, 11–30 letters or digits (ISO 13616), in electronic format. */
const IBAN_SHAPE = /^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$/;
/** Another account id (BBAN, ABA/BLZ account number, Othr/Id): 1–34 printable characters, no control characters. */
const OTHER_SHAPE = /^[\x21-\x7e](?:[\x20-\x7e]{0,32}[\x21-\x7e])?$/;

/**
 * True when a new account with this reference may be created: an IBAN of IBAN shape (country, two digits, 11–30
 * letters or digits), another id of 1–34 printable characters. Check digits are NOT checked: published bank samples
 * (Nordea, UBS) carry IBANs whose check digits fail, so a statement is not refused for them (docs/bank-files.md
 * "Hostile files"). A malformed reference is refused with `refusedAccount`, the same answer as another company's
 * account.
 * @param ref the reference as the parser read it (IBAN in electronic format); @param refType IBAN, BBAN or OTHER
 */
export function acceptableNewAccount(ref: string, refType: string): boolean {
  return refType === "IBAN" ? IBAN_SHAPE.test(ref) : OTHER_SHAPE.test(ref);
}
