/**
 * The payment run's rule on a creditor's bank, zod-free so that the batch form can show it without loading the
 * contract's schemas in its first load (docs/guides/payments-and-approvals.md#the-payment-run).
 */
import { isSEPACountry } from "ibantools";

/** What `creditor_bic` is told when {@link bicRequired} holds and the BIC is blank. */
export const BIC_REQUIRED_MESSAGE = "is required for an IBAN outside SEPA";

/**
 * The payment run's rule on a creditor's bank (docs/guides/payments-and-approvals.md#the-payment-run): outside SEPA
 * the IBAN does not identify the bank for every payment scheme, so an instruction to an IBAN of a non-SEPA country
 * needs a BIC; inside SEPA it is optional. `iban` as typed (spaces and lower case allowed); one whose first two
 * characters are not a country code is left to the IBAN check (false). The one owner of the rule: the BFF enforces
 * it, the form and the CSV import show it.
 */
export function bicRequired(iban: string): boolean {
  const country = iban.replace(/\s+/g, "").slice(0, 2).toUpperCase();
  return /^[A-Z]{2}$/.test(country) && !isSEPACountry(country);
}

/** True when an instruction breaks {@link bicRequired}'s rule: an IBAN outside SEPA and a blank BIC. */
export function bicMissing(iban: string, bic: string | null | undefined): boolean {
  return !(bic ?? "").trim() && bicRequired(iban);
}
