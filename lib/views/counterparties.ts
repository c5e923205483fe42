/**
 * Counterparties (payees) as the browser sees them: the BFF's answers of
 * /api/counterparties. Types and labels only (no server code), shared by the
 * BFF that builds them and the page that shows them. Timestamps are ISO 8601
 * with offset; `version` is what a change or decision sends back as
 * `expectedVersion` (optimistic concurrency).
 */

export const COUNTERPARTY_STATUS_VALUES = ["pending_verification", "verified", "rejected", "disabled"] as const;
export type CounterpartyStatusValue = (typeof COUNTERPARTY_STATUS_VALUES)[number];

/** The words the page uses for each status. */
export const COUNTERPARTY_STATUS_LABEL: Record<CounterpartyStatusValue, string> = {
  pending_verification: "Pending verification",
  verified: "Verified",
  rejected: "Rejected",
  disabled: "Disabled",
};

export interface CounterpartyView {
  id: string;
  companyId: string;
  name: string;
  /** Electronic format (upper case, no spaces). */
  iban: string;
  bic: string | null;
  /** ISO 3166-1 alpha-2. */
  country: string;
  lei: string | null;
  orgnr: string | null;
  defaultRemittance: string | null;
  status: CounterpartyStatusValue;
  createdAt: string;
  updatedAt: string;
  bankDetailsChangedAt: string | null;
  verifiedAt: string | null;
  version: number;
  /**
   * True when the viewer created this never-verified counterparty or made its
   * last bank-details change, so a second person must decide (the server
   * enforces it; the page only explains it).
   */
  viewerIsMaker: boolean;
}

export type CounterpartyEventValue = "created" | "bank_details_changed" | "verified" | "rejected" | "disabled";

/** One change of a counterparty, oldest first in a history. */
export interface CounterpartyHistoryView {
  id: string;
  event: CounterpartyEventValue;
  oldIban: string | null;
  newIban: string | null;
  oldBic: string | null;
  newBic: string | null;
  oldStatus: CounterpartyStatusValue | null;
  newStatus: CounterpartyStatusValue;
  /** Who made the change (their e-mail). */
  byEmail: string;
  at: string;
  reason: string | null;
  version: number;
}

/** A counterparty with its history (GET /api/counterparties/{id}). */
export interface CounterpartyDetailView {
  counterparty: CounterpartyView;
  history: CounterpartyHistoryView[];
}

/** The CSV columns an import takes, in the order the dialog names them. */
export const COUNTERPARTY_CSV_COLUMNS = [
  "name",
  "iban",
  "bic",
  "country",
  "lei",
  "orgnr",
  "default_remittance",
] as const;

/** The answer of POST /api/counterparties/import (a bad file is a report with `ok: false`, not an error). */
export interface CounterpartyImportView {
  ok: boolean;
  dryRun: boolean;
  /** Problems of the file as a whole (header, empty file, too many lines). */
  fileErrors: string[];
  /** Problems per line (header = line 1), naming the column when one is to blame. */
  errors: { line: number; field: string | null; message: string }[];
  /** The valid lines as they would be stored. */
  preview: { line: number; name: string; iban: string; bic: string | null; country: string }[];
  /** The counterparties created (none on a dry run or when not `ok`). */
  created: CounterpartyView[];
  /** How a file sent as bytes was decoded; `assumed` when it was neither marked (BOM), declared nor UTF-8. */
  encoding: { name: string; assumed: boolean } | null;
}
