/**
 * The simulated bank (issue 3 item 4; DESIGN.md "States and transitions").
 * This first part holds the pace table; the worker follows.
 */
import type { BankSpeed } from "../config";

/** The two bank steps of a batch: take it (approved → processing) and settle it (processing → outcome). */
export type BankStep = "take" | "settle";

/**
 * Delay before a bank step is due, in milliseconds, and the worker's tick
 * interval per speed: instant 0 (each tick does every due step), fast
 * seconds, realistic minutes; manual has no worker (tests call `runBankOnce`)
 * and no delays.
 */
export const BANK_PACE: Record<BankSpeed, { take: number; settle: number; tickMs: number | null }> = {
  instant: { take: 0, settle: 0, tickMs: 250 },
  fast: { take: 2_000, settle: 5_000, tickMs: 1_000 },
  realistic: { take: 60_000, settle: 5 * 60_000, tickMs: 15_000 },
  manual: { take: 0, settle: 0, tickMs: null },
};

/** When `step` becomes due if the previous one happened at `from`. */
export function bankDueAt(speed: BankSpeed, step: BankStep, from: Date): Date {
  return new Date(from.getTime() + BANK_PACE[speed][step]);
}
