/** Reconciliation matches (spec §2, §4 Reconciliation; DESIGN.md states and extensions). */
import { z } from "zod";
import { IsoDateTime, Uuid } from "./common";

export const MATCH_STATES = ["proposed", "confirmed", "rejected"] as const;
export const MatchState = z.enum(MATCH_STATES);
export type MatchState = z.infer<typeof MatchState>;

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
  })
  .meta({ id: "ReconciliationMatch" });
export type ReconciliationMatch = z.infer<typeof ReconciliationMatch>;
