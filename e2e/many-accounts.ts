/**
 * Test data for the accounts list over more than one page:
 * `n` CHF client-money accounts at two Swiss banks, as Account upsert bodies
 * (docs/treasury-api.md#resources; `name` and `bank_name` are extensions of the local API). With
 * the two seeded accounts of a company they fill more than one page of 50.
 * Shared by the BFF integration test and the e2e of the read edges.
 */
import { composeIBAN } from "ibantools";

/** The banks the accounts alternate between: BIC (bank_id), clearing number and display name. */
export const MANY_ACCOUNT_BANKS = [
  { bankId: "UBSWCHZH80A", clearing: "00230", name: "UBS" },
  { bankId: "POFICHBEXXX", clearing: "09000", name: "PostFinance" },
] as const;

/**
 * Upsert bodies of `n` accounts named "Klientkonto 01" … for `companyId`. @throws Error when an IBAN cannot be
 * composed
 */
export function manyAccounts(companyId: string, n: number) {
  return Array.from({ length: n }, (_, i) => {
    const bank = MANY_ACCOUNT_BANKS[i % MANY_ACCOUNT_BANKS.length] ?? MANY_ACCOUNT_BANKS[0];
    const iban = composeIBAN({ countryCode: "CH", bban: `${bank.clearing}${String(i + 1).padStart(12, "0")}` });
    if (!iban) throw new Error(`no IBAN for account ${i + 1}`);
    return {
      company_id: companyId,
      bank_id: bank.bankId,
      external_ref: iban,
      external_ref_type: "IBAN" as const,
      currency: "CHF",
      status: "active" as const,
      name: `Klientkonto ${String(i + 1).padStart(2, "0")}`,
      bank_name: bank.name,
    };
  });
}
