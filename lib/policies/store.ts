/**
 * Approval policies in the dashboard DB: the rules (ordered), approver groups, the policy stored with each batch
 * at submission, and the approvals the dashboard holds back until a policy's count is met. Validation of admin
 * input is here too (zod; errors name the field).
 */
import Decimal from "decimal.js";
import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import { ROLES } from "../auth/roles";
import type { DashboardDb } from "../db/client";
import {
  approvalPolicies,
  approverGroupMembers,
  approverGroups,
  batchPolicies,
  pendingApprovals,
  users,
} from "../db/schema";
import { RISK_SIGNAL_CODES } from "../payments/risk-signals";
import type { PolicyDecision, PolicyRule } from "./evaluate";

const Code = z.string().regex(/^[A-Z]{3}$/, "must be a three-letter ISO 4217 code, e.g. EUR");
const Amount = z
  .string()
  .trim()
  .regex(/^\d{1,15}(\.\d{1,2})?$/, "must be a decimal amount with at most 2 decimals, e.g. 100000.00");

/** An admin's rule (create / update). Empty strings and nulls mean "any". */
export const RuleInput = z
  .object({
    name: z.string().trim().min(1, "is required").max(100, "must be at most 100 characters"),
    company_id: z.string().uuid("must be a company id").nullable().default(null),
    currency: Code.nullable().default(null),
    amount_currency: Code.nullable().default(null),
    min_amount: Amount.nullable().default(null),
    max_amount: Amount.nullable().default(null),
    risk: z
      .discriminatedUnion("mode", [
        z.object({ mode: z.literal("any") }),
        z.object({
          mode: z.literal("kinds"),
          kinds: z
            .array(z.enum(RISK_SIGNAL_CODES, { message: `must be one of ${RISK_SIGNAL_CODES.join(", ")}` }))
            .min(1, "must name at least one risk signal"),
        }),
      ])
      .nullable()
      .default(null),
    required_approvals: z
      .number({ message: "must be a whole number from 1 to 10" })
      .int("must be a whole number from 1 to 10")
      .min(1, "must be at least 1")
      .max(10, "must be at most 10"),
    eligible_roles: z.array(z.enum(ROLES, { message: `must be one of ${ROLES.join(", ")}` })).default([]),
    eligible_group_ids: z.array(z.string().uuid("must be a group id")).default([]),
  })
  .strict()
  .superRefine((r, ctx) => {
    if (r.min_amount !== null && r.max_amount !== null && new Decimal(r.min_amount).gte(r.max_amount))
      ctx.addIssue({ code: "custom", path: ["max_amount"], message: "must be greater than min_amount" });
    if (r.eligible_roles.length === 0 && r.eligible_group_ids.length === 0)
      ctx.addIssue({
        code: "custom",
        path: ["eligible_roles"],
        message: "name at least one role or approver group who may approve",
      });
  });
export type RuleInput = z.output<typeof RuleInput>;

/** A rule as the admin API returns it (snake_case, with `position`). */
export interface RuleRow {
  id: string;
  position: number;
  name: string;
  company_id: string | null;
  currency: string | null;
  amount_currency: string | null;
  min_amount: string | null;
  max_amount: string | null;
  risk: PolicyRule["risk"];
  required_approvals: number;
  eligible_roles: string[];
  eligible_group_ids: string[];
  updated_at: string;
}

type PolicyRow = typeof approvalPolicies.$inferSelect;

function toRow(r: PolicyRow): RuleRow {
  return {
    id: r.id,
    position: r.position,
    name: r.name,
    company_id: r.companyId,
    currency: r.currency,
    amount_currency: r.amountCurrency,
    min_amount: r.minAmount,
    max_amount: r.maxAmount,
    risk: r.risk as PolicyRule["risk"],
    required_approvals: r.requiredApprovals,
    eligible_roles: r.eligibleRoles,
    eligible_group_ids: r.eligibleGroupIds,
    updated_at: r.updatedAt,
  };
}

/** The evaluation's view of a stored rule. */
export function toPolicyRule(r: RuleRow): PolicyRule {
  return {
    id: r.id,
    position: r.position,
    name: r.name,
    companyId: r.company_id,
    currency: r.currency,
    amountCurrency: r.amount_currency,
    minAmount: r.min_amount,
    maxAmount: r.max_amount,
    risk: r.risk,
    requiredApprovals: r.required_approvals,
    eligibleRoles: r.eligible_roles,
    eligibleGroupIds: r.eligible_group_ids,
  };
}

/** Every rule, in position order (1 first). */
export async function listRules(db: DashboardDb): Promise<RuleRow[]> {
  return (await db.select().from(approvalPolicies).orderBy(asc(approvalPolicies.position))).map(toRow);
}

function values(input: RuleInput) {
  return {
    name: input.name,
    companyId: input.company_id,
    currency: input.currency,
    amountCurrency: input.amount_currency,
    minAmount: input.min_amount,
    maxAmount: input.max_amount,
    risk: input.risk,
    requiredApprovals: input.required_approvals,
    eligibleRoles: input.eligible_roles,
    eligibleGroupIds: input.eligible_group_ids,
    updatedAt: new Date().toISOString(),
  };
}

/** Thrown for a rule or group id that does not exist, or a group named in a rule that does not exist. */
export class PolicyInputError extends Error {
  constructor(
    message: string,
    readonly field: string,
    readonly kind: "not_found" | "invalid" = "invalid",
  ) {
    super(message);
  }
}

async function checkGroups(db: DashboardDb, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const found = await db
    .select({ id: approverGroups.id })
    .from(approverGroups)
    .where(inArray(approverGroups.id, [...ids]));
  const missing = ids.filter((id) => !found.some((f) => f.id === id));
  if (missing.length) throw new PolicyInputError(`no approver group ${missing.join(", ")}`, "eligible_group_ids");
}

/** Appends a rule after the last one (or at `position`, moving the rest down). */
export async function createRule(db: DashboardDb, input: RuleInput, position?: number): Promise<RuleRow> {
  await checkGroups(db, input.eligible_group_ids);
  return db.transaction(async (tx) => {
    const [max] = await tx
      .select({ n: sql<number>`coalesce(max(${approvalPolicies.position}), 0)::int` })
      .from(approvalPolicies);
    const last = Number(max?.n ?? 0);
    const [row] = await tx
      .insert(approvalPolicies)
      .values({ ...values(input), position: last + 1 })
      .returning();
    if (!row) throw new Error("insert returned no row");
    if (position !== undefined && position < last + 1) return (await reorderIn(tx, row.id, position)) ?? toRow(row);
    return toRow(row);
  });
}

/** Replaces a rule's conditions and outcome (its position stays). @returns before and after, or null when unknown. */
export async function updateRule(
  db: DashboardDb,
  id: string,
  input: RuleInput,
): Promise<{ before: RuleRow; after: RuleRow } | null> {
  await checkGroups(db, input.eligible_group_ids);
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(approvalPolicies).where(eq(approvalPolicies.id, id)).for("update");
    if (!before) return null;
    const [after] = await tx.update(approvalPolicies).set(values(input)).where(eq(approvalPolicies.id, id)).returning();
    if (!after) return null;
    return { before: toRow(before), after: toRow(after) };
  });
}

/** Renumbers 1..n in the given order (two steps: the position index is unique). */
async function renumber(tx: DashboardDb, ids: readonly string[]): Promise<void> {
  await tx.update(approvalPolicies).set({ position: sql`-${approvalPolicies.position}` });
  for (const [i, id] of ids.entries())
    await tx
      .update(approvalPolicies)
      .set({ position: i + 1 })
      .where(eq(approvalPolicies.id, id));
}

async function reorderIn(tx: DashboardDb, id: string, position: number): Promise<RuleRow | null> {
  const rows = await tx.select().from(approvalPolicies).orderBy(asc(approvalPolicies.position)).for("update");
  const moving = rows.find((r) => r.id === id);
  if (!moving) return null;
  const rest = rows.filter((r) => r.id !== id).map((r) => r.id);
  const at = Math.max(0, Math.min(rest.length, position - 1));
  rest.splice(at, 0, id);
  await renumber(tx, rest);
  const [row] = await tx.select().from(approvalPolicies).where(eq(approvalPolicies.id, id));
  return row ? toRow(row) : null;
}

/** Moves a rule to `position` (1-based, clamped), the others keep their relative order. Null when unknown. */
export async function moveRule(
  db: DashboardDb,
  id: string,
  position: number,
): Promise<{ before: RuleRow[]; after: RuleRow[] } | null> {
  return db.transaction(async (tx) => {
    const before = (await tx.select().from(approvalPolicies).orderBy(asc(approvalPolicies.position))).map(toRow);
    const moved = await reorderIn(tx, id, position);
    if (!moved) return null;
    const after = (await tx.select().from(approvalPolicies).orderBy(asc(approvalPolicies.position))).map(toRow);
    return { before, after };
  });
}

/** Deletes a rule and closes the gap. @returns the deleted rule, or null when unknown. */
export async function deleteRule(db: DashboardDb, id: string): Promise<RuleRow | null> {
  return db.transaction(async (tx) => {
    const [gone] = await tx.delete(approvalPolicies).where(eq(approvalPolicies.id, id)).returning();
    if (!gone) return null;
    const rest = await tx
      .select({ id: approvalPolicies.id })
      .from(approvalPolicies)
      .orderBy(asc(approvalPolicies.position));
    await renumber(
      tx,
      rest.map((r) => r.id),
    );
    return toRow(gone);
  });
}

// ------------------------------------------------------------------ groups

export const GroupInput = z
  .object({
    name: z.string().trim().min(1, "is required").max(100, "must be at most 100 characters"),
    user_ids: z.array(z.string().uuid("must be a user id")).max(500).default([]),
  })
  .strict();
export type GroupInput = z.output<typeof GroupInput>;

export interface GroupRow {
  id: string;
  name: string;
  user_ids: string[];
}

/** Every approver group with its members' user ids, by name. */
export async function listGroups(db: DashboardDb): Promise<GroupRow[]> {
  const groups = await db.select().from(approverGroups).orderBy(asc(approverGroups.name));
  const members = await db.select().from(approverGroupMembers);
  return groups.map((g) => ({
    id: g.id,
    name: g.name,
    user_ids: members.filter((m) => m.groupId === g.id).map((m) => m.userId),
  }));
}

/**
 * Creates a group, or (with `id`) renames it and replaces its members. @returns before (null for a new one) and
 * after. @throws PolicyInputError for an unknown id, a name already taken, or a member that is no dashboard user
 *   (field `user_ids[i]`; nothing is changed).
 */
export async function saveGroup(
  db: DashboardDb,
  input: GroupInput,
  id?: string,
): Promise<{ before: GroupRow | null; after: GroupRow }> {
  return db.transaction(async (tx) => {
    const all = await listGroups(tx);
    const before = id ? (all.find((g) => g.id === id) ?? null) : null;
    if (id && !before) throw new PolicyInputError("no such approver group", "id", "not_found");
    if (all.some((g) => g.name.toLowerCase() === input.name.toLowerCase() && g.id !== id))
      throw new PolicyInputError("is already the name of another group", "name");
    const userIds = [...new Set(input.user_ids)];
    const known = userIds.length
      ? new Set((await tx.select({ id: users.id }).from(users).where(inArray(users.id, userIds))).map((u) => u.id))
      : new Set<string>();
    const unknown = input.user_ids.findIndex((u) => !known.has(u));
    if (unknown >= 0) throw new PolicyInputError("is not a dashboard user", `user_ids[${unknown}]`);
    let groupId = id;
    if (groupId) await tx.update(approverGroups).set({ name: input.name }).where(eq(approverGroups.id, groupId));
    else {
      const [row] = await tx.insert(approverGroups).values({ name: input.name }).returning();
      groupId = row?.id;
    }
    if (!groupId) throw new Error("group insert returned no row");
    await tx.delete(approverGroupMembers).where(eq(approverGroupMembers.groupId, groupId));
    if (userIds.length)
      await tx.insert(approverGroupMembers).values(userIds.map((userId) => ({ groupId: groupId as string, userId })));
    return { before, after: { id: groupId, name: input.name, user_ids: userIds } };
  });
}

/** Deletes a group (rules naming it keep the id; their explanation says "(deleted group)"). */
export async function deleteGroup(db: DashboardDb, id: string): Promise<GroupRow | null> {
  const before = (await listGroups(db)).find((g) => g.id === id) ?? null;
  if (before) await db.delete(approverGroups).where(eq(approverGroups.id, id));
  return before;
}

// ------------------------------------------------------------ batch policy

/** Who may approve a batch, as stored with it. */
export interface Eligible {
  roles: string[];
  groups: { id: string; name: string; userIds: string[] }[];
}

/** The policy stored with a batch at submission. */
export interface BatchPolicy {
  batchId: string;
  companyId: string | null;
  explanation: string;
  requiredCount: number;
  eligible: Eligible;
  rule: Record<string, unknown>;
  createdAt: string;
}

/** The stored policy of a batch, or null. */
export async function getBatchPolicy(db: DashboardDb, batchId: string): Promise<BatchPolicy | null> {
  const [row] = await db.select().from(batchPolicies).where(eq(batchPolicies.batchId, batchId));
  return row ?? null;
}

/** Stored policies of several batches, by batch id. */
export async function batchPoliciesOf(db: DashboardDb, batchIds: readonly string[]): Promise<Map<string, BatchPolicy>> {
  if (batchIds.length === 0) return new Map();
  const rows = await db
    .select()
    .from(batchPolicies)
    .where(inArray(batchPolicies.batchId, [...batchIds]));
  return new Map(rows.map((r) => [r.batchId, r]));
}

/**
 * Stores the decision for a batch, once: a second call (a retried submission) keeps the first. Group members are
 * copied, so later changes to groups or rules never change a batch already submitted.
 * @returns the stored policy (the first one when it existed)
 */
export async function storeBatchPolicy(
  db: DashboardDb,
  batchId: string,
  companyId: string | null,
  decision: PolicyDecision,
  facts: Record<string, unknown>,
): Promise<BatchPolicy> {
  const groups = await listGroups(db);
  const eligible: Eligible = {
    roles: decision.eligibleRoles,
    groups: decision.eligibleGroupIds.map((id) => {
      const g = groups.find((x) => x.id === id);
      return { id, name: g?.name ?? "(deleted group)", userIds: g?.user_ids ?? [] };
    }),
  };
  await db
    .insert(batchPolicies)
    .values({
      batchId,
      companyId,
      rule: {
        ...(decision.rule ?? { id: null }),
        failClosed: decision.failClosed ?? null,
        facts,
        converted: decision.converted ?? null,
      },
      explanation: decision.explanation,
      requiredCount: decision.requiredApprovals,
      eligible,
    })
    .onConflictDoNothing({ target: batchPolicies.batchId });
  const stored = await getBatchPolicy(db, batchId);
  if (!stored) throw new Error("batch policy was not stored");
  return stored;
}

/**
 * Whether a user may approve under a stored policy: holds one of its roles, or is a member of one of its groups
 * (as they were at submission). @returns null when eligible, else the reason in words.
 */
export function ineligibility(
  policy: Pick<BatchPolicy, "eligible" | "explanation">,
  user: { id: string; roles: readonly string[] },
): string | null {
  const { roles, groups } = policy.eligible;
  if (roles.some((r) => user.roles.includes(r))) return null;
  if (groups.some((g) => g.userIds.includes(user.id))) return null;
  const who = [...groups.map((g) => g.name), ...roles.map((r) => `role ${r}`)].join(" or ");
  return `Only ${who || "nobody"} may approve this batch (${policy.explanation}).`;
}

/**
 * Four-eyes, the dashboard's one check of it (docs/architecture.md#four-eyes; the Treasury API makes its own): the
 * batch's creator may not approve it. `initiator` is the batch's API `initiator` (the creating user's id, which
 * createBatch sets; an e-mail on older batches), compared without case with the user's id and e-mail.
 * @returns null when `user` may approve, else the reason in words
 */
export function fourEyesRefusal(
  initiator: string | null | undefined,
  user: { id: string; email: string },
): string | null {
  const who = initiator?.toLowerCase();
  if (!who || (who !== user.id.toLowerCase() && who !== user.email.toLowerCase())) return null;
  return "You created this payment batch, so another approver must approve it (four-eyes).";
}

// ------------------------------------------------------- pending approvals

export type PendingApproval = typeof pendingApprovals.$inferSelect;

/** Every approval recorded for an approval request, oldest first. */
export async function approvalsOf(db: DashboardDb, approvalId: string): Promise<PendingApproval[]> {
  return db
    .select()
    .from(pendingApprovals)
    .where(eq(pendingApprovals.approvalId, approvalId))
    .orderBy(asc(pendingApprovals.at));
}

/** Recorded approvals of several requests, grouped by approval request id. */
export async function approvalsOfMany(
  db: DashboardDb,
  approvalIds: readonly string[],
): Promise<Map<string, PendingApproval[]>> {
  const out = new Map<string, PendingApproval[]>();
  if (approvalIds.length === 0) return out;
  const rows = await db
    .select()
    .from(pendingApprovals)
    .where(inArray(pendingApprovals.approvalId, [...approvalIds]))
    .orderBy(asc(pendingApprovals.at));
  for (const r of rows) out.set(r.approvalId, [...(out.get(r.approvalId) ?? []), r]);
  return out;
}

/**
 * Whether the next approval is sent to the Treasury API, given what is recorded already. The API must end with
 * exactly `apiRequired` approvals, the last of which only once the dashboard's `policyRequired` are in:
 * the first `apiRequired - 1` approvals are forwarded as they come (they cannot complete the API's count), later
 * ones are held, and the one that brings the dashboard's count to `policyRequired` is forwarded and completes it.
 * Never more than `apiRequired` are marked for forwarding, so no approval is sent twice and none is sent to an
 * already approved request.
 * @param recorded approvals recorded before this one, with whether each is marked for forwarding
 * @param external approvals the API counted that the dashboard did not record (given elsewhere, or before
 *   policies existed): they count as forwarded ones
 */
export function forwardDecision(
  recorded: readonly { forward: boolean }[],
  apiRequired: number,
  policyRequired: number,
  external = 0,
): boolean {
  const marked = recorded.filter((r) => r.forward).length + external;
  if (marked >= apiRequired) return false;
  if (marked < apiRequired - 1) return true;
  return recorded.length + external + 1 >= Math.max(policyRequired, apiRequired);
}

/**
 * Records a user's approval under a lock of the batch policy row and decides whether it is forwarded. A retry of
 * the same approval (same upstream key) returns the row already recorded.
 * @returns `{ row, created }`; `row` null with `reason` when the user already approved under another request.
 */
export async function recordApproval(
  db: DashboardDb,
  a: {
    approvalId: string;
    batchId: string;
    user: { id: string; email: string };
    upstreamKey: string;
    body: { approver: string; reason?: string };
    apiRequired: number;
    policyRequired: number;
    /** API approvals not recorded here (see `forwardDecision`). */
    external?: number;
  },
): Promise<{ row: PendingApproval; created: boolean } | { row: null; reason: "already_approved" }> {
  return db.transaction(async (tx) => {
    await tx.select().from(batchPolicies).where(eq(batchPolicies.batchId, a.batchId)).for("update");
    const recorded = await tx
      .select()
      .from(pendingApprovals)
      .where(eq(pendingApprovals.approvalId, a.approvalId))
      .orderBy(asc(pendingApprovals.at))
      .for("update");
    const mine = recorded.find((r) => r.userId === a.user.id);
    if (mine)
      return mine.upstreamKey === a.upstreamKey
        ? { row: mine, created: false }
        : { row: null, reason: "already_approved" as const };
    const forward = forwardDecision(recorded, a.apiRequired, a.policyRequired, a.external ?? 0);
    const [row] = await tx
      .insert(pendingApprovals)
      .values({
        approvalId: a.approvalId,
        batchId: a.batchId,
        userId: a.user.id,
        userEmail: a.user.email,
        forward,
        upstreamKey: a.upstreamKey,
        body: a.body,
      })
      .returning();
    if (!row) throw new Error("insert returned no row");
    return { row, created: true };
  });
}

/** Approvals marked for forwarding that have not been confirmed as sent, oldest first. */
export async function unforwarded(db: DashboardDb, approvalId: string): Promise<PendingApproval[]> {
  return db
    .select()
    .from(pendingApprovals)
    .where(
      and(
        eq(pendingApprovals.approvalId, approvalId),
        eq(pendingApprovals.forward, true),
        isNull(pendingApprovals.forwardedAt),
      ),
    )
    .orderBy(asc(pendingApprovals.at));
}

/** Marks a forwarded approval as sent (after the API answered, or replayed, it). */
export async function markForwarded(db: DashboardDb, approvalId: string, userId: string): Promise<void> {
  await db
    .update(pendingApprovals)
    .set({ forwardedAt: new Date().toISOString() })
    .where(and(eq(pendingApprovals.approvalId, approvalId), eq(pendingApprovals.userId, userId)));
}

/** Removes a recorded approval that the Treasury API refused (it never counted), so it is not sent again. */
export async function dropApproval(db: DashboardDb, approvalId: string, userId: string): Promise<void> {
  await db
    .delete(pendingApprovals)
    .where(and(eq(pendingApprovals.approvalId, approvalId), eq(pendingApprovals.userId, userId)));
}
