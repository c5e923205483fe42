/**
 * Imports ISO 20022 bank-to-customer messages into the treasury-api database;
 * the stored data is what docs/treasury-api.md#ledger (accounts, transactions, balances,
 * coverage, intraday) serves, with docs/architecture.md#enumerations.
 *
 * - camt.053 statement: booked entries become transactions, balances balance
 *   snapshots, the statement's days coverage; it supersedes the camt.052
 *   intraday points and pending entries of the days it covers.
 * - camt.052 intraday report: ITBD / ITAV balances become intraday points
 *   (source camt.052), every entry is pending.
 * - camt.054 notification: booked entries become transactions, de-duplicated
 *   against statements (same account, booking date, direction, amount, and
 *   AcctSvcrRef or end-to-end id where given).
 * Entries without a booking date (or with status PDNG) are stored in
 * `pending_entries`, never in `transactions`, so no booked sum sees them; a
 * later booking of the same entry deletes the pending row. INFO entries are skipped.
 *
 * All files of one call go in ONE database transaction: a bad file (or a
 * database error) imports nothing at all. Every file is parsed before the
 * transaction starts, so a malformed file never touches the database.
 */
import { chunk as chunked } from "es-toolkit";
import { createHash } from "node:crypto";
import { Decimal } from "decimal.js";
import { and, eq, gte, inArray, lt, sql, type SQL } from "drizzle-orm";
import { queryRows, type Db, type DbOrTx } from "../db/client";
import { BULK_CHUNK, unnestColumns } from "../db/bulk-insert";
import { ISO_UTC_SQL } from "../lib/format";
import {
  accounts,
  balanceSnapshots,
  companies,
  coverageDays,
  intradayPoints,
  pendingEntries,
  transactions,
} from "../db/schema";
import { nextDay, previousDay } from "../lib/dates";
import { ApiError } from "../lib/errors";
import { newId } from "../lib/secrets";
import { proposeMatchesForTransactions } from "../domain/matching";
import { bankNameFor } from "./bank-names";
import { acceptableNewAccount, refusedAccount } from "./account-refusal";
import { settleInstructionsByDebits } from "./debit-settlement";
import { formatOf, parseBankFile } from "./bank-files";
import { statementFigures, type StatementFigures } from "./statement-figures";
import {
  BALANCE_CODE_TYPES,
  CamtImportError,
  MESSAGE_ROOTS,
  type MessageType,
  type ParsedEntry,
  type ParsedFile,
  type ParsedStatement,
} from "./camt053-parse";

/** What one file did. Counts are rows, days or elements. */
export interface ImportFileSummary {
  file: string;
  messageType: MessageType;
  /** e.g. camt.053.001.08; null when the file has no namespace. */
  version: string | null;
  statements: number;
  /** Ntry elements read. */
  entries: number;
  /** The account references (IBAN or other id) the file's statements are for. */
  accountRefs: string[];
  accountsMatched: number;
  accountsCreated: number;
  transactionsInserted: number;
  /** Entries already imported before (same account and dedupe key). */
  duplicatesSkipped: number;
  /** Entries not booked: pending ones plus skipped informational ones. */
  entriesNotBooked: number;
  /** Entries stored as pending (no booking date, status PDNG, or any camt.052 entry), new or already known. */
  pending: number;
  /** Earlier pending entries deleted because this file books them. */
  pendingReplaced: number;
  /** Informational entries (status INFO), not stored. */
  entriesSkipped: number;
  /** Intraday points written (camt.052 ITBD / ITAV). */
  intradayPoints: number;
  /**
   * Balance rows written; a closing derived from PRCD/OPBD never overwrites an existing closing, so it is not counted
   * then.
   */
  balancesUpserted: number;
  coverageDays: number;
  /** Balance codes that map to no API balance type, with their counts (e.g. `{ FWAV: 5 }`). */
  skippedBalanceCodes: Record<string, number>;
  /** The detected format: "mt940", "mt942", "bai2" or the camt version (docs/bank-files.md). */
  format: string;
  /** Per statement in file order: what the file says and how many entries this run stored. */
  statementFigures: StatementFigures[];
}

export interface ImportSummary {
  companyId: string;
  files: ImportFileSummary[];
}

export interface ImportOptions {
  companyId: string;
  /** Each file's bytes (decoded per docs/bank-files.md "Character sets") or its text. */
  files: { name: string; content: string | Uint8Array }[];
  /** Import statements whose balances do not add up, flagged partial on coverage, instead of refusing the file. */
  acceptInconsistent?: boolean;
  /** Parse, validate and resolve accounts in a transaction that is rolled back: nothing is stored. */
  dryRun?: boolean;
}

const CHUNK = 1000;

/** The company of an import: its id and tenant. */
export interface ImportingCompany {
  id: string;
  tenantId: string;
}

type Company = ImportingCompany;

/**
 * Imports statement files for one company.
 * @returns per file: statements, accounts matched / created, transactions
 *   inserted / skipped as duplicates, balances upserted, coverage days, skipped balance codes
 * @throws CamtImportError (400 validation_error) for a malformed file, naming the file and element
 * @throws ApiError not_found when the company does not exist; conflict when an
 *   account of a statement belongs to another company of the tenant
 */
export async function importStatements(db: Db, opts: ImportOptions): Promise<ImportSummary> {
  const parsed = opts.files.map((f) =>
    parseBankFile(f.content, f.name, { acceptInconsistent: opts.acceptInconsistent === true }),
  );
  return importParsed(db, opts.companyId, parsed, { dryRun: opts.dryRun === true });
}

/** Thrown inside a dry run's transaction to roll it back; carries the result out. */
class DryRunRollback<T> extends Error {
  constructor(readonly result: T) {
    super("dry run");
  }
}

/**
 * Runs `fn` in a transaction of `db` that is always rolled back (a dry run): everything is checked against the
 * database, nothing is stored. Returns what `fn` returned; rethrows what it threw.
 */
export async function inRolledBackTransaction<T>(db: Db, fn: (tx: DbOrTx) => Promise<T>): Promise<T> {
  try {
    await db.transaction(async (tx) => {
      throw new DryRunRollback(await fn(tx));
    });
  } catch (e) {
    if (!(e instanceof DryRunRollback)) throw e;
    return e.result as T;
  }
  throw new Error("unreachable: a dry run always rolls back");
}

/** The former name of `importStatements` (it reads camt.052 and camt.054 too). */
export const importCamt053 = importStatements;

/**
 * Stores files parsed by `parseStatementFile` in one transaction (see `importStatements`).
 * camt.053 files go last, so that a statement supersedes a same-call intraday report of its day.
 */
export async function importParsed(
  db: Db,
  companyId: string,
  parsed: ParsedFile[],
  opts: { dryRun?: boolean } = {},
): Promise<ImportSummary> {
  const ordered = [...parsed].sort((a, b) => messageOrder(a.messageType) - messageOrder(b.messageType));
  const store = async (tx: DbOrTx): Promise<ImportSummary> => {
    const company = await importingCompany(tx, companyId);
    const accountCache: AccountCache = new Map<string, string>();
    const byFile = new Map<ParsedFile, ImportFileSummary>();
    for (const file of ordered) byFile.set(file, await importFile(tx, company, file, accountCache));
    return { companyId: company.id, files: parsed.map((f) => byFile.get(f) ?? emptyFileSummary(f.fileName)) };
  };
  if (!opts.dryRun) return db.transaction(store);
  const summary = await inRolledBackTransaction(db, store);
  // Everything was checked against the database, then rolled back: nothing is new.
  for (const f of summary.files) for (const s of f.statementFigures) s.newEntries = 0;
  return summary;
}

/**
 * Where a message goes in the order the files of one call are stored: camt.052 (and MT942) first, then camt.054,
 * then statements (camt.053, MT940, BAI2), so that a statement supersedes a same-call intraday report of its day.
 */
export function messageOrder(messageType: MessageType): number {
  return messageType === "camt.052" ? 0 : messageType === "camt.054" ? 1 : 2;
}

/** The company statements are imported for. @throws ApiError not_found when it does not exist */
export async function importingCompany(tx: DbOrTx, companyId: string): Promise<ImportingCompany> {
  const [company] = await tx
    .select({ id: companies.id, tenantId: companies.tenantId })
    .from(companies)
    .where(eq(companies.id, companyId));
  if (!company) throw new ApiError("not_found", `Company ${companyId} was not found`);
  return company;
}

/** Accounts already resolved in this call, by `refType|bankId|ref`; shared by the files of one call. */
export type AccountCache = Map<string, string>;

/** A file summary with every count at zero (also the CLI's totals row). */
export function emptyFileSummary(
  file: string,
  messageType: MessageType = "camt.053",
  version: string | null = null,
): ImportFileSummary {
  return {
    file,
    messageType,
    version,
    entries: 0,
    pending: 0,
    pendingReplaced: 0,
    entriesSkipped: 0,
    intradayPoints: 0,
    statements: 0,
    accountRefs: [],
    accountsMatched: 0,
    accountsCreated: 0,
    transactionsInserted: 0,
    duplicatesSkipped: 0,
    entriesNotBooked: 0,
    balancesUpserted: 0,
    coverageDays: 0,
    skippedBalanceCodes: {},
    format: version ?? messageType,
    statementFigures: [],
  };
}

/**
 * Stores one parsed file in the caller's transaction (docs/bank-files.md "Speed and memory": the files of a call
 * are stored one at a time): accounts, transactions, pending entries, balances, coverage, intraday points.
 * @returns the file's summary
 * @throws CamtImportError / ApiError (400) for an account that cannot be imported for the company
 */
export async function importFile(
  tx: DbOrTx,
  company: ImportingCompany,
  file: ParsedFile,
  accountCache: Map<string, string>,
): Promise<ImportFileSummary> {
  const { statements, messageType } = file;
  const summary = emptyFileSummary(file.fileName, messageType, file.version);
  summary.format = formatOf(file);
  summary.statements = statements.length;
  const seenAccounts = new Set<string>();
  for (const stmt of statements) {
    const cacheKey = `${stmt.account.refType}|${stmt.account.bankId ?? ""}|${stmt.account.ref}`;
    const cached = accountCache.get(cacheKey);
    const resolved = cached ? { id: cached, created: false } : await resolveAccount(tx, company, stmt);
    accountCache.set(cacheKey, resolved.id);
    if (!seenAccounts.has(resolved.id)) {
      seenAccounts.add(resolved.id);
      summary.accountRefs.push(stmt.account.ref);
      if (resolved.created) summary.accountsCreated += 1;
      else summary.accountsMatched += 1;
    }
    const info = stmt.entries.filter((e) => e.status === "INFO");
    // An intraday report is not final: all its entries are pending until a statement books them.
    const pending = stmt.entries.filter((e) => e.status !== "INFO" && (e.pending || messageType === "camt.052"));
    const booked = stmt.entries.filter((e) => e.status !== "INFO" && !pending.includes(e));
    summary.entries += stmt.entries.length;
    summary.entriesSkipped += info.length;
    summary.pending += pending.length;
    summary.entriesNotBooked += info.length + pending.length;
    const known = await crossMessageDuplicates(tx, resolved.id, messageType, booked);
    const fresh = booked.filter((e) => !known.has(e));
    const inserted = await insertTransactions(tx, company, resolved.id, stmt, fresh);
    summary.transactionsInserted += inserted;
    summary.duplicatesSkipped += booked.length - inserted;
    summary.pendingReplaced += await replacePending(tx, resolved.id, booked);
    if (messageType === "camt.053") {
      // After the replacements (counted above), before the statement's own pending entries are stored.
      const days = coveredDays(stmt);
      await supersedeIntraday(tx, resolved.id, days);
      summary.coverageDays += await upsertCoverage(tx, company, resolved.id, days, stmt);
    }
    const pendingKnown = await insertPending(tx, company, resolved.id, stmt, pending);
    summary.duplicatesSkipped += pendingKnown;
    summary.statementFigures.push(statementFigures(stmt, inserted + pending.length - pendingKnown));
    if (messageType === "camt.052")
      summary.intradayPoints += await insertIntradayPoints(tx, company, resolved.id, stmt, summary.skippedBalanceCodes);
    else summary.balancesUpserted += await upsertBalances(tx, company, resolved.id, stmt, summary.skippedBalanceCodes);
  }
  return summary;
}

const sameAmount = (a: string, b: string) => new Decimal(a).eq(b);

/**
 * The booked entries that another message type already stored (a camt.054
 * notification and the camt.053 statement of the same booking): same account,
 * booking date, direction and amount, and the same AcctSvcrRef or end-to-end
 * id where both give one. Each stored row matches at most one entry.
 */
async function crossMessageDuplicates(
  tx: DbOrTx,
  accountId: string,
  messageType: MessageType,
  entries: ParsedEntry[],
): Promise<Set<ParsedEntry>> {
  const found = new Set<ParsedEntry>();
  if (messageType === "camt.052" || entries.length === 0) return found;
  const other = messageType === "camt.053" ? "camt.054" : "camt.053";
  const dates = [...new Set(entries.map((e) => bookedDate(e)))];
  const rows = [];
  for (const part of chunked(dates, CHUNK)) {
    rows.push(
      ...(await tx
        .select({
          id: transactions.id,
          amount: transactions.amount,
          direction: transactions.direction,
          bookedDate: transactions.bookedDate,
          e2e: transactions.endToEndId,
          key: transactions.dedupeKey,
        })
        .from(transactions)
        .where(
          and(
            eq(transactions.accountId, accountId),
            eq(transactions.source, other),
            inArray(transactions.bookedDate, part),
          ),
        )),
    );
  }
  if (rows.length === 0) return found;
  const used = new Set<string>();
  for (const e of entries) {
    const row = rows.find((r) => {
      if (
        used.has(r.id) ||
        r.bookedDate !== bookedDate(e) ||
        r.direction !== e.direction ||
        !sameAmount(r.amount, e.amount)
      )
        return false;
      const rowAsr = r.key?.startsWith("asr:") ? r.key.slice(4, r.key.indexOf("|")) : null;
      if (e.accountServicerRef !== null && rowAsr !== null) return e.accountServicerRef === rowAsr;
      if (e.endToEndId !== null && r.e2e !== null) return e.endToEndId === r.e2e;
      return true;
    });
    if (row) {
      used.add(row.id);
      found.add(e);
    }
  }
  return found;
}

/** The booking date of a booked entry (its value date if it somehow has none). */
function bookedDate(e: ParsedEntry): string {
  return (e.booked ?? e.value).date;
}

/**
 * Deletes the pending entries of the account that these booked entries book:
 * same AcctSvcrRef, else same end-to-end id, else same direction, amount and
 * date (booking or value date). Returns the number deleted.
 */
async function replacePending(tx: DbOrTx, accountId: string, booked: ParsedEntry[]): Promise<number> {
  if (booked.length === 0) return 0;
  const rows = await tx.select().from(pendingEntries).where(eq(pendingEntries.accountId, accountId));
  if (rows.length === 0) return 0;
  const hit = new Set<string>();
  for (const e of booked) {
    const open = rows.filter((r) => !hit.has(r.id) && r.direction === e.direction && sameAmount(r.amount, e.amount));
    const row =
      (e.accountServicerRef !== null ? open.find((r) => r.accountServicerRef === e.accountServicerRef) : undefined) ??
      (e.endToEndId !== null ? open.find((r) => r.endToEndId === e.endToEndId) : undefined) ??
      open.find((r) => r.expectedDate === bookedDate(e) || r.expectedDate === e.value.date);
    if (row) hit.add(row.id);
  }
  const ids = [...hit];
  for (const part of chunked(ids, CHUNK)) await tx.delete(pendingEntries).where(inArray(pendingEntries.id, part));
  return ids.length;
}

/** Stores pending entries (idempotent by key); returns how many were already stored. */
async function insertPending(
  tx: DbOrTx,
  company: Company,
  accountId: string,
  stmt: ParsedStatement,
  entries: ParsedEntry[],
): Promise<number> {
  const seen = new Map<string, number>();
  const rows = entries.map((e) => {
    const base = [
      "pending",
      e.accountServicerRef ?? "",
      e.endToEndId ?? "",
      e.direction,
      new Decimal(e.amount).toFixed(),
      e.value.date,
    ].join("|");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    return {
      id: newId(),
      tenantId: company.tenantId,
      companyId: company.id,
      accountId,
      amount: e.amount,
      currency: e.currency,
      direction: e.direction,
      expectedDate: e.value.date,
      accountServicerRef: e.accountServicerRef,
      endToEndId: e.endToEndId,
      counterpartyName: e.counterpartyName,
      remittance: e.remittance,
      source: stmt.source ?? stmt.messageType,
      dedupeKey: `${base}#${n}`,
    };
  });
  let inserted = 0;
  for (const part of chunked(rows, CHUNK)) {
    const res = await tx.insert(pendingEntries).values(part).onConflictDoNothing().returning({ id: pendingEntries.id });
    inserted += res.length;
  }
  return rows.length - inserted;
}

/**
 * Writes a camt.052 report's ITBD / ITAV balances as intraday points at the
 * balance's date-time (a date-only balance: the report's creation time, else
 * the end of that day), replacing a camt.052 point of the same instant and
 * type. Other balance codes are counted as skipped. Returns the points written.
 */
async function insertIntradayPoints(
  tx: DbOrTx,
  company: Company,
  accountId: string,
  stmt: ParsedStatement,
  skipped: Record<string, number>,
): Promise<number> {
  const points = new Map<string, typeof intradayPoints.$inferInsert>();
  for (const b of stmt.balances) {
    const type = b.code === "ITBD" ? "interim_booked" : b.code === "ITAV" ? "interim_available" : null;
    if (type === null) {
      skipped[b.code] = (skipped[b.code] ?? 0) + 1;
      continue;
    }
    const created =
      stmt.createdAt !== null && stmt.createdAt.date === b.date ? stmt.createdAt.at : `${b.date}T23:59:59Z`;
    const timestamp = new Date(b.dateOnly ? created : b.at).toISOString();
    points.set(`${type}|${timestamp}`, {
      id: newId(),
      tenantId: company.tenantId,
      companyId: company.id,
      accountId,
      timestamp,
      balance: b.amount,
      currency: b.currency,
      balanceType: type,
      source: intradaySource(stmt),
    });
  }
  const rows = [...points.values()];
  for (const r of rows) {
    await tx
      .delete(intradayPoints)
      .where(
        and(
          eq(intradayPoints.accountId, accountId),
          eq(intradayPoints.source, intradaySource(stmt)),
          eq(intradayPoints.balanceType, r.balanceType),
          eq(intradayPoints.timestamp, r.timestamp),
        ),
      );
  }
  if (rows.length > 0) await tx.insert(intradayPoints).values(rows);
  return rows.length;
}

/** Sources of intraday reports (camt.052, MT942): a statement covering their day supersedes them. */
const INTRADAY_SOURCES = ["camt.052", "mt942"];

/** The source stored on an intraday report's points: "camt.052" or "mt942". */
function intradaySource(stmt: ParsedStatement): string {
  return stmt.source === "mt942" ? "mt942" : "camt.052";
}

/** Deletes the camt.052 / MT942 intraday points and pending entries of the days a statement covers. */
async function supersedeIntraday(tx: DbOrTx, accountId: string, days: string[]): Promise<void> {
  if (days.length === 0) return;
  const sorted = [...days].sort();
  const first = sorted[0] ?? "";
  const last = sorted[sorted.length - 1] ?? "";
  const points = await tx
    .select({ id: intradayPoints.id, timestamp: intradayPoints.timestamp })
    .from(intradayPoints)
    .where(
      and(
        eq(intradayPoints.accountId, accountId),
        inArray(intradayPoints.source, INTRADAY_SOURCES),
        gte(intradayPoints.timestamp, `${first}T00:00:00Z`),
        lt(intradayPoints.timestamp, `${nextDay(last)}T00:00:00Z`),
      ),
    );
  const daySet = new Set(days);
  const ids = points.filter((p) => daySet.has(new Date(p.timestamp).toISOString().slice(0, 10))).map((p) => p.id);
  for (const part of chunked(ids, CHUNK)) await tx.delete(intradayPoints).where(inArray(intradayPoints.id, part));
  for (const part of chunked(days, CHUNK)) {
    await tx
      .delete(pendingEntries)
      .where(
        and(
          eq(pendingEntries.accountId, accountId),
          inArray(pendingEntries.source, INTRADAY_SOURCES),
          inArray(pendingEntries.expectedDate, part),
        ),
      );
  }
}

/** Finds the statement's account by its reference within the tenant, or creates it for the company. */
async function resolveAccount(
  tx: DbOrTx,
  company: Company,
  stmt: ParsedStatement,
): Promise<{ id: string; created: boolean }> {
  const { ref, refType } = stmt.account;
  // An IBAN is unique on its own; a BBAN / other account number only with its bank code (docs/bank-files.md).
  const bankId = refType === "IBAN" ? null : (stmt.account.bankId ?? null);
  const found = await tx
    .select({ id: accounts.id, companyId: accounts.companyId })
    .from(accounts)
    .where(
      and(
        eq(accounts.tenantId, company.tenantId),
        eq(accounts.externalRef, ref),
        bankId === null ? undefined : eq(accounts.bankId, bankId),
      ),
    );
  const own = found.find((a) => a.companyId === company.id);
  if (own) return { id: own.id, created: false };
  // Another company's account and an impossible IBAN get the same answer: no existence leak (docs/bank-files.md).
  if (found.length > 0 || !acceptableNewAccount(ref, refType))
    throw refusedAccount(
      stmt.fileName,
      stmt.messageType in MESSAGE_ROOTS
        ? `Document/${MESSAGE_ROOTS[stmt.messageType as keyof typeof MESSAGE_ROOTS].root}/${MESSAGE_ROOTS[stmt.messageType as keyof typeof MESSAGE_ROOTS].item}[${stmt.index}]/Acct/Id`
        : `statement ${stmt.index + 1}: account`,
      ref,
    );
  const currency = stmt.account.currency;
  if (currency === null)
    throw new CamtImportError(
      stmt.fileName,
      `Document/BkToCstmrStmt/Stmt[${stmt.index}]/Acct/Ccy`,
      "is missing and no balance or entry gives a currency",
    );
  const bankName = bankNameFor(stmt.account.servicerBic ?? stmt.account.bankId ?? null, stmt.account.servicerName);
  const id = newId();
  await tx.insert(accounts).values({
    id,
    tenantId: company.tenantId,
    companyId: company.id,
    bankId: stmt.account.bankId ?? stmt.account.servicerBic ?? "UNKNOWN",
    externalRef: ref,
    externalRefType: refType,
    name: `${bankName} ${currency} ****${ref.slice(-4)}`,
    currency,
    bankName,
    status: "active",
  });
  return { id, created: true };
}

/**
 * A key that is the same every time the same booking is imported. Banks
 * reuse AcctSvcrRef across entries (one ABN AMRO statement books a batch
 * twice under one reference), so the reference is qualified by direction,
 * amount, date and its occurrence among identical entries of the statement.
 */
function dedupeKeys(stmt: ParsedStatement, entries: ParsedEntry[]): string[] {
  const seen = new Map<string, number>();
  return entries.map((e) => {
    // MT940 / BAI2: the parser's key (docs/bank-files.md "Re-import identity").
    if (e.dedupeKey !== undefined) return e.dedupeKey;
    const amount = new Decimal(e.amount).toFixed();
    if (e.accountServicerRef === null) {
      const digest = createHash("sha256")
        .update([stmt.id, e.index, e.direction, amount, bookedDate(e)].join("|"), "utf8")
        .digest("hex");
      return `sha256:${digest}`;
    }
    const base = `asr:${e.accountServicerRef}|${e.direction}|${amount}|${bookedDate(e)}`;
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    return `${base}#${n}`;
  });
}

/**
 * The columns `insertTransactions` reads back for a camt.054 (whose debits settle instructions), as the ledger
 * routes read them; for other messages only `id` and `direction` come back.
 */
interface InsertedTransaction {
  id: string;
  accountId: string;
  amount: string;
  currency: string;
  direction: "credit" | "debit";
  bookedAt: string;
  valueAt: string;
  bookedDate: string;
  valueDate: string;
  counterpartyName: string;
  remittance: string;
  endToEndId: string | null;
}

/**
 * Inserts the entries in chunks of `BULK_CHUNK` rows, one `INSERT … SELECT FROM unnest(…) ON CONFLICT DO NOTHING`
 * per chunk, so the re-import identity (account + dedupe key, docs/bank-files.md "Re-import identity") is checked
 * in the same round trip; emits `transaction.created` for each new row. Returns the number inserted.
 */
async function insertTransactions(
  tx: DbOrTx,
  company: Company,
  accountId: string,
  stmt: ParsedStatement,
  entries: ParsedEntry[],
): Promise<number> {
  const keys = dedupeKeys(stmt, entries);
  const target: ChunkTarget = {
    company,
    accountId,
    source: stmt.source ?? stmt.messageType,
    // A camt.054 debit settles an instruction by end-to-end id: only then are the text columns read back.
    full: stmt.messageType === "camt.054",
    now: new Date().toISOString(),
  };
  let inserted = 0;
  for (let start = 0; start < entries.length; start += BULK_CHUNK) {
    const part = entries.slice(start, start + BULK_CHUNK);
    const created = await queryRows<Pick<InsertedTransaction, "id" | "direction"> & Partial<InsertedTransaction>>(
      tx,
      insertChunkSql(target, part, keys.slice(start, start + BULK_CHUNK)),
    );
    // A camt.054 debit notification settles the instruction it pays, by end-to-end id (docs/bank-files.md).
    if (stmt.messageType === "camt.054")
      await settleInstructionsByDebits(
        tx,
        // `full`: every column of InsertedTransaction was read back.
        created.map((r) => ({ ...(r as InsertedTransaction), companyId: company.id })),
        new Date().toISOString(),
      );
    // Imported debits may settle our own payments: propose matches like the bank simulator does. The matcher only
    // pairs a debit with a settled or accepted instruction of the same company, so without one (checked per chunk,
    // after the camt.054 settlement above) its candidate query, a regex pass over every debit, is skipped.
    const debits = created.filter((r) => r.direction === "debit").map((r) => r.id);
    if (debits.length > 0 && (await hasMatchableInstructions(tx, company.id)))
      await proposeMatchesForTransactions(tx, debits);
    inserted += created.length;
  }
  return inserted;
}

/** Where a chunk of transactions goes: company, account, source, the events' instant, and what to read back. */
interface ChunkTarget {
  company: Company;
  accountId: string;
  source: string;
  /** Read back every column of `InsertedTransaction` (a camt.054), not only `id` and `direction`. */
  full: boolean;
  /** ISO 8601 instant of the `transaction.created` events. */
  now: string;
}

/**
 * ONE statement that inserts a chunk of entries (`keys[i]` the dedupe key of `part[i]`) and their
 * `transaction.created` events (docs/bank-files.md "Speed and memory"): the event's `data` is the stored row's
 * `json` column (the Transaction as `toTransaction` gives it, written by the database with the row;
 * docs/architecture.md#list-responses), so the rows never travel to Node and back as JSON. A row whose dedupe key the
 * account already has is skipped (`ON CONFLICT DO NOTHING`) and gets no event. Only the columns the caller needs
 * come back.
 */
function insertChunkSql(target: ChunkTarget, part: ParsedEntry[], keys: string[]): SQL {
  const { company, accountId, source, full, now } = target;
  const col = (f: (e: ParsedEntry, i: number) => string | null) => part.map((e, i) => f(e, i));
  return sql`WITH u AS (
            SELECT * FROM ${unnestColumns({
              id: [col(() => newId()), "uuid"],
              amount: [col((e) => e.amount), "numeric"],
              currency: [col((e) => e.currency), "text"],
              direction: [col((e) => e.direction), "text"],
              booked_date: [col((e) => bookedDate(e)), "date"],
              booked_at: [col((e) => (e.booked ?? e.value).at), "timestamptz"],
              value_date: [col((e) => e.value.date), "date"],
              value_at: [col((e) => e.value.at), "timestamptz"],
              counterparty_name: [col((e) => e.counterpartyName), "text"],
              remittance: [col((e) => e.remittance), "text"],
              end_to_end_id: [col((e) => e.endToEndId), "text"],
              dedupe_key: [col((_, i) => keys[i] ?? null), "text"],
            })}
          ),
          ins AS (
            INSERT INTO transactions (id, tenant_id, company_id, account_id, amount, currency, direction,
              booked_date, booked_at, value_date, value_at, counterparty_name, remittance, end_to_end_id, source,
              dedupe_key)
            SELECT u.id, ${company.tenantId}::uuid, ${company.id}::uuid, ${accountId}::uuid, u.amount, u.currency,
              u.direction, u.booked_date, u.booked_at, u.value_date, u.value_at, u.counterparty_name, u.remittance,
              u.end_to_end_id, ${source}, u.dedupe_key
            FROM u
            ON CONFLICT (account_id, dedupe_key) DO NOTHING
            RETURNING id, account_id, amount, currency, direction, counterparty_name, remittance, end_to_end_id,
              booked_at, value_at, booked_date, value_date, json
          ),
          ev AS (
            SELECT gen_random_uuid() AS event_id, ins.* FROM ins
          ),
          events AS (
            INSERT INTO webhook_events (id, tenant_id, company_id, type, payload, created_at)
            SELECT event_id, ${company.tenantId}::uuid, ${company.id}::uuid, 'transaction.created',
              jsonb_build_object('id', event_id, 'type', 'transaction.created', 'created_at', ${now}::text,
                'data', json::jsonb),
              ${now}::timestamptz
            FROM ev
          )
          SELECT id, direction${
            full
              ? sql`, account_id AS "accountId", amount::text AS amount, currency,
                  to_char(booked_at AT TIME ZONE 'UTC', ${ISO_UTC_SQL}) AS "bookedAt",
                  to_char(value_at AT TIME ZONE 'UTC', ${ISO_UTC_SQL}) AS "valueAt",
                  booked_date::text AS "bookedDate", value_date::text AS "valueDate",
                  counterparty_name AS "counterpartyName", remittance, end_to_end_id AS "endToEndId"`
              : sql``
          }
          FROM ev`;
}

/** True when the company has an instruction the matcher can propose (settled or accepted; domain/matching.ts). */
async function hasMatchableInstructions(tx: DbOrTx, companyId: string): Promise<boolean> {
  const rows = await queryRows<{ one: number }>(
    tx,
    sql`SELECT 1 AS one FROM payment_instructions WHERE company_id = ${companyId}::uuid
          AND status IN ('settled', 'accepted') LIMIT 1`,
  );
  return rows.length > 0;
}

/**
 * Stores the statement's balances; returns how many rows were written.
 * CLBD/CLAV/ITBD/ITAV are upserted as given. An opening balance (PRCD, OPBD)
 * is the previous business day's closing: banks date it either with that day
 * (before the statement's own first day) or with the statement's day, in
 * which case the closing belongs to the day before. It is written only where
 * neither this statement nor an earlier import has a real CLBD.
 */
async function upsertBalances(
  tx: DbOrTx,
  company: Company,
  accountId: string,
  stmt: ParsedStatement,
  skipped: Record<string, number>,
): Promise<number> {
  type Row = typeof balanceSnapshots.$inferInsert;
  const direct = new Map<string, Row>();
  const derived = new Map<string, Row>();
  const row = (balanceType: string, asOfDate: string, balance: string, currency: string): Row => ({
    id: newId(),
    tenantId: company.tenantId,
    companyId: company.id,
    accountId,
    balanceType,
    asOfDate,
    balance,
    currency,
    source: stmt.source ?? stmt.messageType,
  });
  const closingDates = stmt.balances
    .filter((b) => b.code === "CLBD")
    .map((b) => b.date)
    .sort();
  const statementDay =
    stmt.period?.from ?? closingDates[0] ?? stmt.entries.flatMap((e) => (e.booked ? [e.booked.date] : [])).sort()[0];
  for (const b of stmt.balances) {
    const type = BALANCE_CODE_TYPES[b.code];
    if (type) direct.set(`${type}|${b.date}`, row(type, b.date, b.amount, b.currency));
    else if (b.code === "PRCD" || b.code === "OPBD") {
      const day = statementDay !== undefined && b.date < statementDay ? b.date : previousDay(b.date);
      if (!derived.has(day)) derived.set(day, row("closing_booked", day, b.amount, b.currency));
    } else skipped[b.code] = (skipped[b.code] ?? 0) + 1;
  }
  let written = 0;
  const directRows = [...direct.values()];
  if (directRows.length > 0) {
    const res = await tx
      .insert(balanceSnapshots)
      .values(directRows)
      .onConflictDoUpdate({
        target: [balanceSnapshots.accountId, balanceSnapshots.balanceType, balanceSnapshots.asOfDate],
        set: { balance: sql`excluded.balance`, currency: sql`excluded.currency`, source: sql`excluded.source` },
      })
      .returning({ id: balanceSnapshots.id });
    written += res.length;
  }
  const derivedRows = [...derived.entries()].filter(([day]) => !direct.has(`closing_booked|${day}`)).map(([, r]) => r);
  if (derivedRows.length > 0) {
    const res = await tx
      .insert(balanceSnapshots)
      .values(derivedRows)
      .onConflictDoNothing()
      .returning({ id: balanceSnapshots.id });
    written += res.length;
  }
  return written;
}

/**
 * The days a camt.053 statement covers completely: every day of its FrToDt
 * period, or, without one, the days of its booked entries and closing balances.
 */
function coveredDays(stmt: ParsedStatement): string[] {
  const days = new Set<string>();
  if (stmt.period) {
    for (let d = stmt.period.from; d <= stmt.period.to; d = nextDay(d)) days.add(d);
  } else {
    for (const e of stmt.entries) if (e.booked !== null && !e.pending) days.add(e.booked.date);
    for (const b of stmt.balances) if (b.code === "CLBD" || b.code === "CLAV") days.add(b.date);
  }
  return [...days];
}

/**
 * Marks the days as covered by the statement (source camt.053, mt940 or bai2); completely, or `partial` when the
 * operator accepted a statement whose balances do not add up (docs/bank-files.md "Balances must add up").
 * Returns their number.
 */
async function upsertCoverage(
  tx: DbOrTx,
  company: Company,
  accountId: string,
  days: string[],
  stmt: ParsedStatement,
): Promise<number> {
  const SOURCE = stmt.coverageSource ?? "camt.053";
  const completeness = stmt.inconsistency ? "partial" : "complete";
  const rows = days.map((date) => ({
    id: newId(),
    tenantId: company.tenantId,
    companyId: company.id,
    accountId,
    date,
    source: SOURCE,
    completeness,
  }));
  for (const part of chunked(rows, CHUNK)) {
    await tx
      .insert(coverageDays)
      .values(part)
      .onConflictDoUpdate({
        target: [coverageDays.accountId, coverageDays.date],
        set: { source: SOURCE, completeness },
      });
  }
  return rows.length;
}
