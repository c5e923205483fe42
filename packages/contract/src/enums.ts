/**
 * Value lists of the contract's enumerations (docs/treasury-api.md#resources;
 * docs/architecture.md#states-and-transitions and #enumerations) as plain constants, without zod.
 *
 * The zod schemas in ./ledger and ./payments are built from these lists and
 * re-export them, so `@treasury/contract` still offers them. Browser code that
 * only needs a list (a status filter, a URL-state parser) imports it from
 * here: importing it from the schema modules would ship zod (≈ 25 KB gz)
 * and ibantools in that page's first-load JS.
 */

/** ISO 20022 balance codes CLBD, CLAV, ITBD, ITAV. */
export const BALANCE_TYPES = ["closing_booked", "closing_available", "interim_booked", "interim_available"] as const;

/** Where a statement day came from. */
export const COVERAGE_SOURCES = ["camt.053", "mt940", "api"] as const;

/** How complete a statement day is. */
export const COMPLETENESS = ["complete", "partial", "missing"] as const;

/** Payment batch states. */
export const BATCH_STATUSES = [
  "created",
  "pending_approval",
  "approved",
  "rejected",
  "processing",
  "completed",
  "partially_completed",
  "failed",
] as const;

/** Instruction states, modelled on ISO 20022 pain.002 (PDNG, ACCP, ACSC, RJCT). */
export const INSTRUCTION_STATUSES = ["pending", "accepted", "settled", "rejected", "cancelled"] as const;
