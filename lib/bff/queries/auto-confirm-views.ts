/**
 * The reconciliation review's part of the auto-confirm rules: run them on the matches the review just read, and
 * the rule and undo deadline of each decided match a rule confirmed.
 */
import "server-only";
import { confirmationsOf } from "../../auto-confirm/store";
import type { ReconciliationMatch } from "@treasury/contract";
import { dashboardDb } from "../../server/db";
import { logger } from "../../server/log";
import type { AutoConfirmationView, AutoConfirmFailureView } from "../../views/reconciliation";
import { runAutoConfirm } from "../auto-confirm";
import { capabilities } from "../capabilities";
import { undoUntil } from "./auto-rules";

export type { AutoConfirmationView, AutoConfirmFailureView };

/**
 * Runs the rules on `matches` (all states; only proposals are considered). A failure is logged, never fails the
 * read: the review shows the proposals as they are. @returns how many matches the rules confirmed now.
 */
export async function autoConfirmOnRead(matches: readonly ReconciliationMatch[], requestId: string): Promise<number> {
  try {
    return (await runAutoConfirm({ matches, requestId })).confirmed.length;
  } catch (err) {
    logger.warn({ requestId, err: err instanceof Error ? err.message : String(err) }, "auto-confirm on read failed");
    return 0;
  }
}

/** The confirmed matches of `matches` that a rule confirmed, with the undo deadline when undo is possible now. */
export async function autoConfirmationsOf(
  matches: readonly Pick<ReconciliationMatch, "id" | "state">[],
  now: Date = new Date(),
): Promise<Map<string, AutoConfirmationView>> {
  const confirmed = matches.filter((m) => m.state === "confirmed").map((m) => m.id);
  if (confirmed.length === 0) return new Map();
  const [recs, caps] = await Promise.all([confirmationsOf(await dashboardDb(), confirmed), capabilities()]);
  const out = new Map<string, AutoConfirmationView>();
  for (const [id, rec] of recs) {
    if (rec.state !== "confirmed") continue;
    const until = undoUntil(rec);
    out.set(id, {
      rule_name: rec.ruleName,
      confirmed_at: rec.confirmedAt,
      undo_until: caps.has("reconciliation.reopen") && until && until > now.toISOString() ? until : null,
    });
  }
  return out;
}

/**
 * The proposals of `matches` whose rule confirmation the API refused (state `failed`): the rule and the recorded
 * answer, so the person reviewing the proposal sees why it is still theirs to decide.
 */
export async function autoConfirmFailuresOf(
  matches: readonly Pick<ReconciliationMatch, "id" | "state">[],
): Promise<Map<string, AutoConfirmFailureView>> {
  const proposed = matches.filter((m) => m.state === "proposed").map((m) => m.id);
  if (proposed.length === 0) return new Map();
  const recs = await confirmationsOf(await dashboardDb(), proposed);
  return new Map(
    [...recs]
      .filter(([, rec]) => rec.state === "failed")
      .map(([id, rec]) => [id, { rule_name: rec.ruleName, error: rec.error ?? "refused by the Treasury API" }]),
  );
}
