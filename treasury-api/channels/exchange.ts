/**
 * Pull and push over bank channels (docs/bank-channels.md "Pull" and "Push").
 *
 * Pull: list the connection's outbox, fetch each file one at a time (bounded by STATEMENT_MAX_FILE_BYTES),
 * and import it with the bank-file import (statements, MT940/MT942, BAI2, pain.002) in the transaction that
 * records it in `bank_connection_files` under its SHA-256: a file is imported once even when it is listed again,
 * renamed, or a process dies between import and clean-up (the next pull finds it recorded and only applies the
 * after-import convention). A file that fails import is recorded `failed` with its reason, left in place, and
 * does not stop the others.
 *
 * Push: `enqueueBatchPush` (called in the approval's transaction) writes one `bank_channel_outbox` row per batch
 * whose debtor account a connection serves; `pushDue` claims due rows (SKIP LOCKED + a lease), writes the
 * pain.001 named `TD<batch id without dashes>.xml` into the inbox unless that file is already there (a crash
 * after upload and before the mark), then marks the row sent.
 *
 * Several API processes on one database share the work: connections and outbox rows are claimed with
 * `FOR UPDATE SKIP LOCKED` and a lease, never by a leader.
 */
import { createHash } from "node:crypto";
import { and, asc, eq, inArray, isNotNull, isNull, lte, or, sql } from "drizzle-orm";
import { buildPain001 } from "@treasury/contract/pain001";
import { STATEMENT_MAX_FILE_BYTES } from "@treasury/contract/statements";
import type { BankPullResult } from "@treasury/contract/bank-connections";
import type { BankDelivery } from "@treasury/contract/payments";
import type { Db, DbOrTx } from "../db/client";
import {
  accounts,
  bankChannelOutbox,
  bankConnectionAccounts,
  bankConnectionFiles,
  bankConnections,
  companies,
  paymentBatches,
  paymentInstructions,
} from "../db/schema";
import { debtorAccountRow } from "../db/repos/payments";
import { importBankFiles } from "../import/bank-file-import";
import { statusReportSummary, toFileSummary } from "../routes/statements/statements.handlers";
import { failpoint } from "../lib/failpoints";
import { isoTimestamp } from "../lib/format";
import { apiMetrics } from "../lib/metrics";
import { openSecret } from "../lib/secret-box";
import { newId } from "../lib/secrets";
import { enqueueEvents } from "../webhooks/outbox";
import {
  openChannel,
  safeBankFileName,
  type ChannelSecret,
  type ChannelSession,
  type ChannelSettings,
  type OpenOptions,
} from "./transport";

export type ConnectionRow = typeof bankConnections.$inferSelect;

/** How long a claimed connection or outbox row stays with the process that claimed it. */
const LEASE_MS = 5 * 60_000;
/** Consecutive failures after which a `bank_connection.failed` event is written (once per run of failures). */
export const FAILURES_BEFORE_ALERT = 3;

export interface ExchangeOptions extends OpenOptions {
  /** Largest file accepted (bytes); default STATEMENT_MAX_FILE_BYTES. */
  maxBytes?: number;
  now?: () => Date;
  /** Test hook: the session used instead of opening the connection's channel. */
  session?: ChannelSession;
}

/** The payment file's name for a batch: the pain.001 message id (`TD` + the batch id without dashes) + `.xml`. */
export function pushFileName(batchId: string): string {
  return `TD${batchId.replace(/-/g, "")}.xml`;
}

/** The stored channel settings and decrypted credentials of a connection. */
export function channelOf(
  conn: ConnectionRow,
  key: Buffer,
): { settings: ChannelSettings; secret: ChannelSecret | null } {
  const settings = conn.settings as ChannelSettings;
  const secret = conn.secret ? (JSON.parse(openSecret(key, conn.secret)) as ChannelSecret) : null;
  return { settings, secret };
}

const sha256 = (data: Buffer | string) => createHash("sha256").update(data).digest("hex");

/** Records the end of a pull or push on the connection; the third failure in a row writes the webhook event. */
async function noteOutcome(db: Db, conn: ConnectionRow, kind: "pull" | "push", error: string | null, at: string) {
  await db.transaction(async (tx) => {
    if (error === null) {
      await tx
        .update(bankConnections)
        .set({
          consecutiveFailures: 0,
          lastError: null,
          ...(kind === "pull" ? { lastPullAt: at, lastPullOkAt: at } : { lastPushOkAt: at }),
        })
        .where(eq(bankConnections.id, conn.id));
      return;
    }
    const [row] = await tx
      .update(bankConnections)
      .set({
        consecutiveFailures: sql`${bankConnections.consecutiveFailures} + 1`,
        lastError: error.slice(0, 1000),
        ...(kind === "pull" ? { lastPullAt: at } : {}),
      })
      .where(eq(bankConnections.id, conn.id))
      .returning({ failures: bankConnections.consecutiveFailures });
    if (row?.failures === FAILURES_BEFORE_ALERT)
      await enqueueEvents(tx, [
        {
          tenantId: conn.tenantId,
          companyId: conn.companyId,
          type: "bank_connection.failed",
          data: {
            connection_id: conn.id,
            bank_name: conn.bankName,
            operation: kind,
            consecutive_failures: row.failures,
            error: error.slice(0, 1000),
            occurred_at: at,
          },
        },
      ]);
  });
}

/** Inserts a `failed` file row (once per content); true when it is new. */
async function recordFailed(db: DbOrTx, connId: string, name: string, size: number, hash: string, reason: string) {
  const rows = await db
    .insert(bankConnectionFiles)
    .values({
      id: newId(),
      connectionId: connId,
      direction: "in",
      fileName: name.slice(0, 300),
      size,
      sha256: hash,
      status: "failed",
      reason: reason.slice(0, 2000),
    })
    .onConflictDoNothing()
    .returning({ id: bankConnectionFiles.id });
  return rows.length > 0;
}

/** The bank's convention once a file is recorded: delete it, move it to the archive, or leave it. */
async function afterImport(session: ChannelSession, conn: ConnectionRow, name: string) {
  if (conn.afterImport === "delete") await session.deleteOutbox(name);
  else if (conn.afterImport === "archive" && conn.archiveDir) await session.archiveOutbox(name, conn.archiveDir);
}

/**
 * One pull of one connection: every file of its outbox, one at a time (see the module comment).
 * A transport failure (refused host key, timeout, dropped connection) ends the pull with `error` set; files
 * recorded before it stay recorded.
 */
export async function pullConnection(
  db: Db,
  conn: ConnectionRow,
  key: Buffer,
  opts: ExchangeOptions = {},
): Promise<BankPullResult> {
  const maxBytes = opts.maxBytes ?? STATEMENT_MAX_FILE_BYTES;
  const result: BankPullResult = { listed: 0, imported: 0, duplicates: 0, failed: 0, error: null };
  const at = () => (opts.now?.() ?? new Date()).toISOString();
  let session: ChannelSession | null = null;
  try {
    const { settings, secret } = channelOf(conn, key);
    session = opts.session ?? (await openChannel(settings, secret, opts));
    const listed = await session.listOutbox();
    result.listed = listed.length;
    for (const file of listed) {
      const name = safeBankFileName(file.name);
      if (name === null || file.size > maxBytes) {
        const reason = name === null ? "refused file name (not a bare file name)" : `larger than ${maxBytes} bytes`;
        if (
          await recordFailed(db, conn.id, file.name, file.size, sha256(`refused\0${file.name}\0${file.size}`), reason)
        ) {
          result.failed++;
          apiMetrics().bankFiles.inc({ direction: "in", result: "failed" });
        }
        continue;
      }
      let bytes: Buffer;
      try {
        bytes = await session.readOutbox(name, maxBytes);
      } catch (err) {
        if ((err as { kind?: string }).kind !== "too_large") throw err;
        if (await recordFailed(db, conn.id, name, file.size, sha256(`refused\0${name}\0${file.size}`), String(err))) {
          result.failed++;
          apiMetrics().bankFiles.inc({ direction: "in", result: "failed" });
        }
        continue;
      }
      const hash = sha256(bytes);
      const outcome = await importOnce(db, conn, name, bytes, hash);
      if (outcome.status === "imported") result.imported++;
      else if (outcome.status === "duplicate") result.duplicates++;
      else if (outcome.status === "failed") result.failed++;
      if (outcome.status !== "failed_before") apiMetrics().bankFiles.inc({ direction: "in", result: outcome.status });
      if (outcome.status !== "failed" && outcome.status !== "failed_before") await afterImport(session, conn, name);
    }
    await noteOutcome(db, conn, "pull", null, at());
    apiMetrics().bankPulls.inc({ outcome: "ok" });
  } catch (err) {
    result.error = err instanceof Error ? err.message : String(err);
    apiMetrics().bankPulls.inc({ outcome: "failed" });
    await noteOutcome(db, conn, "pull", result.error, at());
  } finally {
    if (session && !opts.session) await session.close();
  }
  return result;
}

/**
 * Imports one file unless its content was recorded before, in one transaction with its record.
 * @returns imported | duplicate (seen before, imported) | failed (import refused it now) | failed_before
 */
async function importOnce(
  db: Db,
  conn: ConnectionRow,
  name: string,
  bytes: Buffer,
  hash: string,
): Promise<{ status: "imported" | "duplicate" | "failed" | "failed_before" }> {
  const [seen] = await db
    .select({ status: bankConnectionFiles.status })
    .from(bankConnectionFiles)
    .where(
      and(
        eq(bankConnectionFiles.connectionId, conn.id),
        eq(bankConnectionFiles.direction, "in"),
        eq(bankConnectionFiles.sha256, hash),
      ),
    );
  if (seen) return { status: seen.status === "failed" ? "failed_before" : "duplicate" };
  try {
    return await db.transaction(async (tx) => {
      // The record first: a second process importing the same content waits here, then finds it and stops.
      const inserted = await tx
        .insert(bankConnectionFiles)
        .values({
          id: newId(),
          connectionId: conn.id,
          direction: "in",
          fileName: name,
          size: bytes.length,
          sha256: hash,
          status: "imported",
        })
        .onConflictDoNothing()
        .returning({ id: bankConnectionFiles.id });
      const row = inserted[0];
      if (!row) return { status: "duplicate" as const };
      const [result] = await importBankFiles(tx as unknown as Db, {
        companyId: conn.companyId,
        files: [{ name, content: new Uint8Array(bytes) }],
      });
      const summary = result
        ? result.kind === "pain.002"
          ? statusReportSummary(result.report)
          : toFileSummary(result.summary)
        : null;
      await tx.update(bankConnectionFiles).set({ result: summary }).where(eq(bankConnectionFiles.id, row.id));
      failpoint("channels.pull.before-commit");
      return { status: "imported" as const };
    });
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    return { status: (await recordFailed(db, conn.id, name, bytes.length, hash, reason)) ? "failed" : "duplicate" };
  }
}

/**
 * In the approval's transaction: when a connection serves the batch's debtor account, one outbox row for its
 * pain.001, due on the requested execution date (today when none). Nothing otherwise (the direct simulator).
 */
export async function enqueueBatchPush(
  tx: DbOrTx,
  batch: typeof paymentBatches.$inferSelect,
  today: string,
): Promise<boolean> {
  const debtor = await debtorAccountRow(tx, batch);
  if (!debtor) return false;
  const [link] = await tx
    .select({ connectionId: bankConnectionAccounts.connectionId })
    .from(bankConnectionAccounts)
    .innerJoin(bankConnections, eq(bankConnections.id, bankConnectionAccounts.connectionId))
    .where(and(eq(bankConnectionAccounts.accountId, debtor.id), eq(bankConnections.active, true)));
  if (!link) return false;
  await tx
    .insert(bankChannelOutbox)
    .values({
      batchId: batch.id,
      connectionId: link.connectionId,
      fileName: pushFileName(batch.id),
      dueDate:
        batch.requestedExecutionDate && batch.requestedExecutionDate > today ? batch.requestedExecutionDate : today,
    })
    .onConflictDoNothing();
  return true;
}

/** The pain.001 of a batch as pushed: the same builder as the dashboard's download. */
async function pain001For(db: DbOrTx, batchId: string): Promise<Buffer> {
  const [batch] = await db.select().from(paymentBatches).where(eq(paymentBatches.id, batchId));
  if (!batch) throw new Error(`batch ${batchId} is missing`);
  const debtor = await debtorAccountRow(db, batch);
  if (!debtor) throw new Error(`batch ${batchId} has no active debtor account in ${batch.currency}`);
  const [company] = await db.select({ name: companies.name }).from(companies).where(eq(companies.id, batch.companyId));
  const rows = await db
    .select()
    .from(paymentInstructions)
    .where(eq(paymentInstructions.batchId, batchId))
    .orderBy(asc(paymentInstructions.position));
  const built = buildPain001(
    {
      id: batch.id,
      currency: batch.currency,
      requested_execution_date: batch.requestedExecutionDate,
      created_at: batch.createdAt,
    },
    rows.map((r) => ({
      amount: r.amount,
      creditor_name: r.creditorName,
      creditor_iban: r.creditorIban,
      end_to_end_id: r.endToEndId,
      creditor_bic: r.creditorBic,
      remittance: r.remittanceType === "creditor_reference" ? null : r.remittanceText,
      creditor_reference: r.remittanceType === "creditor_reference" ? r.remittanceText : null,
    })),
    {
      name: company?.name ?? debtor.name,
      iban: debtor.externalRef.replace(/\s+/g, "").toUpperCase(),
      bic: /^[A-Z0-9]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(debtor.bankId) ? debtor.bankId : null,
    },
    { createdAt: new Date(batch.updatedAt) },
  );
  return Buffer.from(built.xml, "utf8");
}

export interface PushResult {
  sent: { batchId: string; fileName: string; uploaded: boolean }[];
  errors: { batchId: string; error: string }[];
}

/**
 * Claims the oldest due, unsent, unleased outbox row in one short transaction (`for update skip locked`): leases it
 * for LEASE_MS and counts the attempt. Null when none is due at `now`.
 */
async function claimNextFile(db: Db, now: Date): Promise<typeof bankChannelOutbox.$inferSelect | null> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(bankChannelOutbox)
      .where(
        and(
          isNull(bankChannelOutbox.sentAt),
          lte(bankChannelOutbox.dueDate, now.toISOString().slice(0, 10)),
          or(isNull(bankChannelOutbox.leaseUntil), lte(bankChannelOutbox.leaseUntil, now.toISOString())),
        ),
      )
      .orderBy(asc(bankChannelOutbox.dueDate), asc(bankChannelOutbox.createdAt))
      .limit(1)
      .for("update", { skipLocked: true });
    if (!row) return null;
    await tx
      .update(bankChannelOutbox)
      .set({
        leaseUntil: new Date(now.getTime() + LEASE_MS).toISOString(),
        attempts: sql`${bankChannelOutbox.attempts} + 1`,
      })
      .where(eq(bankChannelOutbox.batchId, row.batchId));
    return row;
  });
}

/**
 * Marks an uploaded file sent, in one transaction: the outbox row (`sent_at` = `at`, lease and error cleared) and
 * the connection's file log (`out`, size and SHA-256 of `data`; once per batch).
 */
async function markSent(
  db: Db,
  connectionId: string,
  claimed: typeof bankChannelOutbox.$inferSelect,
  data: Buffer,
  at: string,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .update(bankChannelOutbox)
      .set({ sentAt: at, leaseUntil: null, lastError: null })
      .where(eq(bankChannelOutbox.batchId, claimed.batchId));
    await tx
      .insert(bankConnectionFiles)
      .values({
        id: newId(),
        connectionId,
        direction: "out",
        fileName: claimed.fileName,
        size: data.length,
        sha256: sha256(data),
        status: "sent",
        batchId: claimed.batchId,
      })
      .onConflictDoNothing();
  });
}

/**
 * Records a failed push of a claimed file: its error (first 1000 characters) and a lease shortened to 30 s, so it
 * is retried after a short pause, not at once; the connection's outcome and the metric.
 */
async function notePushFailure(
  db: Db,
  conn: typeof bankConnections.$inferSelect,
  batchId: string,
  message: string,
): Promise<void> {
  await db
    .update(bankChannelOutbox)
    .set({ lastError: message.slice(0, 1000), leaseUntil: new Date(Date.now() + 30_000).toISOString() })
    .where(eq(bankChannelOutbox.batchId, batchId));
  await noteOutcome(db, conn, "push", message, new Date().toISOString());
  apiMetrics().bankPushes.inc({ outcome: "failed" });
}

/**
 * Pushes every due payment file (see the module comment), one claimed row at a time: claim (own commit), upload
 * unless the bank's inbox already has the file, mark sent (own commit). A failure is recorded per file and the
 * connection's session closed; the run goes on.
 * @param sessions test hook: the session to use per connection id
 */
export async function pushDue(
  db: Db,
  key: Buffer,
  opts: ExchangeOptions & { sessions?: Map<string, ChannelSession>; maxFiles?: number } = {},
): Promise<PushResult> {
  const out: PushResult = { sent: [], errors: [] };
  const open = new Map<string, ChannelSession>();
  const maxFiles = opts.maxFiles ?? 100;
  try {
    while (out.sent.length + out.errors.length < maxFiles) {
      const claimed = await claimNextFile(db, opts.now?.() ?? new Date());
      if (!claimed) break;
      const [conn] = await db.select().from(bankConnections).where(eq(bankConnections.id, claimed.connectionId));
      if (!conn) break;
      try {
        let session = opts.sessions?.get(conn.id) ?? open.get(conn.id);
        if (!session) {
          const { settings, secret } = channelOf(conn, key);
          session = await openChannel(settings, secret, opts);
          open.set(conn.id, session);
        }
        const data = await pain001For(db, claimed.batchId);
        // After a crash between upload and mark the file is already there: it is not sent a second time.
        const already = await session.inboxHas(claimed.fileName);
        if (!already) await session.writeInbox(claimed.fileName, data);
        failpoint("channels.push.after-upload");
        const at = new Date().toISOString();
        await markSent(db, conn.id, claimed, data, at);
        await noteOutcome(db, conn, "push", null, at);
        apiMetrics().bankPushes.inc({ outcome: "ok" });
        if (!already) apiMetrics().bankFiles.inc({ direction: "out", result: "sent" });
        out.sent.push({ batchId: claimed.batchId, fileName: claimed.fileName, uploaded: !already });
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        await notePushFailure(db, conn, claimed.batchId, message);
        out.errors.push({ batchId: claimed.batchId, error: message });
        const s = open.get(conn.id);
        open.delete(conn.id);
        await s?.close();
      }
    }
  } finally {
    for (const s of open.values()) await s.close();
  }
  return out;
}

/**
 * Claims the connections due for a scheduled pull (active, `next_pull_at` passed, no live lease) one at a time
 * and pulls each; the next pull is scheduled `pull_interval_seconds` later.
 */
export async function pullDue(db: Db, key: Buffer, opts: ExchangeOptions = {}): Promise<number> {
  let pulled = 0;
  for (;;) {
    const now = opts.now?.() ?? new Date();
    const conn = await db.transaction(async (tx) => {
      const [row] = await tx
        .select()
        .from(bankConnections)
        .where(
          and(
            eq(bankConnections.active, true),
            or(isNull(bankConnections.nextPullAt), lte(bankConnections.nextPullAt, now.toISOString())),
            or(isNull(bankConnections.leaseUntil), lte(bankConnections.leaseUntil, now.toISOString())),
          ),
        )
        .orderBy(sql`${bankConnections.nextPullAt} asc nulls first`, asc(bankConnections.id))
        .limit(1)
        .for("update", { skipLocked: true });
      if (!row) return null;
      await tx
        .update(bankConnections)
        .set({
          leaseUntil: new Date(now.getTime() + LEASE_MS).toISOString(),
          nextPullAt: new Date(now.getTime() + row.pullIntervalSeconds * 1000).toISOString(),
        })
        .where(eq(bankConnections.id, row.id));
      return row;
    });
    if (!conn) return pulled;
    try {
      await pullConnection(db, conn, key, opts);
    } finally {
      await db.update(bankConnections).set({ leaseUntil: null }).where(eq(bankConnections.id, conn.id));
    }
    pulled++;
  }
}

/** The account ids each connection serves. */
export async function accountIdsOf(db: DbOrTx, connectionIds: string[]): Promise<Map<string, string[]>> {
  const map = new Map<string, string[]>();
  if (connectionIds.length === 0) return map;
  const rows = await db
    .select({ connectionId: bankConnectionAccounts.connectionId, accountId: bankConnectionAccounts.accountId })
    .from(bankConnectionAccounts)
    .innerJoin(accounts, eq(accounts.id, bankConnectionAccounts.accountId))
    .where(inArray(bankConnectionAccounts.connectionId, connectionIds))
    .orderBy(asc(accounts.name));
  for (const r of rows) map.set(r.connectionId, [...(map.get(r.connectionId) ?? []), r.accountId]);
  return map;
}

/**
 * The payment file of a batch as delivered (docs/bank-channels.md "Push"): its name in the bank's inbox, when it
 * was sent (ISO 8601 with offset) and the connection's bank name; null while no file has been sent. The caller has
 * already checked that the batch is in the caller's scope.
 */
export async function bankDeliveryOf(db: DbOrTx, batchId: string): Promise<BankDelivery | null> {
  const [row] = await db
    .select({ fileName: bankChannelOutbox.fileName, sentAt: bankChannelOutbox.sentAt, bank: bankConnections.bankName })
    .from(bankChannelOutbox)
    .innerJoin(bankConnections, eq(bankConnections.id, bankChannelOutbox.connectionId))
    .where(and(eq(bankChannelOutbox.batchId, batchId), isNotNull(bankChannelOutbox.sentAt)));
  if (!row?.sentAt) return null;
  return { file_name: row.fileName, sent_at: isoTimestamp(row.sentAt), connection_name: row.bank };
}
