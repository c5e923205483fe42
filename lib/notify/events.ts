/**
 * The events people are told of, as the BFF calls them (docs/users-and-notifications.md#who-is-told-what). Each hook
 * never throws (lib/notify/runtime.ts `tell`): a notification that could not be written is logged and the request
 * that triggered it still succeeds.
 */
import "server-only";
import { users } from "../db/schema";
import { findUserByEmail } from "../db/users";
import { ineligibility, type BatchPolicy } from "../policies/store";
import { dashboardDb } from "../server/db";
import { logger } from "../server/log";
import { oneLine } from "./mail-text";
import { moneyMarker } from "./money-text";
import { publicBaseUrl, tell } from "./runtime";

/** What the hooks know of a batch. `total_amount` is a decimal string. */
export interface BatchFacts {
  id: string;
  reference?: string | null;
  currency: string;
  total_amount: string;
  company_id: string;
}

function batchName(b: BatchFacts): string {
  return oneLine(b.reference?.trim() || b.id.slice(0, 8));
}

/**
 * The enabled users eligible to approve a batch under its stored policy: a role or group of the policy, the batch's
 * company among theirs (or all companies), never the creator (four-eyes).
 */
export async function eligibleApprovers(policy: BatchPolicy, companyId: string, creatorId: string | null) {
  const db = await dashboardDb();
  const all = await db.select().from(users);
  return all.filter(
    (u) =>
      u.disabledAt === null &&
      u.id !== creatorId &&
      (u.companyIds === null || u.companyIds.includes(companyId)) &&
      ineligibility(policy, { id: u.id, roles: u.roles }) === null,
  );
}

/** A submitted batch waits for approval: each eligible approver is told once (one e-mail per batch). */
export async function batchWaiting(
  batch: BatchFacts,
  policy: BatchPolicy,
  creatorId: string,
  origin: string,
): Promise<void> {
  try {
    const approvers = await eligibleApprovers(policy, batch.company_id, creatorId);
    const name = batchName(batch);
    await tell({
      kind: "approval.waiting",
      userIds: approvers.map((u) => u.id),
      title: `Batch ${name} waits for your approval`,
      // The amount stays structured (currency + decimal string); readers format it (lib/notify/money-text.ts).
      body: `Batch ${name} (${moneyMarker(batch.total_amount, batch.currency)}) waits for your approval: ${oneLine(policy.explanation)}.`,
      link: "/approvals",
      eventKey: `approval.waiting:${batch.id}`,
      baseUrl: publicBaseUrl(origin),
    });
  } catch (err) {
    logger.error({ err, batchId: batch.id }, "approvers not told");
  }
}

/**
 * A decision on a batch reached its creator: approved (the last approval) or rejected (with the reason).
 * `creatorEmail` from the audit log; nobody is told when the creator decided themselves (a withdrawal).
 */
export async function batchDecided(
  decision: "approved" | "rejected",
  batchId: string,
  reference: string | null,
  creatorEmail: string | null,
  deciderId: string,
  reason: string | undefined,
  origin: string,
): Promise<void> {
  try {
    if (!creatorEmail) return;
    const creator = await findUserByEmail(await dashboardDb(), creatorEmail);
    if (!creator || creator.id === deciderId) return;
    const name = oneLine(reference?.trim() || batchId.slice(0, 8));
    await tell({
      kind: decision === "approved" ? "batch.approved" : "batch.rejected",
      userIds: [creator.id],
      title: `Batch ${name} was ${decision}`,
      body: `Batch ${name} was ${decision}${reason ? `: ${oneLine(reason)}` : ""}.`,
      link: `/payments/${batchId}`,
      eventKey: `batch.${decision}:${batchId}`,
      baseUrl: publicBaseUrl(origin),
    });
  } catch (err) {
    logger.error({ err, batchId }, "batch creator not told");
  }
}
