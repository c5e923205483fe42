/**
 * The two sides of reconciliation matches, read in bulk: the payment instruction and the bank transaction of each
 * match, by id. One by-id lookup per side when the API offers it (extensions `GET /payments/instructions?ids=` and
 * `GET /transactions/lookup?ids=`, read from its OpenAPI document), else one read per distinct id with at most
 * `SIDE_READS_IN_FLIGHT` in flight. Used by the reconciliation review, the unmatched view and the auto-confirm rules
 * (its own module so that the auto-confirm job and the review it runs from do not import each other).
 */
import "server-only";
import type { PaymentInstruction, ReconciliationMatch, Transaction } from "@treasury/contract";
import { TreasuryApiError, type CallContext } from "../../treasury-client";
import { treasury } from "../../server/treasury";
import { capabilities } from "../capabilities";
import { mapLimit } from "./map-limit";

/** Reads in flight at once when the sides are read one by one (an API without the lookups). */
export const SIDE_READS_IN_FLIGHT = 4;

/** The instructions and transactions of a page of matches, by id; a side that could not be read is absent. */
export interface MatchSides {
  instructions: Map<string, PaymentInstruction>;
  transactions: Map<string, Transaction>;
}

/** One read per id, a bounded number in flight; a failed read leaves that id out (the row shows the side as missing). */
async function readEach<T>(ids: readonly string[], read: (id: string) => Promise<T>): Promise<Map<string, T>> {
  const got = await mapLimit(ids, SIDE_READS_IN_FLIGHT, (id) => read(id).catch(() => null));
  return new Map(ids.flatMap((id, i) => (got[i] ? [[id, got[i]] as const] : [])));
}

/**
 * The rows of a lookup by id; an API that does not know the lookup after all (404 / 400: the capability was read
 * before a downgrade) is read one by one instead; any other failure leaves the sides missing rather than failing the
 * page, as a failed single read does.
 */
export async function lookup<T extends { id: string }>(
  ids: readonly string[],
  bulk: ((ids: readonly string[]) => Promise<T[]>) | null,
  single: (id: string) => Promise<T>,
): Promise<Map<string, T>> {
  if (ids.length === 0) return new Map();
  if (!bulk) return readEach(ids, single);
  try {
    return new Map((await bulk(ids)).map((row) => [row.id, row]));
  } catch (err) {
    if (err instanceof TreasuryApiError && (err.status === 404 || err.status === 400)) return readEach(ids, single);
    return new Map();
  }
}

/**
 * Loads the instruction and the transaction of every match in `matches` in bulk (at most 100 matches: a page of the
 * review). `call` carries no company, so one lookup spans every company the client sees; the ids come from matches
 * already narrowed to the user's companies. Per-id fallback reads use each match's company.
 */
export async function loadMatchSides(
  call: CallContext,
  matches: readonly Pick<ReconciliationMatch, "payment_instruction_id" | "transaction_id" | "company_id">[],
): Promise<MatchSides> {
  const caps = await capabilities();
  const companyOf = new Map<string, string | undefined>();
  for (const m of matches) {
    companyOf.set(m.payment_instruction_id, m.company_id);
    companyOf.set(m.transaction_id, m.company_id);
  }
  const single = (id: string): CallContext => ({ ...call, companyId: companyOf.get(id) ?? call.companyId });
  const instructionIds = [...new Set(matches.map((m) => m.payment_instruction_id))];
  const transactionIds = [...new Set(matches.map((m) => m.transaction_id))];
  const api = treasury();
  const [instructions, transactions] = await Promise.all([
    lookup(
      instructionIds,
      caps.has("payments.instructions_lookup") ? (ids) => api.lookupInstructions(call, ids) : null,
      (id) => api.getInstruction(single(id), id),
    ),
    lookup(
      transactionIds,
      caps.has("ledger.transactions_lookup") ? (ids) => api.lookupTransactions(call, ids) : null,
      (id) => api.getTransaction(single(id), id),
    ),
  ]);
  return { instructions, transactions };
}

/**
 * The instructions of `ids` by one bulk lookup (at most 100 ids), or none when the API lacks the lookup: for figures
 * beyond the page (the exact proposals' totals, docs/guides/reconciliation.md#exact-matches) that are not worth one
 * upstream read per id.
 */
export async function lookupInstructionsInBulk(
  call: CallContext,
  ids: readonly string[],
): Promise<Map<string, PaymentInstruction>> {
  if (ids.length === 0 || !(await capabilities()).has("payments.instructions_lookup")) return new Map();
  try {
    return new Map((await treasury().lookupInstructions(call, ids)).map((row) => [row.id, row]));
  } catch {
    return new Map(); // left out of the totals, as a side the page could not read is left out of its row
  }
}
