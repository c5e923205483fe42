/**
 * Reconciliation auto-confirm rules on the server: the admin's rules (dashboard DB; the routes audit each change),
 * whether the API can reopen a match (the undo), and the undo of one rule's confirmation by a person.
 */
import "server-only";
import type { AutoRuleInput } from "../../auto-confirm/rules";
import {
  confirmationsOf,
  createAutoRule,
  deleteAutoRule,
  DuplicateRuleName,
  listAutoRules,
  markUndone,
  updateAutoRule,
  type AutoConfirmation,
  type AutoRuleRow,
} from "../../auto-confirm/store";
import { dashboardDb } from "../../server/db";
import { treasury } from "../../server/treasury";
import { TreasuryApiError, type WriteContext } from "../../treasury-client";
import { capabilities } from "../capabilities";
import type { BffContext, WriteScope } from "../context";
import { BffError } from "../errors";
import { visibleTo } from "./cross-company";

/** How long after a rule's confirmation a person may undo it, in hours (the API's reopen window). */
export const UNDO_WINDOW_HOURS = 24;

/** The rules page: the rules in the order tried, the companies to pick from, and whether undo is offered. */
export interface AutoRulesView {
  rules: AutoRuleRow[];
  companies: { id: string; name: string }[];
  /** The API advertises the reopen extension: a rule's confirmation can be undone for 24 h. */
  can_undo: boolean;
}

export async function autoRulesView(ctx: BffContext): Promise<AutoRulesView> {
  const [rules, caps] = await Promise.all([listAutoRules(await dashboardDb()), capabilities()]);
  return {
    rules,
    companies: ctx.companies.map((c) => ({ id: c.id, name: c.name })),
    can_undo: caps.has("reconciliation.reopen"),
  };
}

const notFound = () => new BffError("not_found", "There is no such auto-confirm rule.");

/** A second rule of the same name: 409 naming the field. */
function named<T>(p: Promise<T>): Promise<T> {
  return p.catch((err) => {
    if (err instanceof DuplicateRuleName)
      throw new BffError("conflict", "Another rule has this name; choose another.", {
        errors: { name: ["must differ from the other rules' names"] },
      });
    throw err;
  });
}

export const addAutoRule = async (input: AutoRuleInput) => named(createAutoRule(await dashboardDb(), input));

export const changeAutoRule = async (id: string, input: AutoRuleInput) =>
  (await named(updateAutoRule(await dashboardDb(), id, input))) ?? Promise.reject(notFound());

export const removeAutoRule = async (id: string) =>
  (await deleteAutoRule(await dashboardDb(), id)) ?? Promise.reject(notFound());

/** The instant until which a rule's confirmation may be undone; null when it is not confirmed by a rule. */
export function undoUntil(rec: Pick<AutoConfirmation, "state" | "confirmedAt">): string | null {
  if (rec.state !== "confirmed" || !rec.confirmedAt) return null;
  return new Date(new Date(rec.confirmedAt).getTime() + UNDO_WINDOW_HOURS * 3_600_000).toISOString();
}

/** The API answered that the match is proposed already: a reopen sent before (a lost answer) had gone through. */
const alreadyProposed = (err: unknown) =>
  err instanceof TreasuryApiError && err.status === 409 && err.details.state === "proposed";

/**
 * Undoes a rule's confirmation: the API reopens the match (back to `proposed`, within 24 h of the confirmation)
 * under the request's Idempotency-Key, and the record is marked undone, so no rule confirms that match again.
 * @returns the record as it was (for the audit entry) and the match's company
 * @throws BffError 404 (no rule confirmed this match, or not visible to the user), 409 `conflict` with
 *   details.reason `undo_window_passed`, `already_undone` or `reopen_unavailable` (the API lacks the extension).
 */
export async function undoAutoConfirmation(ctx: WriteScope, matchId: string, now: Date = new Date()) {
  const db = await dashboardDb();
  const rec = (await confirmationsOf(db, [matchId])).get(matchId);
  if (
    !rec ||
    !visibleTo(ctx)({ company_id: rec.companyId ?? undefined }) ||
    rec.state === "pending" ||
    rec.state === "failed"
  )
    throw new BffError("not_found", "No auto-confirm rule confirmed this match, or it is not visible to you.");
  if (rec.state === "undone")
    throw new BffError("conflict", "This automatic confirmation has been undone already.", {
      reason: "already_undone",
    });
  const until = undoUntil(rec);
  if (!until || now.toISOString() > until)
    throw new BffError(
      "conflict",
      `An automatic confirmation can be undone within ${UNDO_WINDOW_HOURS} hours only; reject or correct it in the bank's records instead.`,
      { reason: "undo_window_passed", until },
    );
  if (!(await capabilities()).has("reconciliation.reopen"))
    throw new BffError("conflict", "The Treasury API cannot reopen a confirmed match, so the confirmation stays.", {
      reason: "reopen_unavailable",
    });
  const call: WriteContext = { ...ctx.write, ...(rec.companyId ? { companyId: rec.companyId } : {}) };
  try {
    await treasury().reopenMatch(call, matchId, {
      reviewer: ctx.user.email,
      reason: `Undo of the confirmation by rule ${rec.ruleName}`.slice(0, 1000),
    });
  } catch (err) {
    if (!alreadyProposed(err)) throw err;
  }
  await markUndone(db, matchId, ctx.user.email, now.toISOString());
  return { record: rec, companyId: rec.companyId };
}
