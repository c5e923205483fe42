/**
 * The BFF side of counterparties (payees): the rules live in
 * lib/counterparties (maker-checker, history, audit entries written in the
 * same transaction as the change); this module scopes them to the selected
 * company, turns rows into the browser's views (lib/views/counterparties.ts)
 * and carries the request id and Idempotency-Key into the audit entries.
 *
 * A counterparty of another company than the selected one is `not_found`
 * (as for a company the user may not see: no existence leak).
 *
 * Retries: every write carries the Idempotency-Key derived for the user; a
 * write whose key already has a successful audit entry of the same kind is
 * not done again but answered with the counterparty as it is now (so a retry
 * after a lost answer is not a 409 "IBAN already taken" or a stale version).
 */
import "server-only";
import { and, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import { AUDIT_ACTION, type AuditAction } from "../../audit-actions";
import {
  changeBankDetails,
  createCounterparty,
  disableCounterparty,
  getCounterparty,
  getCounterpartyHistory,
  listCounterparties,
  makersOf,
  rejectCounterparty,
  verifyCounterparty,
  type AuditMeta,
  type Counterparty,
  type CounterpartyHistoryEntry,
} from "../../counterparties/counterparties";
import { importCounterpartiesCsv } from "../../counterparties/csv-import";
import { DECLARABLE_ENCODINGS } from "../../counterparties/csv-decode";
import { COUNTERPARTY_STATUSES, auditEvents } from "../../db/schema";
import { dashboardDb } from "../../server/db";
import type {
  CounterpartyDetailView,
  CounterpartyHistoryView,
  CounterpartyImportView,
  CounterpartyView,
} from "../../views/counterparties";
import type { BffContext } from "../context";
import { BffError } from "../errors";

/** Query of the list: `search` (part of the name or IBAN, spaces ignored), `status`, `limit` 1..500 (default 200). */
export const CounterpartyListQuery = z.object({
  search: z.string().trim().max(100, { message: "must be at most 100 characters" }).optional(),
  status: z.enum(COUNTERPARTY_STATUSES, { message: `must be one of ${COUNTERPARTY_STATUSES.join(", ")}` }).optional(),
  limit: z.coerce
    .number({ message: "must be a number" })
    .int({ message: "must be an integer" })
    .min(1, { message: "must be at least 1" })
    .max(500, { message: "must be at most 500" })
    .optional(),
});

/**
 * A JSON object; its fields are checked by lib/counterparties, whose errors
 * name them (`details.errors.iban`, …).
 */
export const JsonObject = z.record(z.string(), z.unknown(), { message: "must be a JSON object" });

/** Largest CSV text an import takes (5,000 lines of payees fit well within). */
export const MAX_IMPORT_CHARS = 2_000_000;

/** Largest request body of an import (the JSON around a file of `MAX_IMPORT_CHARS` characters, escapes included). */
export const MAX_IMPORT_BODY_BYTES = 8 * 1024 * 1024;

/** Largest file an import takes as bytes (`file`, base64): 4 MB. */
export const MAX_IMPORT_FILE_BYTES = 4 * 1024 * 1024;

/**
 * Body of an import: the file as bytes (`file`, base64, with the `encoding` the person declared, if any — else it is
 * detected, lib/counterparties/csv-decode.ts) or as text already decoded (`csv`), and, for the preview, `dryRun`.
 */
export const CounterpartyImportBody = z
  .object({
    csv: z
      .string({ message: "must be the file's text" })
      .max(MAX_IMPORT_CHARS, { message: `must be at most ${MAX_IMPORT_CHARS} characters` })
      .optional(),
    file: z
      .base64({ message: "must be the file's bytes in base64" })
      .max(Math.ceil(MAX_IMPORT_FILE_BYTES / 3) * 4, {
        message: `must be a file of at most ${MAX_IMPORT_FILE_BYTES} bytes`,
      })
      .optional(),
    encoding: z.enum(DECLARABLE_ENCODINGS, { message: `must be one of ${DECLARABLE_ENCODINGS.join(", ")}` }).optional(),
    dryRun: z.boolean({ message: "must be true or false" }).optional(),
  })
  .refine((b) => (b.csv === undefined) !== (b.file === undefined), {
    message: "must be given, as text (csv) or as bytes (file), not both",
    path: ["file"],
  });

/** The selected company. @throws BffError 403 when the user has none. */
function companyOf(ctx: BffContext): string {
  if (!ctx.company)
    throw new BffError("permission_denied", "No company is available to you. Ask an administrator for access.");
  return ctx.company.id;
}

/** A timestamp as ISO 8601 with offset, whatever text form the database driver returned. */
export function isoTimestamp(value: string): string {
  const d = new Date(value.includes("T") ? value : value.replace(" ", "T").replace(/([+-]\d\d)$/, "$1:00"));
  return Number.isNaN(d.getTime()) ? value : d.toISOString();
}

/** The browser's view of a row, for the viewer `userId`. */
export function counterpartyView(row: Counterparty, userId: string): CounterpartyView {
  return {
    id: row.id,
    companyId: row.companyId,
    name: row.name,
    iban: row.iban,
    bic: row.bic,
    country: row.country,
    lei: row.lei,
    orgnr: row.orgnr,
    defaultRemittance: row.defaultRemittance,
    status: row.status,
    createdAt: isoTimestamp(row.createdAt),
    updatedAt: isoTimestamp(row.updatedAt),
    bankDetailsChangedAt: row.bankDetailsChangedAt ? isoTimestamp(row.bankDetailsChangedAt) : null,
    verifiedAt: row.verifiedAt ? isoTimestamp(row.verifiedAt) : null,
    version: row.version,
    viewerIsMaker: row.status === "pending_verification" && makersOf(row).includes(userId),
  };
}

function historyView(h: CounterpartyHistoryEntry): CounterpartyHistoryView {
  return {
    id: h.id,
    event: h.event,
    oldIban: h.oldIban,
    newIban: h.newIban,
    oldBic: h.oldBic,
    newBic: h.newBic,
    oldStatus: h.oldStatus,
    newStatus: h.newStatus,
    byEmail: h.byEmail,
    at: isoTimestamp(h.at),
    reason: h.reason,
    version: h.version,
  };
}

/** The counterparties of the selected company, by name. */
export async function listCounterpartyViews(
  ctx: BffContext,
  q: z.output<typeof CounterpartyListQuery> = {},
): Promise<{ items: CounterpartyView[] }> {
  const rows = await listCounterparties(await dashboardDb(), ctx.user, companyOf(ctx), {
    search: q.search,
    status: q.status,
    limit: q.limit ?? 200,
  });
  return { items: rows.map((r) => counterpartyView(r, ctx.user.id)) };
}

/** The row, when it belongs to the selected company. @throws BffError not_found otherwise. */
async function inCompany(ctx: BffContext, id: string): Promise<Counterparty> {
  const company = companyOf(ctx);
  const row = await getCounterparty(await dashboardDb(), ctx.user, id);
  if (row.companyId !== company) throw new BffError("not_found", "This counterparty does not exist.");
  return row;
}

/** One counterparty with its history, oldest change first. @throws not_found. */
export async function counterpartyDetail(ctx: BffContext, id: string): Promise<CounterpartyDetailView> {
  const row = await inCompany(ctx, id);
  const history = await getCounterpartyHistory(await dashboardDb(), ctx.user, row.id);
  return { counterparty: counterpartyView(row, ctx.user.id), history: history.map(historyView) };
}

/** Request metadata of a write, for the audit entry. */
export interface WriteMeta {
  requestId: string;
  idempotencyKey: string;
}

const auditMeta = (m: WriteMeta): AuditMeta => ({ requestId: m.requestId, idempotencyKey: m.idempotencyKey });

/** The ids of the counterparties an earlier successful write of this user with this key touched, oldest first. */
async function replayed(ctx: BffContext, meta: WriteMeta, actions: readonly AuditAction[]): Promise<string[]> {
  const rows = await (
    await dashboardDb()
  )
    .select({ objectId: auditEvents.objectId, at: auditEvents.at })
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.userId, ctx.user.id),
        eq(auditEvents.idempotencyKey, meta.idempotencyKey),
        eq(auditEvents.outcome, "success"),
        inArray(auditEvents.action, [...actions]),
      ),
    )
    .orderBy(auditEvents.at);
  return rows.flatMap((r) => (r.objectId ? [r.objectId] : []));
}

const CHANGE_ACTION: Record<CounterpartyChange, AuditAction> = {
  bank_details: AUDIT_ACTION.counterpartyBankDetailsChange,
  verify: AUDIT_ACTION.counterpartyVerify,
  reject: AUDIT_ACTION.counterpartyReject,
  disable: AUDIT_ACTION.counterpartyDisable,
};

/** Creates a pending counterparty in the selected company. */
export async function createCounterpartyView(
  ctx: BffContext,
  body: Record<string, unknown>,
  meta: WriteMeta,
): Promise<CounterpartyView> {
  const [done] = await replayed(ctx, meta, [AUDIT_ACTION.counterpartyCreate]);
  if (done) return counterpartyView(await inCompany(ctx, done), ctx.user.id);
  const row = await createCounterparty(await dashboardDb(), ctx.user, companyOf(ctx), body as never, auditMeta(meta));
  return counterpartyView(row, ctx.user.id);
}

export type CounterpartyChange = "bank_details" | "verify" | "reject" | "disable";

/**
 * One change of an existing counterparty of the selected company: new bank
 * details (back to pending), verify / reject (maker-checker), disable.
 * @throws BffError validation_error naming the field, permission_denied (with `details.reason: "maker_checker"`
 *   when the maker tries to decide), not_found, conflict (state or stale `expectedVersion`).
 */
export async function changeCounterparty(
  ctx: BffContext,
  id: string,
  change: CounterpartyChange,
  body: Record<string, unknown>,
  meta: WriteMeta,
): Promise<CounterpartyView> {
  const row = await inCompany(ctx, id);
  if ((await replayed(ctx, meta, [CHANGE_ACTION[change]])).includes(row.id)) return counterpartyView(row, ctx.user.id);
  const db = await dashboardDb();
  const input = body as never;
  const m = auditMeta(meta);
  const after =
    change === "bank_details"
      ? await changeBankDetails(db, ctx.user, row.id, input, m)
      : change === "verify"
        ? await verifyCounterparty(db, ctx.user, row.id, input, m)
        : change === "reject"
          ? await rejectCounterparty(db, ctx.user, row.id, input, m)
          : await disableCounterparty(db, ctx.user, row.id, input, m);
  return counterpartyView(after, ctx.user.id);
}

/**
 * Checks (`dryRun`) or imports a CSV file of counterparties into the selected
 * company: all lines become pending counterparties, or none when any line or
 * the file is wrong (the report names line and column).
 */
export async function importCounterpartiesView(
  ctx: BffContext,
  body: z.output<typeof CounterpartyImportBody>,
  meta: WriteMeta,
): Promise<CounterpartyImportView> {
  const done = body.dryRun ? [] : await replayed(ctx, meta, [AUDIT_ACTION.counterpartyImport]);
  if (done.length) {
    const rows = await Promise.all(done.map((id) => inCompany(ctx, id)));
    const created = rows.map((c) => counterpartyView(c, ctx.user.id));
    return { ok: true, dryRun: false, fileErrors: [], errors: [], preview: [], created, encoding: null };
  }
  const file =
    body.file !== undefined
      ? { bytes: Buffer.from(body.file, "base64"), ...(body.encoding ? { encoding: body.encoding } : {}) }
      : (body.csv ?? "");
  const r = await importCounterpartiesCsv(await dashboardDb(), ctx.user, companyOf(ctx), file, {
    dryRun: body.dryRun,
    ...auditMeta(meta),
  });
  return {
    ok: r.ok,
    dryRun: body.dryRun === true,
    fileErrors: r.fileErrors,
    errors: r.errors,
    preview: r.preview.map((p) => ({ line: p.line, name: p.name, iban: p.iban, bic: p.bic, country: p.country })),
    created: r.created.map((c) => counterpartyView(c, ctx.user.id)),
    encoding: r.encoding,
  };
}
