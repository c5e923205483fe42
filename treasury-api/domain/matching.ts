/**
 * Reconciliation matcher (DESIGN.md: a proposed match per booked payment,
 * score 0–100 from amount, date, end-to-end id and name similarity).
 *
 * STUB — owned by the reconciliation engineer, who replaces this body.
 * Created by the payments engineer so that the bank simulator can already
 * call it after booking; keep the signature. Until then it proposes nothing.
 */
import type { DbOrTx } from "../db/client";

/**
 * Proposes reconciliation matches for newly booked transactions, inside the
 * caller's transaction (the bank simulator calls it in the same transaction
 * that books them, so a crash loses or repeats nothing).
 * @param tx the caller's transaction (or the database)
 * @param transactionIds ids of transactions just booked
 */
export async function proposeMatchesForTransactions(tx: DbOrTx, transactionIds: string[]): Promise<void> {
  void tx;
  void transactionIds;
}
