/**
 * Payment repositories (docs/treasury-api.md#payments; docs/architecture.md#states-and-transitions, #extensions):
 * functions `(db, scope, params)` with the data scope in every `where`, and
 * the row → API converters the bank simulator and approvals share.
 */
import { chunk as chunked } from "es-toolkit";
import { and, asc, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { ExactDecimal } from "@treasury/contract/exact-decimal";
import type {
  BatchStatus,
  DebtorAccount,
  InstructionStatus,
  PaymentBatch,
  PaymentBatchCreate,
  PaymentBatchUpdate,
  PaymentInstruction,
  PaymentInstructionCreate,
  PaymentStatusEvent,
  RemittanceInformation,
} from "@treasury/contract/payments";
import { remittanceText } from "@treasury/contract/payments";
import { executionDateProblem } from "@treasury/contract/business-date";
import type { PgInsertValue } from "drizzle-orm/pg-core";
import type { Db, DbOrTx } from "../client";
import {
  accounts,
  approvalRequests,
  companies,
  oauthClients,
  paymentBatches,
  paymentInstructions,
  paymentStatusEvents,
} from "../schema";
import { requiredApprovals, type FourEyesThresholds } from "../../domain/four-eyes";
import { BATCH_MACHINE, transition } from "../../domain/payment-states";
import { fieldError, notFound, stateConflict } from "../../lib/errors";
import { formatAmount, isoTimestamp } from "../../lib/format";
import { scopeWhere, type DataScope } from "../../lib/scope";
import { newId } from "../../lib/secrets";
import { enqueueRowEvents } from "../../webhooks/outbox";
import { mappedPage, withinUtcDays, type Page } from "./paging";

export type BatchRow = typeof paymentBatches.$inferSelect;
export type InstructionRow = typeof paymentInstructions.$inferSelect;
export type StatusEventRow = typeof paymentStatusEvents.$inferSelect;

export function toBatch(r: BatchRow): PaymentBatch {
  return {
    id: r.id,
    company_id: r.companyId,
    currency: r.currency,
    status: r.status as BatchStatus,
    total_amount: formatAmount(r.totalAmount, r.currency),
    created_at: isoTimestamp(r.createdAt),
    instruction_count: r.instructionCount,
    requested_execution_date: r.requestedExecutionDate,
    initiator: r.initiator,
    reference: r.reference,
    debtor_account_id: r.debtorAccountId,
  };
}

/** The stored remittance columns as the API shape; null when the instruction carries none. */
export function remittanceOf(
  r: Pick<InstructionRow, "remittanceType" | "remittanceText">,
): RemittanceInformation | null {
  if (!r.remittanceText) return null;
  return r.remittanceType === "creditor_reference"
    ? { type: "creditor_reference", reference: r.remittanceText }
    : { type: "unstructured", text: r.remittanceText };
}

export function toInstruction(r: InstructionRow): PaymentInstruction {
  return {
    id: r.id,
    amount: formatAmount(r.amount, r.currency),
    currency: r.currency,
    creditor_name: r.creditorName,
    creditor_iban: r.creditorIban,
    end_to_end_id: r.endToEndId,
    batch_id: r.batchId,
    status: r.status as InstructionStatus,
    creditor_bic: r.creditorBic,
    remittance_information: remittanceOf(r),
  };
}

export function toStatusEvent(r: StatusEventRow): PaymentStatusEvent {
  return {
    id: r.id,
    instruction_id: r.instructionId,
    status: r.status as InstructionStatus,
    occurred_at: isoTimestamp(r.occurredAt),
    batch_id: r.batchId,
    reason: r.reason,
    // Extension: only where the bank gave a reason text (a pain.002 rejection); absent otherwise.
    ...(r.reasonText ? { reason_text: r.reasonText } : {}),
  };
}

// ------------------------------------------------------------ batches

/** Batches in scope, newest first; filters: status, created_at UTC date range. */
export async function listBatches(
  db: Db,
  scope: DataScope,
  f: { status?: BatchStatus; fromDate?: string; toDate?: string },
  page: Page,
  withCount: boolean,
) {
  const conds: SQL[] = scopeWhere(scope, paymentBatches.tenantId, paymentBatches.companyId);
  if (f.status) conds.push(eq(paymentBatches.status, f.status));
  conds.push(...withinUtcDays(paymentBatches.createdAt, f.fromDate, f.toDate));
  return mappedPage(
    db,
    paymentBatches,
    conds,
    [desc(paymentBatches.createdAt), desc(paymentBatches.id)],
    page,
    withCount,
    toBatch,
  );
}

/** The batch row if it is in scope, else 404. */
export async function getBatchRow(db: DbOrTx, scope: DataScope, id: string): Promise<BatchRow> {
  const [row] = await db
    .select()
    .from(paymentBatches)
    .where(and(eq(paymentBatches.id, id), ...scopeWhere(scope, paymentBatches.tenantId, paymentBatches.companyId)));
  if (!row) throw notFound("Payment batch");
  return row;
}

/**
 * The account a batch is paid from: the account chosen at creation
 * (`debtor_account_id`) while it is still an active account of the company in
 * the batch currency; else the company's first active account in the batch
 * currency, ordered by name then id. The bank simulator debits it and the
 * debtor-account extension names it, so both follow this one rule.
 */
export async function debtorAccountRow(
  db: DbOrTx,
  batch: Pick<BatchRow, "tenantId" | "companyId" | "currency"> & { debtorAccountId?: string | null },
) {
  const base = [
    eq(accounts.tenantId, batch.tenantId),
    eq(accounts.companyId, batch.companyId),
    eq(accounts.currency, batch.currency),
    eq(accounts.status, "active"),
  ];
  if (batch.debtorAccountId) {
    const [chosen] = await db
      .select()
      .from(accounts)
      .where(and(eq(accounts.id, batch.debtorAccountId), ...base));
    if (chosen) return chosen;
  }
  const [account] = await db
    .select()
    .from(accounts)
    .where(and(...base))
    .orderBy(asc(accounts.name), asc(accounts.id))
    .limit(1);
  return account;
}

/**
 * Checks a chosen debtor account: it must be an account of the batch's company
 * (same tenant) that is active and in the batch currency.
 * @throws 400 naming `debtor_account_id` otherwise (an account outside the scope reads as unknown).
 */
async function checkDebtorAccount(
  db: DbOrTx,
  scope: DataScope,
  batch: { companyId: string; currency: string },
  accountId: string,
): Promise<void> {
  const [a] = await db
    .select()
    .from(accounts)
    .where(and(eq(accounts.id, accountId), ...scopeWhere(scope, accounts.tenantId, accounts.companyId)));
  if (!a || a.companyId !== batch.companyId)
    throw fieldError("debtor_account_id", "is not an account of the batch's company");
  if (a.status !== "active") throw fieldError("debtor_account_id", `is not active (status ${a.status})`);
  if (a.currency !== batch.currency)
    throw fieldError("debtor_account_id", `is a ${a.currency} account; the batch currency is ${batch.currency}`);
}

const BIC = /^[A-Z0-9]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/;

/** GET /payments/batches/{id}/debtor-account: 404 when the company has no active account in the batch currency. */
export async function getDebtorAccount(db: DbOrTx, scope: DataScope, batchId: string): Promise<DebtorAccount> {
  const batch = await getBatchRow(db, scope, batchId);
  const account = await debtorAccountRow(db, batch);
  if (!account) throw notFound(`Active ${batch.currency} account of the company`);
  const [company] = await db.select({ name: companies.name }).from(companies).where(eq(companies.id, batch.companyId));
  return {
    account_id: account.id,
    name: account.name,
    iban: account.externalRef.replace(/\s+/g, "").toUpperCase(),
    bic: BIC.test(account.bankId) ? account.bankId : null,
    bank_name: account.bankName,
    currency: account.currency,
    company_name: company?.name ?? account.name,
  };
}

/**
 * Why `date` cannot be the execution date of a batch of company `companyId` at the instant `now`: before today in the
 * company's time zone (its country's zone; UTC for a country without a known one). Null when it can, when no date
 * is given (or null, cleared), and when the company is not in `scope` (another rule refuses such a body).
 */
export async function executionDateProblemFor(
  db: DbOrTx,
  scope: DataScope,
  companyId: string,
  date: string | null | undefined,
  now: Date,
): Promise<string | null> {
  if (!date) return null;
  const [company] = await db
    .select({ country: companies.country })
    .from(companies)
    .where(and(eq(companies.id, companyId), ...scopeWhere(scope, companies.tenantId, companies.id)));
  return company ? executionDateProblem(date, company.country, now) : null;
}

/** Refuses a past execution date (`executionDateProblemFor`). @throws 400 naming `requested_execution_date`. */
async function checkExecutionDate(
  db: DbOrTx,
  scope: DataScope,
  companyId: string,
  date: string | null | undefined,
  now: Date,
): Promise<void> {
  const problem = await executionDateProblemFor(db, scope, companyId, date, now);
  if (problem) throw fieldError("requested_execution_date", problem);
}

/** Rows per multi-row INSERT of status changes: 14 parameters each stays far below PostgreSQL's 65,535. */
const INSERT_CHUNK = 1000;

/** Instructions per INSERT of `insertInstructions` (one JSON parameter each, about 200 bytes a row). */
const INSTRUCTION_CHUNK = 5000;

/**
 * Creates a batch in status `created` with its instructions (positions 0..n-1,
 * status `pending`) in one transaction: a failure creates nothing.
 * `total_amount` is the exact decimal sum. The body was validated by the
 * contract; the caller checked `company_id` against the scope. `initiator`
 * (four-eyes) is `body.initiator`, else the creating client's public client_id.
 * @param clientId the creating OAuth client (internal uuid), kept for the audit trail
 * @param now the clock of the execution-date rule (not before today in the company's time zone)
 * @throws 400 naming `requested_execution_date` for a past date, `debtor_account_id` for a bad account.
 */
export async function createBatch(
  db: Db,
  scope: DataScope,
  clientId: string,
  body: PaymentBatchCreate,
  now: Date = new Date(),
): Promise<PaymentBatch> {
  await checkExecutionDate(db, scope, body.company_id, body.requested_execution_date, now);
  // ExactDecimal: decimal.js's default 20 significant digits would round a sum of large amounts.
  const total = body.instructions.reduce((sum, i) => sum.plus(i.amount), new ExactDecimal(0));
  const createdAt = new Date().toISOString();
  const batchId = newId();
  const batch: PgInsertValue<typeof paymentBatches> = {
    id: batchId,
    tenantId: scope.tenantId,
    companyId: body.company_id,
    createdByClientId: clientId,
    initiator:
      body.initiator ??
      sql`coalesce((select ${oauthClients.clientId} from ${oauthClients} where ${oauthClients.id} = ${clientId}),
        ${clientId})`,
    currency: body.currency,
    status: "created",
    totalAmount: total.toFixed(),
    instructionCount: body.instructions.length,
    requestedExecutionDate: body.requested_execution_date ?? null,
    reference: body.reference ?? null,
    debtorAccountId: body.debtor_account_id ?? null,
    createdAt,
    updatedAt: createdAt,
  };
  if (body.debtor_account_id)
    await checkDebtorAccount(
      db,
      scope,
      { companyId: body.company_id, currency: body.currency },
      body.debtor_account_id,
    );
  const instructions = instructionRows(body.instructions, {
    batchId,
    tenantId: scope.tenantId,
    companyId: body.company_id,
    now: createdAt,
  });
  const [row] = await db.transaction(async (tx) => {
    const inserted = await tx.insert(paymentBatches).values(batch).returning();
    await insertInstructions(tx, instructions);
    return inserted;
  });
  if (!row) throw new Error("insert returned no batch row");
  return toBatch(row);
}

/** The instructions of one batch as `insertInstructions` writes them (status `pending`). */
interface NewInstructions {
  batchId: string;
  tenantId: string;
  companyId: string;
  /** ISO 8601 timestamp: created_at and updated_at of every row. */
  now: string;
  /** One entry per instruction, in position order (position = index). */
  rows: {
    id: string;
    amount: string;
    currency: string;
    creditor_name: string;
    creditor_iban: string;
    end_to_end_id: string;
    creditor_bic: string | null;
    remittance_type: string | null;
    remittance_text: string | null;
  }[];
}

/** Instruction rows (positions 0..n-1, status `pending`) of a create or edit body. */
function instructionRows(
  list: readonly PaymentInstructionCreate[],
  at: { batchId: string; tenantId: string; companyId: string; now: string },
): NewInstructions {
  return {
    ...at,
    rows: list.map((ins) => ({
      id: newId(),
      amount: ins.amount,
      currency: ins.currency,
      creditor_name: ins.creditor_name,
      creditor_iban: ins.creditor_iban,
      end_to_end_id: ins.end_to_end_id,
      creditor_bic: ins.creditor_bic ?? null,
      remittance_type: ins.remittance_information?.type ?? null,
      remittance_text: ins.remittance_information ? remittanceText(ins.remittance_information) : null,
    })),
  };
}

/**
 * Writes a batch's instructions with one multi-row INSERT per `INSTRUCTION_CHUNK` rows: the rows travel as one JSON
 * parameter read by `json_array_elements … WITH ORDINALITY` (position = index in `rows`), so a 1,000-instruction
 * batch is one statement with five parameters instead of 16,000 bound values (docs/treasury-api.md#payments).
 * The unique index (batch_id, end_to_end_id) backs the contract's duplicate check; amounts stay exact
 * (decimal text into `numeric`).
 */
async function insertInstructions(tx: DbOrTx, batch: NewInstructions): Promise<void> {
  for (const [i, part] of chunked(batch.rows, INSTRUCTION_CHUNK).entries()) {
    const offset = i * INSTRUCTION_CHUNK;
    await tx.execute(sql`
      INSERT INTO payment_instructions (id, batch_id, tenant_id, company_id, position, amount, currency, creditor_name,
        creditor_iban, end_to_end_id, creditor_bic, remittance_type, remittance_text, status, created_at, updated_at)
      SELECT (r->>'id')::uuid, ${batch.batchId}::uuid, ${batch.tenantId}::uuid, ${batch.companyId}::uuid,
        ${offset}::int + (n - 1)::int, (r->>'amount')::numeric, r->>'currency', r->>'creditor_name',
        r->>'creditor_iban', r->>'end_to_end_id', r->>'creditor_bic', r->>'remittance_type', r->>'remittance_text',
        'pending', ${batch.now}::timestamptz, ${batch.now}::timestamptz
      FROM json_array_elements(${JSON.stringify(part)}::json) WITH ORDINALITY AS x(r, n)`);
  }
}

/** The batch row in scope, locked for update, while it is `created`. @throws 404; 409 `{ state, allowed }`. */
async function lockCreated(tx: DbOrTx, scope: DataScope, id: string, operation: string): Promise<BatchRow> {
  const [row] = await tx
    .select()
    .from(paymentBatches)
    .where(and(eq(paymentBatches.id, id), ...scopeWhere(scope, paymentBatches.tenantId, paymentBatches.companyId)))
    .for("update");
  if (!row) throw notFound("Payment batch");
  if (row.status !== "created") throw stateConflict("payment batch", row.status, ["created"], operation);
  return row;
}

/**
 * PATCH /payments/batches/{id} (extension): renames, moves, repoints or
 * replaces the instructions of a batch in status `created`, in one
 * transaction with the row locked; total and count follow the instructions.
 * @param clock the clock of the execution-date rule (not before today in the company's time zone)
 * @throws 404 outside the scope; 409 when not `created`; 400 naming the field
 *   for an instruction currency other than the batch's, a bad debtor account
 *   or an execution date before the company's today.
 */
export async function updateBatch(
  db: Db,
  scope: DataScope,
  id: string,
  body: PaymentBatchUpdate,
  clock: Date = new Date(),
) {
  return db.transaction(async (tx) => {
    const row = await lockCreated(tx, scope, id, "edit");
    await checkExecutionDate(tx, scope, row.companyId, body.requested_execution_date, clock);
    if (body.debtor_account_id) await checkDebtorAccount(tx, scope, row, body.debtor_account_id);
    const now = new Date().toISOString();
    const set: Partial<typeof paymentBatches.$inferInsert> = { updatedAt: now };
    if (body.reference !== undefined) set.reference = body.reference;
    if (body.requested_execution_date !== undefined) set.requestedExecutionDate = body.requested_execution_date;
    if (body.debtor_account_id !== undefined) set.debtorAccountId = body.debtor_account_id;
    if (body.instructions) {
      body.instructions.forEach((ins, i) => {
        if (ins.currency !== row.currency)
          throw fieldError(`instructions[${i}].currency`, `must equal the batch currency ${row.currency}`);
      });
      const total = body.instructions.reduce((sum, i) => sum.plus(i.amount), new ExactDecimal(0));
      set.totalAmount = total.toFixed();
      set.instructionCount = body.instructions.length;
      await tx.delete(paymentInstructions).where(eq(paymentInstructions.batchId, id));
      const rows = instructionRows(body.instructions, {
        batchId: id,
        tenantId: row.tenantId,
        companyId: row.companyId,
        now,
      });
      await insertInstructions(tx, rows);
    }
    const [updated] = await tx.update(paymentBatches).set(set).where(eq(paymentBatches.id, id)).returning();
    return toBatch(updated ?? row);
  });
}

/**
 * DELETE /payments/batches/{id} (extension): discards a batch in status
 * `created` with its instructions. Nothing else refers to such a batch (no
 * approval request, status event or booking exists before submission).
 * @throws 404 outside the scope (also when already discarded); 409 when not `created`.
 */
export async function discardBatch(db: Db, scope: DataScope, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    await lockCreated(tx, scope, id, "discard");
    await tx.delete(paymentInstructions).where(eq(paymentInstructions.batchId, id));
    await tx.delete(paymentBatches).where(eq(paymentBatches.id, id));
  });
}

/**
 * Submits a batch (docs/architecture.md#states-and-transitions: created → pending_approval) and opens its
 * approval request with `required_count` from the four-eyes threshold, in one
 * transaction with the batch row locked.
 * @throws 404 outside the scope; 409 conflict `{ state, allowed }` when not `created`.
 */
export async function submitBatch(
  db: Db,
  scope: DataScope,
  id: string,
  fourEyesThresholds: FourEyesThresholds,
): Promise<PaymentBatch> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(paymentBatches)
      .where(and(eq(paymentBatches.id, id), ...scopeWhere(scope, paymentBatches.tenantId, paymentBatches.companyId)))
      .for("update");
    if (!row) throw notFound("Payment batch");
    const status = transition(BATCH_MACHINE, row.status, "submit");
    const now = new Date().toISOString();
    const [updated] = await tx
      .update(paymentBatches)
      .set({ status, submittedAt: now, updatedAt: now })
      .where(eq(paymentBatches.id, id))
      .returning();
    await tx.insert(approvalRequests).values({
      id: newId(),
      tenantId: row.tenantId,
      companyId: row.companyId,
      objectType: "payment_batch",
      objectId: row.id,
      state: "pending",
      requiredCount: requiredApprovals(row.totalAmount, row.currency, fourEyesThresholds),
      approvedCount: 0,
      createdAt: now,
      updatedAt: now,
    });
    return toBatch(updated ?? row);
  });
}

// ------------------------------------------------------------ instructions

/**
 * The instructions of a batch in scope in batch order, optionally by status; another company's batch id yields
 * nothing.
 */
export async function listBatchInstructions(
  db: Db,
  scope: DataScope,
  batchId: string,
  f: { status?: InstructionStatus },
  page: Page,
  withCount: boolean,
) {
  const conds: SQL[] = [
    ...scopeWhere(scope, paymentInstructions.tenantId, paymentInstructions.companyId),
    eq(paymentInstructions.batchId, batchId),
  ];
  if (f.status) conds.push(eq(paymentInstructions.status, f.status));
  return mappedPage(
    db,
    paymentInstructions,
    conds,
    [asc(paymentInstructions.position)],
    page,
    withCount,
    toInstruction,
  );
}

export async function getInstruction(db: Db, scope: DataScope, id: string): Promise<PaymentInstruction> {
  const [row] = await db
    .select()
    .from(paymentInstructions)
    .where(
      and(
        eq(paymentInstructions.id, id),
        ...scopeWhere(scope, paymentInstructions.tenantId, paymentInstructions.companyId),
      ),
    );
  if (!row) throw notFound("Payment instruction");
  const [batch] = await db
    .select({ reference: paymentBatches.reference })
    .from(paymentBatches)
    .where(eq(paymentBatches.id, row.batchId));
  return { ...toInstruction(row), batch_reference: batch?.reference ?? null };
}

/**
 * Payment instructions by id in scope (extension `GET /payments/instructions`), in the order of `ids`, each with its
 * batch's `batch_reference`; ids that do not exist or lie outside the scope are left out.
 */
export async function lookupInstructions(
  db: Db,
  scope: DataScope,
  ids: readonly string[],
): Promise<PaymentInstruction[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select()
    .from(paymentInstructions)
    .where(
      and(
        inArray(paymentInstructions.id, [...ids]),
        ...scopeWhere(scope, paymentInstructions.tenantId, paymentInstructions.companyId),
      ),
    );
  // Each with its batch's reference, so a reader can name the batch without reading it (one more query, not one per row).
  const batchIds = [...new Set(rows.map((r) => r.batchId))];
  const refs = new Map(
    batchIds.length === 0
      ? []
      : (
          await db
            .select({ id: paymentBatches.id, reference: paymentBatches.reference })
            .from(paymentBatches)
            .where(inArray(paymentBatches.id, batchIds))
        ).map((b) => [b.id, b.reference]),
  );
  const byId = new Map(rows.map((r) => [r.id, { ...toInstruction(r), batch_reference: refs.get(r.batchId) ?? null }]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

// ------------------------------------------------------------ status events

export interface StatusEventFilter {
  status?: InstructionStatus;
  fromDate?: string;
  toDate?: string;
  batchId?: string;
  instructionId?: string;
}

/** Status events in scope, oldest first (occurred_at, id), so following `next` never skips one. */
export async function listStatusEvents(db: Db, scope: DataScope, f: StatusEventFilter, page: Page, withCount: boolean) {
  const conds: SQL[] = scopeWhere(scope, paymentStatusEvents.tenantId, paymentStatusEvents.companyId);
  if (f.status) conds.push(eq(paymentStatusEvents.status, f.status));
  conds.push(...withinUtcDays(paymentStatusEvents.occurredAt, f.fromDate, f.toDate));
  if (f.batchId) conds.push(eq(paymentStatusEvents.batchId, f.batchId));
  if (f.instructionId) conds.push(eq(paymentStatusEvents.instructionId, f.instructionId));
  return mappedPage(
    db,
    paymentStatusEvents,
    conds,
    [asc(paymentStatusEvents.occurredAt), asc(paymentStatusEvents.id)],
    page,
    withCount,
    toStatusEvent,
  );
}

// ------------------------------------------------------------ status changes (shared by approvals and the bank)

export interface StatusChange {
  instruction: InstructionRow;
  status: InstructionStatus;
  /** ISO 20022 reason code on rejection (e.g. AC04), else null. */
  reason?: string | null;
  /** The reason's text (code name and the bank's words), e.g. "Closed account number". */
  reasonText?: string | null;
  /** The booked transaction of a settled instruction. */
  transactionId?: string | null;
}

/**
 * Applies instruction status changes inside `tx`: updates the instructions,
 * writes one status event per change and one `payment.status.updated` outbox
 * event (data: the PaymentStatusEvent) per status event — all in the caller's
 * transaction, so a rollback loses or repeats nothing. The unique index
 * (instruction_id, status) makes a repeated change write no second event.
 * The caller has checked each change against the instruction state machine.
 * @param occurredAt ISO timestamp of the change
 * @returns the status events written
 */
export async function applyStatusChanges(
  tx: DbOrTx,
  changes: StatusChange[],
  occurredAt: string,
): Promise<PaymentStatusEvent[]> {
  const events: PaymentStatusEvent[] = [];
  for (const chunk of chunked(changes, INSERT_CHUNK)) {
    const values = sql.join(
      chunk.map((c) => sql`(${c.instruction.id}, ${c.status}, ${c.transactionId ?? null})`),
      sql`, `,
    );
    await tx.execute(sql`
      update payment_instructions as p
         set status = v.status, transaction_id = coalesce(v.tx::uuid, p.transaction_id), updated_at = ${occurredAt}
        from (values ${values}) as v(id, status, tx)
       where p.id = v.id::uuid`);
    const inserted = await tx
      .insert(paymentStatusEvents)
      .values(
        chunk.map((c) => ({
          id: newId(),
          tenantId: c.instruction.tenantId,
          companyId: c.instruction.companyId,
          batchId: c.instruction.batchId,
          instructionId: c.instruction.id,
          status: c.status,
          reason: c.reason ?? null,
          reasonText: c.reasonText ?? null,
          occurredAt,
        })),
      )
      .onConflictDoNothing()
      .returning();
    events.push(...inserted.map(toStatusEvent));
    await enqueueRowEvents(tx, "payment.status.updated", inserted, toStatusEvent);
  }
  return events;
}
