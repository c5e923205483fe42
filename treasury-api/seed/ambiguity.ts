/**
 * Demo reconciliation ambiguity: a batch whose bookings look the way real bank statements do, so the matcher's
 * proposals span its whole range (60–100) instead of all scoring 100.
 *
 * `ambiguousBatch` builds the batch (company currency, eight payees); after the simulated bank has settled it,
 * `applyBankQuirks` rewrites its bookings as a real bank reports them and proposes matches again:
 * - a bank fee deducted from the amount (amount part < 100);
 * - a reference truncated by the bank, and one reformatted with spaces or slashes (no end-to-end id reported);
 * - a creditor name variant ("SV LOGISTIK" for "Svensk Logistik AB");
 * - two instructions of the same amount to one payee, one booking reporting only "FAKTURA";
 * - a bank charge booked with no instruction at all (it stays unmatched).
 * Balances (interim and intraday points) move by each change, so the ledger still adds up. Deterministic: no PRNG.
 */
import Decimal from "decimal.js";
import { and, eq, gte, inArray, sql } from "drizzle-orm";
import type { PaymentBatchCreate } from "@treasury/contract/payments";
import type { Db } from "../db/client";
import {
  accounts,
  balanceSnapshots,
  intradayPoints,
  paymentInstructions,
  reconciliationMatches,
  transactions,
} from "../db/schema";
import { bankVerdict } from "../domain/bank-simulator";
import { proposeMatchesForTransactions } from "../domain/matching";
import { newId } from "../lib/secrets";

/** What the bank does to one booking (by instruction position). */
interface Quirk {
  creditor: string;
  amount: string;
  remittance?: string;
  /** Fee the bank deducted from the booked amount (decimal string). */
  fee?: string;
  /** Booked remittance text; `(e2e)` is replaced by the end-to-end id. */
  bookedRemittance?: string;
  /** Booked counterparty name. */
  bookedName?: string;
  /** Whether the bank reports the end-to-end id (default true). */
  keepEndToEndId?: boolean;
}

const QUIRKS: Quirk[] = [
  { creditor: "Fjordkraft Energi AS", amount: "2480.00", fee: "15.00" },
  { creditor: "Telenor Bedrift", amount: "1130.50", bookedRemittance: "(e2e:truncated)", keepEndToEndId: false },
  { creditor: "Kontorpartner AS", amount: "3275.00", bookedRemittance: "(e2e:spaced)", keepEndToEndId: false },
  { creditor: "Svensk Logistik AB", amount: "5940.00", bookedName: "SV LOGISTIK" },
  { creditor: "Oslo Taxi Service AS", amount: "1875.00", remittance: "Faktura 40211" },
  {
    creditor: "Oslo Taxi Service AS",
    amount: "1875.00",
    remittance: "Faktura 40212",
    bookedRemittance: "FAKTURA",
    keepEndToEndId: false,
  },
  {
    creditor: "Dansk Rengøring ApS",
    amount: "712.40",
    fee: "10.00",
    bookedRemittance: "(e2e:slashed)",
    bookedName: "DANSK RENGORING",
    keepEndToEndId: false,
  },
];

/** The bank charge booked without any instruction. */
export const ORPHAN_BOOKING = { amount: "95.00", counterpartyName: "Bank charges", remittance: "Account fee" };

/** An end-to-end id the simulated bank settles (its verdict is a hash of the id): `<tag>-AMB-<n>`, else with a suffix. */
function settlingId(tag: string, n: number, creditor: string): string {
  for (const suffix of ["", "B", "C", "D", "E"]) {
    const id = `${tag}-AMB-${String(n).padStart(4, "0")}${suffix}`;
    if (bankVerdict({ endToEndId: id, creditorName: creditor }, true).status === "settled") return id;
  }
  throw new Error("no settling end-to-end id");
}

/**
 * The batch to create (and approve) before the bank runs.
 * @param payeeIban each creditor's one IBAN
 */
export function ambiguousBatch(
  target: { companyId: string; currency: string },
  tag: string,
  payeeIban: (name: string) => string,
): PaymentBatchCreate {
  return {
    company_id: target.companyId,
    currency: target.currency,
    instructions: QUIRKS.map((q, i) => ({
      amount: target.currency === "JPY" ? (q.amount.split(".")[0] ?? q.amount) : q.amount,
      currency: target.currency,
      creditor_name: q.creditor,
      creditor_iban: payeeIban(q.creditor),
      end_to_end_id: settlingId(tag, i + 1, q.creditor),
      ...(q.remittance ? { remittance_information: { type: "unstructured" as const, text: q.remittance } } : {}),
    })),
  };
}

function bookedRemittance(q: Quirk, e2e: string, asBooked: string): string {
  switch (q.bookedRemittance) {
    case undefined:
      return asBooked;
    case "(e2e:truncated)":
      return e2e.slice(0, e2e.length - 3);
    case "(e2e:spaced)":
      return e2e.replace(/-/g, " ");
    case "(e2e:slashed)":
      return e2e.replace(/-/g, "/");
    default:
      return q.bookedRemittance;
  }
}

/** Moves the account's balances from `at` on (the day's interim figures and later intraday points) by `delta`. */
async function shiftBalances(db: Db, accountId: string, date: string, at: string, delta: Decimal): Promise<void> {
  if (delta.isZero()) return;
  const d = delta.toFixed();
  await db
    .update(balanceSnapshots)
    .set({ balance: sql`${balanceSnapshots.balance} + ${d}::numeric` })
    .where(
      and(
        eq(balanceSnapshots.accountId, accountId),
        eq(balanceSnapshots.asOfDate, date),
        inArray(balanceSnapshots.balanceType, ["interim_booked", "interim_available"]),
      ),
    );
  await db
    .update(intradayPoints)
    .set({ balance: sql`${intradayPoints.balance} + ${d}::numeric` })
    .where(and(eq(intradayPoints.accountId, accountId), gte(intradayPoints.timestamp, at)));
}

/**
 * Rewrites the settled batch's bookings as the bank reports them, books the bank charge, and proposes matches
 * again for the changed bookings. Call once, right after the bank settled the batch.
 * @returns the ids of the changed bookings and of the bank charge
 */
export async function applyBankQuirks(
  db: Db,
  batchId: string,
): Promise<{ transactionIds: string[]; orphanId: string }> {
  const rows = await db
    .select({ position: paymentInstructions.position, e2e: paymentInstructions.endToEndId, tx: transactions })
    .from(paymentInstructions)
    .innerJoin(transactions, eq(transactions.id, paymentInstructions.transactionId))
    .where(and(eq(paymentInstructions.batchId, batchId), eq(paymentInstructions.status, "settled")));
  const ids = rows.map((r) => r.tx.id);
  await db.delete(reconciliationMatches).where(inArray(reconciliationMatches.transactionId, ids));
  for (const { position, e2e, tx } of rows) {
    const q = QUIRKS[position];
    if (!q) continue;
    const amount = q.fee ? new Decimal(tx.amount).minus(q.fee) : new Decimal(tx.amount);
    await db
      .update(transactions)
      .set({
        amount: amount.toFixed(2),
        remittance: bookedRemittance(q, e2e, tx.remittance),
        counterpartyName: q.bookedName ?? tx.counterpartyName,
        endToEndId: q.keepEndToEndId === false ? null : tx.endToEndId,
      })
      .where(eq(transactions.id, tx.id));
    // A smaller debit leaves more on the account.
    await shiftBalances(db, tx.accountId, tx.bookedDate, tx.bookedAt, new Decimal(tx.amount).minus(amount));
  }
  const first = rows[0]?.tx;
  if (!first) throw new Error("the ambiguity batch has not settled");
  const [account] = await db.select().from(accounts).where(eq(accounts.id, first.accountId));
  const orphanId = newId();
  await db.insert(transactions).values({
    id: orphanId,
    tenantId: first.tenantId,
    companyId: first.companyId,
    accountId: first.accountId,
    amount: ORPHAN_BOOKING.amount,
    currency: account?.currency ?? first.currency,
    direction: "debit",
    bookedDate: first.bookedDate,
    bookedAt: first.bookedAt,
    valueDate: first.valueDate,
    valueAt: first.valueAt,
    counterpartyName: ORPHAN_BOOKING.counterpartyName,
    remittance: ORPHAN_BOOKING.remittance,
    endToEndId: null,
    source: "bank-simulator",
    dedupeKey: `bank-charge:${batchId}`,
  });
  await shiftBalances(db, first.accountId, first.bookedDate, first.bookedAt, new Decimal(ORPHAN_BOOKING.amount).neg());
  await db.transaction((t) => proposeMatchesForTransactions(t, [...ids, orphanId]));
  return { transactionIds: ids, orphanId };
}
