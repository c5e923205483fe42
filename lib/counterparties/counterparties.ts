/**
 * Counterparties (payees) under maker-checker, in the dashboard database.
 * Payment fraud happens mostly where payees are created or their bank details
 * change ("our bank details have changed"), so every such change waits for a
 * second person:
 *
 * - create → `pending_verification`; change of IBAN / BIC → back to
 *   `pending_verification` (also from `verified` or `rejected`), the old and
 *   new details kept in `counterparty_history`;
 * - verify / reject (from `pending_verification` only): a user with
 *   `counterparties.verify` (treasurer or admin) who is neither the last one
 *   to change the bank details nor, while the counterparty was never
 *   verified, its creator;
 * - disable (from any state but `disabled`): `counterparties.manage`; it only
 *   takes a payee out of use, so it needs no second person.
 *
 * Every change runs in one transaction that locks the row, checks the rules,
 * bumps `version` (the caller passes the version it showed the person:
 * optimistic concurrency, so two verifiers cannot both act), appends a history
 * row and an audit entry. Refusals of the maker-checker rule are audited too
 * (outcome `denied`). Errors are `BffError`s: `validation_error` with
 * `details.errors` keyed by field, `permission_denied`, `not_found` (also for
 * another company's counterparty: no existence leak), `conflict` (wrong state,
 * stale version, an IBAN already live for the company).
 *
 * Company access: the actor's own company list is checked here; that the
 * company is visible to the Treasury API client is the BFF's check.
 */
import "server-only";
import { and, asc, desc, eq, ilike, inArray, or, sql, type SQL } from "drizzle-orm";
import type { PgUpdateSetSource } from "drizzle-orm/pg-core";
import { z, type ZodError } from "zod";
import { AUDIT_ACTION, type AuditAction } from "../audit-actions";
import { can, type Permission } from "../auth/roles";
import { BffError, validationError } from "../bff/errors";
import { appendAudit } from "../db/audit";
import type { DashboardDb } from "../db/client";
import { counterparties, counterpartyHistory, type CounterpartyEvent, type CounterpartyStatus } from "../db/schema";
import type { DashboardUser } from "../db/users";
import type { BankDetailsChange, CounterpartyRecord } from "../payments/risk-signals";
import { BankDetails, CounterpartyInput, Reason, ibanKey, type CounterpartyFields } from "./validation";

/** Who acts: the signed-in dashboard user. */
export type Actor = Pick<DashboardUser, "id" | "email" | "roles" | "companyIds">;

/** A counterparty as the rest of the dashboard sees it. Timestamps ISO 8601. */
export type Counterparty = typeof counterparties.$inferSelect;
/** One row of a counterparty's history. */
export type CounterpartyHistoryEntry = typeof counterpartyHistory.$inferSelect;

/** Optional request metadata carried into the audit entry. */
export interface AuditMeta {
  requestId?: string | null;
  idempotencyKey?: string | null;
}

const OBJECT_TYPE = "counterparty";

function parse<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const r = schema.safeParse(input);
  if (!r.success) throw validationError(r.error as ZodError, "body");
  return r.data;
}

function requirePermission(actor: Actor, permission: Permission): void {
  if (!can(actor.roles, permission))
    throw new BffError("permission_denied", `Your role does not allow this (needs ${permission}).`, {
      permission,
    });
}

function mayUseCompany(actor: Actor, companyId: string): boolean {
  return actor.companyIds === null || actor.companyIds.includes(companyId);
}

const Version = z.number({ message: "is required" }).int({ message: "must be an integer" }).min(1);

/** The input of a decision (verify, reject, disable): why, and the version the person saw. */
const Decision = z.object({ reason: Reason, expectedVersion: Version });
export type DecisionInput = z.input<typeof Decision>;

const BankDetailsChange = z.object({ reason: Reason, expectedVersion: Version }).and(BankDetails);
export type BankDetailsChangeInput = z.input<typeof BankDetailsChange>;

function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err; e && typeof e === "object"; e = (e as { cause?: unknown }).cause)
    if ((e as { code?: unknown }).code === "23505") return true;
  return false;
}

function ibanTaken(): BffError {
  return new BffError(
    "conflict",
    "iban already belongs to a counterparty of this company that is pending or verified",
    {
      errors: { iban: ["already belongs to a counterparty of this company that is pending or verified"] },
    },
  );
}

type Tx = DashboardDb;

async function liveWithIban(tx: Tx, companyId: string, iban: string, exceptId?: string): Promise<boolean> {
  const rows = await tx
    .select({ id: counterparties.id })
    .from(counterparties)
    .where(
      and(
        eq(counterparties.companyId, companyId),
        eq(counterparties.iban, iban),
        inArray(counterparties.status, ["pending_verification", "verified"]),
        exceptId ? sql`${counterparties.id} <> ${exceptId}` : undefined,
      ),
    )
    .limit(1);
  return rows.length > 0;
}

async function history(
  tx: Tx,
  actor: Actor,
  row: Counterparty,
  event: CounterpartyEvent,
  after: Counterparty,
  reason: string | null,
): Promise<void> {
  await tx.insert(counterpartyHistory).values({
    counterpartyId: row.id,
    companyId: row.companyId,
    event,
    oldIban: event === "created" ? null : row.iban,
    newIban: after.iban,
    oldBic: event === "created" ? null : row.bic,
    newBic: after.bic,
    oldStatus: event === "created" ? null : row.status,
    newStatus: after.status,
    byUserId: actor.id,
    byEmail: actor.email,
    reason,
    version: after.version,
  });
}

/**
 * Creates a counterparty in `pending_verification` for `companyId`.
 * @param input name, iban, optional bic, country (default: the IBAN's), lei, orgnr, defaultRemittance.
 * @throws BffError validation_error (field named), permission_denied (role or company), conflict (IBAN live already).
 */
export async function createCounterparty(
  db: DashboardDb,
  actor: Actor,
  companyId: string,
  input: CounterpartyInput,
  meta: AuditMeta = {},
): Promise<Counterparty> {
  requirePermission(actor, "counterparties.manage");
  if (!mayUseCompany(actor, companyId))
    throw new BffError("permission_denied", "You may not manage counterparties of this company.");
  const fields = parse(CounterpartyInput, input);
  try {
    return await db.transaction(async (tx) => insertPending(tx, actor, companyId, fields, meta));
  } catch (err) {
    if (isUniqueViolation(err)) throw ibanTaken();
    throw err;
  }
}

/** Inserts one validated pending counterparty, its history row and audit entry (in the caller's transaction). */
export async function insertPending(
  tx: Tx,
  actor: Actor,
  companyId: string,
  fields: CounterpartyFields,
  meta: AuditMeta & { action?: AuditAction } = {},
): Promise<Counterparty> {
  if (await liveWithIban(tx, companyId, fields.iban)) throw ibanTaken();
  const [row] = await tx
    .insert(counterparties)
    .values({ ...fields, companyId, status: "pending_verification", createdBy: actor.id })
    .returning();
  if (!row) throw new Error("counterparty insert returned no row");
  await history(tx, actor, row, "created", row, null);
  await appendAudit(tx, {
    userId: actor.id,
    userEmail: actor.email,
    action: meta.action ?? AUDIT_ACTION.counterpartyCreate,
    objectType: OBJECT_TYPE,
    objectId: row.id,
    companyId,
    idempotencyKey: meta.idempotencyKey,
    requestId: meta.requestId,
    outcome: "success",
    details: { name: row.name, iban: row.iban, bic: row.bic, status: row.status },
  });
  return row;
}

/**
 * Loads the row for a change, locked, and checks company access, version and
 * state. @throws not_found, conflict (stale version or a state outside `allowed`).
 */
async function lockForChange(
  tx: Tx,
  actor: Actor,
  id: string,
  expectedVersion: number,
  allowed: readonly CounterpartyStatus[],
): Promise<Counterparty> {
  const [row] = await tx.select().from(counterparties).where(eq(counterparties.id, id)).for("update");
  if (!row || !mayUseCompany(actor, row.companyId))
    throw new BffError("not_found", "This counterparty does not exist.");
  if (row.version !== expectedVersion)
    throw new BffError(
      "conflict",
      "Someone else changed this counterparty since you opened it. Reload it and decide again.",
      { reason: "stale_version", version: row.version, status: row.status },
    );
  if (!allowed.includes(row.status))
    throw new BffError("conflict", `This counterparty is ${row.status.replaceAll("_", " ")}.`, {
      state: row.status,
      allowed,
    });
  return row;
}

async function applyChange(
  tx: Tx,
  actor: Actor,
  row: Counterparty,
  event: CounterpartyEvent,
  set: PgUpdateSetSource<typeof counterparties>,
  reason: string,
  meta: AuditMeta,
  action: AuditAction,
): Promise<Counterparty> {
  const [after] = await tx
    .update(counterparties)
    .set({ ...set, updatedAt: sql`now()`, version: row.version + 1 })
    .where(and(eq(counterparties.id, row.id), eq(counterparties.version, row.version)))
    .returning();
  // The row is locked, so this only happens if the lock was not taken; still the loser's answer is a conflict.
  if (!after)
    throw new BffError("conflict", "Someone else changed this counterparty at the same moment. Reload it.", {
      reason: "stale_version",
    });
  await history(tx, actor, row, event, after, reason);
  await appendAudit(tx, {
    userId: actor.id,
    userEmail: actor.email,
    action,
    objectType: OBJECT_TYPE,
    objectId: row.id,
    companyId: row.companyId,
    idempotencyKey: meta.idempotencyKey,
    requestId: meta.requestId,
    outcome: "success",
    details: {
      reason,
      from: row.status,
      to: after.status,
      version: after.version,
      ...(event === "bank_details_changed"
        ? { old_iban: row.iban, new_iban: after.iban, old_bic: row.bic, new_bic: after.bic }
        : {}),
    },
  });
  return after;
}

/**
 * Changes IBAN and / or BIC. The counterparty goes (back) to
 * `pending_verification` and the history keeps old and new details; the
 * person who changed them cannot verify the change.
 * Allowed from `pending_verification`, `verified`, `rejected`.
 * @throws validation_error (iban, bic, reason, expectedVersion), permission_denied, not_found, conflict.
 */
export async function changeBankDetails(
  db: DashboardDb,
  actor: Actor,
  id: string,
  input: BankDetailsChangeInput,
  meta: AuditMeta = {},
): Promise<Counterparty> {
  requirePermission(actor, "counterparties.manage");
  const v = parse(BankDetailsChange, input);
  try {
    return await db.transaction(async (tx) => {
      const row = await lockForChange(tx, actor, id, v.expectedVersion, [
        "pending_verification",
        "verified",
        "rejected",
      ]);
      if (row.iban === v.iban && row.bic === v.bic)
        throw new BffError("validation_error", "iban and bic are the same as now", {
          errors: { iban: ["is the same as now"] },
        });
      if (await liveWithIban(tx, row.companyId, v.iban, row.id)) throw ibanTaken();
      return applyChange(
        tx,
        actor,
        row,
        "bank_details_changed",
        {
          iban: v.iban,
          bic: v.bic,
          status: "pending_verification",
          bankDetailsChangedBy: actor.id,
          bankDetailsChangedAt: sql`now()`,
        },
        v.reason,
        meta,
        AUDIT_ACTION.counterpartyBankDetailsChange,
      );
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw ibanTaken();
    throw err;
  }
}

/** The users who may not decide on `row`'s pending state (maker-checker). */
export function makersOf(row: Pick<Counterparty, "createdBy" | "bankDetailsChangedBy" | "verifiedAt">): string[] {
  const makers: string[] = [];
  // Until a first verification, everything about the counterparty is the creator's unchecked work.
  if (row.verifiedAt === null) makers.push(row.createdBy);
  if (row.bankDetailsChangedBy) makers.push(row.bankDetailsChangedBy);
  return makers;
}

/**
 * A decision on one counterparty (verify, reject, disable): `(db, actor, id, { reason, expectedVersion }, meta?)`,
 * resolving to the counterparty as it is afterwards.
 */
export type CounterpartyDecision = (
  db: DashboardDb,
  actor: Actor,
  id: string,
  input: DecisionInput,
  meta?: AuditMeta,
) => Promise<Counterparty>;

/** Moves a pending counterparty to `verdict`; a maker who tries is refused and audited as denied. */
async function decide(
  verdict: "verified" | "rejected",
  ...[db, actor, id, input, meta = {}]: Parameters<CounterpartyDecision>
): Promise<Counterparty> {
  const action = verdict === "verified" ? AUDIT_ACTION.counterpartyVerify : AUDIT_ACTION.counterpartyReject;
  requirePermission(actor, "counterparties.verify");
  const v = parse(Decision, input);
  let denied: Counterparty | undefined;
  try {
    return await db.transaction(async (tx) => {
      const row = await lockForChange(tx, actor, id, v.expectedVersion, ["pending_verification"]);
      if (makersOf(row).includes(actor.id)) {
        denied = row;
        throw new BffError(
          "permission_denied",
          "A second person must decide: you created this counterparty or changed its bank details.",
          { reason: "maker_checker" },
        );
      }
      return applyChange(
        tx,
        actor,
        row,
        verdict,
        verdict === "verified"
          ? { status: "verified", verifiedBy: actor.id, verifiedAt: sql`now()` }
          : { status: "rejected" },
        v.reason,
        meta,
        action,
      );
    });
  } catch (err) {
    if (denied)
      await appendAudit(db, {
        userId: actor.id,
        userEmail: actor.email,
        action,
        objectType: OBJECT_TYPE,
        objectId: denied.id,
        companyId: denied.companyId,
        idempotencyKey: meta.idempotencyKey,
        requestId: meta.requestId,
        outcome: "denied",
        details: { reason: "maker_checker", version: denied.version },
      });
    throw err;
  }
}

/**
 * Verifies a pending counterparty (it may then be paid without the
 * "unverified counterparty" signal). Maker-checker as described above.
 * @throws validation_error (reason, expectedVersion), permission_denied (role, maker), not_found, conflict.
 */
export const verifyCounterparty: CounterpartyDecision = (...args) => decide("verified", ...args);

/** Rejects a pending counterparty; same rules as `verifyCounterparty`. */
export const rejectCounterparty: CounterpartyDecision = (...args) => decide("rejected", ...args);

/**
 * Takes a counterparty out of use (any state but `disabled`; final). No
 * second person is needed: disabling cannot send money anywhere.
 * @throws validation_error, permission_denied, not_found, conflict.
 */
export const disableCounterparty: CounterpartyDecision = async (db, actor, id, input, meta = {}) => {
  requirePermission(actor, "counterparties.manage");
  const v = parse(Decision, input);
  return db.transaction(async (tx) => {
    const row = await lockForChange(tx, actor, id, v.expectedVersion, ["pending_verification", "verified", "rejected"]);
    return applyChange(
      tx,
      actor,
      row,
      "disabled",
      { status: "disabled" },
      v.reason,
      meta,
      AUDIT_ACTION.counterpartyDisable,
    );
  });
};

/** One counterparty of a company the actor may see. @throws not_found. */
export async function getCounterparty(db: DashboardDb, actor: Actor, id: string): Promise<Counterparty> {
  requirePermission(actor, "counterparties.read");
  const [row] = await db.select().from(counterparties).where(eq(counterparties.id, id));
  if (!row || !mayUseCompany(actor, row.companyId))
    throw new BffError("not_found", "This counterparty does not exist.");
  return row;
}

/** The history of one counterparty, oldest first. @throws not_found. */
export async function getCounterpartyHistory(
  db: DashboardDb,
  actor: Actor,
  id: string,
): Promise<CounterpartyHistoryEntry[]> {
  const row = await getCounterparty(db, actor, id);
  return db
    .select()
    .from(counterpartyHistory)
    .where(eq(counterpartyHistory.counterpartyId, row.id))
    .orderBy(asc(counterpartyHistory.at), asc(counterpartyHistory.version));
}

export interface CounterpartyQuery {
  /** Part of the name, or of the IBAN (spaces ignored). */
  search?: string;
  status?: CounterpartyStatus;
  /** 1..500, default 100. */
  limit?: number;
}

/** The counterparties of `companyId`, by name. @throws permission_denied for a company the actor may not use. */
export async function listCounterparties(
  db: DashboardDb,
  actor: Actor,
  companyId: string,
  q: CounterpartyQuery = {},
): Promise<Counterparty[]> {
  requirePermission(actor, "counterparties.read");
  if (!mayUseCompany(actor, companyId)) throw new BffError("permission_denied", "You may not see this company.");
  const where: SQL[] = [eq(counterparties.companyId, companyId)];
  if (q.status) where.push(eq(counterparties.status, q.status));
  const s = q.search?.trim();
  if (s) {
    const like = `%${s.replaceAll(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const ibanLike = `%${ibanKey(s).replaceAll(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const cond = or(ilike(counterparties.name, like), ilike(counterparties.iban, ibanLike));
    if (cond) where.push(cond);
  }
  const limit = Math.min(500, Math.max(1, q.limit ?? 100));
  return db
    .select()
    .from(counterparties)
    .where(and(...where))
    .orderBy(asc(counterparties.name), desc(counterparties.createdAt))
    .limit(limit);
}

/**
 * Every counterparty of `companyId` (any status) with its bank-details
 * changes, in the shape the risk signals take (`CounterpartyRecord` of
 * lib/payments/risk-signals.ts). Unbounded by design: the signals must see
 * every payee, not a page of them.
 * @throws permission_denied for a company the actor may not use.
 */
export async function counterpartiesForRisk(
  db: DashboardDb,
  actor: Actor,
  companyId: string,
): Promise<CounterpartyRecord[]> {
  requirePermission(actor, "counterparties.read");
  if (!mayUseCompany(actor, companyId)) throw new BffError("permission_denied", "You may not see this company.");
  const rows = await db.select().from(counterparties).where(eq(counterparties.companyId, companyId));
  const changes = await db
    .select()
    .from(counterpartyHistory)
    .where(and(eq(counterpartyHistory.companyId, companyId), eq(counterpartyHistory.event, "bank_details_changed")))
    .orderBy(asc(counterpartyHistory.at));
  const byId = new Map<string, BankDetailsChange[]>();
  for (const ch of changes) {
    const list = byId.get(ch.counterpartyId) ?? [];
    list.push({ at: ch.at, oldIban: ch.oldIban, newIban: ch.newIban, byEmail: ch.byEmail, reason: ch.reason });
    byId.set(ch.counterpartyId, list);
  }
  return rows.map((r) => ({ id: r.id, name: r.name, iban: r.iban, status: r.status, changes: byId.get(r.id) ?? [] }));
}
