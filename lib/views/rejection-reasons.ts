/**
 * The bank's reason per rejected instruction (docs/bank-files.md "pain.002 status reports"): the ISO 20022 reason
 * code (e.g. AC04) and its text (e.g. "Closed account number — Account closed") from the instruction's latest
 * `rejected` status event, for the batch page's instruction rows.
 */
import type { PaymentStatusEvent } from "@treasury/contract";

/** A rejection's reason; `code` null when the bank gave none (then there is no entry). */
export interface RejectionReason {
  code: string;
  text: string | null;
}

/**
 * Instruction id → the reason of its latest `rejected` event that carries a reason code; instructions without one
 * are absent.
 * @param events status events of one batch, any order (ISO 8601 `occurred_at`)
 */
export function rejectionReasons(events: readonly PaymentStatusEvent[]): Map<string, RejectionReason> {
  const latest = new Map<string, PaymentStatusEvent>();
  for (const e of events) {
    if (e.status !== "rejected" || !e.reason) continue;
    const seen = latest.get(e.instruction_id);
    if (!seen || Date.parse(e.occurred_at) >= Date.parse(seen.occurred_at)) latest.set(e.instruction_id, e);
  }
  return new Map(
    [...latest].map(([id, e]) => [id, { code: e.reason ?? "", text: e.reason_text?.trim() ? e.reason_text : null }]),
  );
}
