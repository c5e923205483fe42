/**
 * Shapes the new-batch / edit-batch forms receive from the server (types
 * only, importable by the browser). Amounts are decimal strings.
 */

/** An active account the batch may be paid from, with its latest available balance. */
export interface DebtorAccountOption {
  id: string;
  name: string;
  currency: string;
  /** Masked, first four and last four characters. */
  iban: string;
  /** Decimal string; null when no available balance is reported. */
  available_balance: string | null;
  available_as_of: string | null;
}

/** A counterparty the creditor typeahead offers (the company's verified and pending ones). */
export interface PayeeOption {
  id: string;
  name: string;
  /** Electronic format. */
  iban: string;
  bic: string | null;
  status: "verified" | "pending_verification";
  defaultRemittance: string | null;
}

/** The payment-run extensions the connected API advertises in its OpenAPI document. */
export interface PaymentRunSupport {
  /** Batch reference, debtor account, per-instruction BIC and remittance information. */
  fields: boolean;
  edit: boolean;
  discard: boolean;
}
