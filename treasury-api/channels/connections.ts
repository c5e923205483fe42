/**
 * Bank connections repository (docs/bank-channels.md "Connections"): create, read, update and delete a
 * company's connections; credentials sealed with lib/secret-box.ts (like webhook secrets) and never returned;
 * each change of channel, credentials, fingerprint or accounts audited in `bank_connection_audit` (which
 * fields, who, when — never values).
 */
import { and, asc, eq, gte, inArray, sql } from "drizzle-orm";
import type {
  BankConnection,
  BankConnectionCreate,
  BankConnectionFile,
  BankConnectionPatch,
} from "@treasury/contract/bank-connections";
import type { Db, DbOrTx } from "../db/client";
import {
  accounts,
  bankChannelOutbox,
  bankConnectionAccounts,
  bankConnectionAudit,
  bankConnectionFiles,
  bankConnections,
} from "../db/schema";
import { ApiError, fieldError, notFound } from "../lib/errors";
import { isoTimestamp } from "../lib/format";
import { sealSecret } from "../lib/secret-box";
import { newId } from "../lib/secrets";
import { accountIdsOf, type ConnectionRow } from "./exchange";
import { normaliseFingerprint, type ChannelSettings } from "./transport";

/** Whose connections: one company of one tenant. */
export interface ConnectionOwner {
  tenantId: string;
  companyId: string;
}

type Channel = BankConnectionCreate["channel"];

/** The stored (settings, sealed secret) of a channel as given. */
function storeChannel(ch: Channel, key: Buffer): { settings: ChannelSettings; secret: string | null } {
  if (ch.channel === "folder")
    return { settings: { channel: "folder", inbox_dir: ch.inbox_dir, outbox_dir: ch.outbox_dir }, secret: null };
  const fingerprint = normaliseFingerprint(ch.host_key_fingerprint);
  if (fingerprint === null) throw fieldError("channel.host_key_fingerprint", "is not a SHA-256 fingerprint");
  const secret = { password: ch.password, private_key: ch.private_key, passphrase: ch.passphrase };
  return {
    settings: {
      channel: "sftp",
      host: ch.host,
      port: ch.port,
      username: ch.username,
      host_key_fingerprint: fingerprint,
      inbox: ch.inbox,
      outbox: ch.outbox,
      auth: ch.private_key !== undefined ? "private_key" : "password",
    },
    secret: sealSecret(key, JSON.stringify(secret)),
  };
}

/** The fields of a channel that changed (values never leave this function). */
function channelChanges(before: ChannelSettings | null, hadSecret: boolean, ch: Channel): string[] {
  const after = ch as Record<string, unknown>;
  const prev = (before ?? {}) as Record<string, unknown>;
  const fields = ["channel", "inbox_dir", "outbox_dir", "host", "port", "username", "inbox", "outbox"].filter(
    (f) => after[f] !== undefined && after[f] !== prev[f],
  );
  if (ch.channel === "sftp" && normaliseFingerprint(ch.host_key_fingerprint) !== prev.host_key_fingerprint)
    fields.push("host_key_fingerprint");
  if (ch.channel === "sftp") fields.push("credentials");
  else if (hadSecret) fields.push("credentials");
  return fields;
}

async function audit(
  tx: DbOrTx,
  conn: { id: string; tenantId: string },
  actor: string,
  action: string,
  fields: string[],
) {
  if (fields.length === 0) return;
  await tx
    .insert(bankConnectionAudit)
    .values({ id: newId(), connectionId: conn.id, tenantId: conn.tenantId, actor, action, fields });
}

/** Checks that every account is the company's and served by no other connection. @throws 400 account_ids */
async function linkAccounts(tx: DbOrTx, owner: ConnectionOwner, connectionId: string, ids: string[]) {
  const unique = [...new Set(ids)];
  if (unique.length === 0) {
    await tx.delete(bankConnectionAccounts).where(eq(bankConnectionAccounts.connectionId, connectionId));
    return;
  }
  const found = await tx
    .select({ id: accounts.id })
    .from(accounts)
    .where(
      and(inArray(accounts.id, unique), eq(accounts.tenantId, owner.tenantId), eq(accounts.companyId, owner.companyId)),
    );
  const known = new Set(found.map((a) => a.id));
  const missing = unique.filter((id) => !known.has(id));
  if (missing.length > 0)
    throw fieldError("account_ids", `names accounts that are not this company's: ${missing.join(", ")}`);
  const taken = await tx
    .select({ accountId: bankConnectionAccounts.accountId })
    .from(bankConnectionAccounts)
    .where(
      and(
        inArray(bankConnectionAccounts.accountId, unique),
        sql`${bankConnectionAccounts.connectionId} <> ${connectionId}`,
      ),
    );
  if (taken.length > 0)
    throw fieldError(
      "account_ids",
      `names accounts another connection serves already: ${taken.map((t) => t.accountId).join(", ")}`,
    );
  await tx.delete(bankConnectionAccounts).where(eq(bankConnectionAccounts.connectionId, connectionId));
  await tx.insert(bankConnectionAccounts).values(unique.map((accountId) => ({ accountId, connectionId })));
}

/** A connection row as the API shows it: settings without secrets, health figures of today (UTC). */
export async function toConnection(db: DbOrTx, row: ConnectionRow): Promise<BankConnection> {
  const ids = (await accountIdsOf(db, [row.id])).get(row.id) ?? [];
  const today = `${new Date().toISOString().slice(0, 10)}T00:00:00Z`;
  const [counts] = await db
    .select({
      filesIn: sql<number>`count(*) filter (where ${bankConnectionFiles.direction} = 'in' and ${bankConnectionFiles.status} = 'imported')::int`,
      filesOut: sql<number>`count(*) filter (where ${bankConnectionFiles.direction} = 'out')::int`,
      failed: sql<number>`count(*) filter (where ${bankConnectionFiles.status} = 'failed')::int`,
    })
    .from(bankConnectionFiles)
    .where(and(eq(bankConnectionFiles.connectionId, row.id), gte(bankConnectionFiles.createdAt, today)));
  const s = row.settings as ChannelSettings;
  const ts = (v: string | null) => (v === null ? null : isoTimestamp(v));
  return {
    id: row.id,
    company_id: row.companyId,
    bank_name: row.bankName,
    account_ids: ids,
    channel:
      s.channel === "folder"
        ? { channel: "folder", inbox_dir: s.inbox_dir, outbox_dir: s.outbox_dir }
        : {
            channel: "sftp",
            host: s.host,
            port: s.port,
            username: s.username,
            host_key_fingerprint: s.host_key_fingerprint,
            inbox: s.inbox,
            outbox: s.outbox,
            has_password: row.secret !== null && s.auth !== "private_key",
            has_private_key: row.secret !== null && s.auth === "private_key",
          },
    after_import: row.afterImport as BankConnection["after_import"],
    archive_dir: row.archiveDir,
    pull_interval_seconds: row.pullIntervalSeconds,
    active: row.active,
    health: {
      last_pull_at: ts(row.lastPullAt),
      last_pull_ok_at: ts(row.lastPullOkAt),
      last_push_ok_at: ts(row.lastPushOkAt),
      consecutive_failures: row.consecutiveFailures,
      last_error: row.lastError,
      files_in_today: Number(counts?.filesIn ?? 0),
      files_out_today: Number(counts?.filesOut ?? 0),
      failed_files_today: Number(counts?.failed ?? 0),
    },
    created_at: isoTimestamp(row.createdAt),
  };
}

/** The row of one of the owner's connections. @throws 404 */
export async function getConnectionRow(db: DbOrTx, owner: ConnectionOwner, id: string): Promise<ConnectionRow> {
  const [row] = await db
    .select()
    .from(bankConnections)
    .where(
      and(
        eq(bankConnections.id, id),
        eq(bankConnections.tenantId, owner.tenantId),
        eq(bankConnections.companyId, owner.companyId),
      ),
    );
  if (!row) throw notFound("Bank connection");
  return row;
}

/** The owner's connections, oldest first. */
export async function listConnections(db: Db, owner: ConnectionOwner): Promise<BankConnection[]> {
  const rows = await db
    .select()
    .from(bankConnections)
    .where(and(eq(bankConnections.tenantId, owner.tenantId), eq(bankConnections.companyId, owner.companyId)))
    .orderBy(asc(bankConnections.createdAt), asc(bankConnections.id));
  return Promise.all(rows.map((r) => toConnection(db, r)));
}

/** Creates a connection (audited: "created" with the credential fields). @throws 400 naming the field */
export async function createConnection(
  db: Db,
  owner: ConnectionOwner,
  body: BankConnectionCreate,
  key: Buffer,
  actor: string,
): Promise<BankConnection> {
  const { settings, secret } = storeChannel(body.channel, key);
  return db.transaction(async (tx) => {
    const id = newId();
    const [row] = await tx
      .insert(bankConnections)
      .values({
        id,
        tenantId: owner.tenantId,
        companyId: owner.companyId,
        bankName: body.bank_name,
        channel: settings.channel,
        settings,
        secret,
        afterImport: body.after_import,
        archiveDir: body.archive_dir ?? null,
        pullIntervalSeconds: body.pull_interval_seconds,
        active: body.active,
      })
      .returning();
    if (!row) throw new Error("insert returned no row");
    await linkAccounts(tx, owner, id, body.account_ids);
    await audit(tx, row, actor, "created", [...channelChanges(null, false, body.channel), "account_ids"]);
    return toConnection(tx, row);
  });
}

/** Updates a connection; a new `channel` replaces settings and credentials (audited). @throws 400 / 404 */
export async function patchConnection(
  db: Db,
  owner: ConnectionOwner,
  id: string,
  body: BankConnectionPatch,
  key: Buffer,
  actor: string,
): Promise<BankConnection> {
  return db.transaction(async (tx) => {
    const row = await getConnectionRow(tx, owner, id);
    const set: Partial<typeof bankConnections.$inferInsert> = { updatedAt: new Date().toISOString() };
    const fields: string[] = [];
    if (body.bank_name !== undefined) set.bankName = body.bank_name;
    if (body.after_import !== undefined) set.afterImport = body.after_import;
    if (body.archive_dir !== undefined) set.archiveDir = body.archive_dir;
    if (body.pull_interval_seconds !== undefined) set.pullIntervalSeconds = body.pull_interval_seconds;
    if (body.active !== undefined) set.active = body.active;
    if ((body.after_import ?? row.afterImport) === "archive" && (set.archiveDir ?? row.archiveDir) === null)
      throw fieldError("archive_dir", "is required when after_import is archive");
    if (body.channel !== undefined) {
      fields.push(...channelChanges(row.settings as ChannelSettings, row.secret !== null, body.channel));
      const stored = storeChannel(body.channel, key);
      set.channel = stored.settings.channel;
      set.settings = stored.settings;
      set.secret = stored.secret;
      set.consecutiveFailures = 0;
      set.lastError = null;
    }
    if (body.account_ids !== undefined) {
      await linkAccounts(tx, owner, id, body.account_ids);
      fields.push("account_ids");
    }
    const [updated] = await tx.update(bankConnections).set(set).where(eq(bankConnections.id, id)).returning();
    await audit(tx, row, actor, "updated", fields);
    return toConnection(tx, updated ?? row);
  });
}

/** Deletes a connection with its account links and file log. @throws 409 while a payment file waits to be sent */
export async function deleteConnection(db: Db, owner: ConnectionOwner, id: string, actor: string): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await getConnectionRow(tx, owner, id);
    const [waiting] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(bankChannelOutbox)
      .where(and(eq(bankChannelOutbox.connectionId, id), sql`${bankChannelOutbox.sentAt} is null`));
    if (Number(waiting?.n ?? 0) > 0)
      throw new ApiError("conflict", "This connection still has payment files to send; deactivate it instead", {
        reason: "files_waiting",
      });
    await tx.delete(bankConnectionAccounts).where(eq(bankConnectionAccounts.connectionId, id));
    await tx.delete(bankChannelOutbox).where(eq(bankChannelOutbox.connectionId, id));
    await tx.delete(bankConnectionFiles).where(eq(bankConnectionFiles.connectionId, id));
    await tx.delete(bankConnections).where(eq(bankConnections.id, id));
    await audit(tx, row, actor, "deleted", ["channel", "credentials", "account_ids"]);
  });
}

/** The connection's file log, newest first (at most `limit`). */
export async function listFiles(db: Db, connectionId: string, limit = 200): Promise<BankConnectionFile[]> {
  const rows = await db
    .select()
    .from(bankConnectionFiles)
    .where(eq(bankConnectionFiles.connectionId, connectionId))
    .orderBy(sql`${bankConnectionFiles.createdAt} desc`, asc(bankConnectionFiles.id))
    .limit(limit);
  return rows.map((r) => ({
    id: r.id,
    direction: r.direction as "in" | "out",
    file_name: r.fileName,
    size: r.size,
    sha256: r.sha256,
    status: r.status as BankConnectionFile["status"],
    reason: r.reason,
    batch_id: r.batchId,
    created_at: isoTimestamp(r.createdAt),
  }));
}
