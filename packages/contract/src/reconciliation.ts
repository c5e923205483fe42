/** Reconciliation matches (docs/treasury-api.md#reconciliation; docs/architecture.md#states-and-transitions, #extensions). */
import { z } from "zod";
import { IsoDateTime, Uuid, freeText, text } from "./common";

export const MATCH_STATES = ["proposed", "confirmed", "rejected"] as const;
export const MatchState = z.enum(MATCH_STATES);
export type MatchState = z.infer<typeof MatchState>;

/** Who made a match: the matcher's proposal, or a person matching by hand. */
export const MATCH_ORIGINS = ["matcher", "manual"] as const;
export type MatchOrigin = (typeof MATCH_ORIGINS)[number];

const Score = z.number().int().min(0).max(100);

export const ScoreBreakdown = z.object({ amount: Score, date: Score, reference: Score, name: Score });
export type ScoreBreakdown = z.infer<typeof ScoreBreakdown>;

export const ReconciliationMatch = z
  .object({
    id: Uuid,
    payment_instruction_id: Uuid,
    transaction_id: Uuid,
    state: MatchState,
    score: Score,
    score_breakdown: ScoreBreakdown.meta({ description: "Extension" }),
    created_at: IsoDateTime.optional().meta({ description: "Extension" }),
    company_id: Uuid.optional().meta({ description: "Extension" }),
    decided_at: IsoDateTime.nullable().optional().meta({ description: "Extension: when it was confirmed or rejected" }),
    reviewer: z
      .string()
      .nullable()
      .optional()
      .meta({ description: "Extension: reviewer named in the confirm / reject call" }),
    reason: z
      .string()
      .nullable()
      .optional()
      .meta({ description: "Extension: reason given in the confirm / reject call" }),
    origin: z
      .enum(MATCH_ORIGINS)
      .optional()
      .meta({ description: "Extension: proposed by the matcher, or created by hand (POST /reconciliation/matches)" }),
  })
  .meta({ id: "ReconciliationMatch" });
export type ReconciliationMatch = z.infer<typeof ReconciliationMatch>;

/** Optional body of POST /reconciliation/matches/{id}/confirm and /reject (audit trail). */
export const MatchDecision = z
  .object({
    reviewer: text(200).optional(),
    reason: freeText(1000).optional(),
  })
  .strict()
  .meta({ id: "MatchDecision" });
export type MatchDecision = z.infer<typeof MatchDecision>;
