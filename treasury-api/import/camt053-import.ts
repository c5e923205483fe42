/**
 * Imports camt.053 bank statements into the treasury-api database — issue 2
 * item 13; the stored data is what spec §4 (Ledger: accounts, transactions,
 * balances, coverage) serves, with the enumerations of DESIGN.md.
 *
 * All files of one call go in ONE database transaction: a bad file (or a
 * database error) imports nothing at all. Every file is parsed before the
 * transaction starts, so a malformed file never touches the database.
 */
import { createHash } from "node:crypto";
import { Decimal } from "decimal.js";
import { and, eq, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../db/client";
import { accounts, balanceSnapshots, companies, coverageDays, transactions } from "../db/schema";
import { ApiError } from "../lib/errors";
import { newId } from "../lib/secrets";
import { TRANSACTION_COLUMNS, toTransaction } from "../routes/ledger/ledger.repo";
import { enqueueEvents } from "../webhooks/outbox";
import { proposeMatchesForTransactions } from "../domain/matching";
import { bankNameFor } from "./bank-names";
import { BALANCE_CODE_TYPES, CamtImportError, nextDay, parseCamt053, previousDay, type ParsedEntry, type ParsedStatement } from "./camt053-parse";

/** What one file did. Counts are rows, days or elements. */
export interface ImportFileSummary {
  file: string;
  statements: number;
  /** The account references (IBAN or other id) the file's statements are for. */
  accountRefs: string[];
  accountsMatched: number;
  accountsCreated: number;
  transactionsInserted: number;
  /** Entries already imported before (same account and dedupe key). */
  duplicatesSkipped: number;
  /** Entries whose status is not BOOK (pending or informational), not stored. */
  entriesNotBooked: number;
  /** Balance rows written; a closing derived from PRCD/OPBD never overwrites an existing closing, so it is not counted then. */
  balancesUpserted: number;
  coverageDays: number;
  /** Balance codes that map to no API balance type, with their counts (e.g. `{ FWAV: 5 }`). */
  skippedBalanceCodes: Record<string, number>;
}

export interface ImportSummary {
  companyId: string;
  files: ImportFileSummary[];
}

export interface ImportOptions {
  companyId: string;
  files: { name: string; content: string }[];
}

const SOURCE = "camt.053";
const CHUNK = 1000;

interface Company {
  id: string;
  tenantId: string;
}

/**
 * Imports statement files for one company.
 * @returns per file: statements, accounts matched / created, transactions
 *   inserted / skipped as duplicates, balances upserted, coverage days, skipped balance codes
 * @throws CamtImportError (400 validation_error) for a malformed file, naming the file and element
 * @throws ApiError not_found when the company does not exist; conflict when an
 *   account of a statement belongs to another company of the tenant
 */
export async function importCamt053(db: Db, opts: ImportOptions): Promise<ImportSummary> {
  const parsed = opts.files.map((f) => ({ name: f.name, statements: parseCamt053(f.content, f.name) }));
  return db.transaction(async (tx) => {
    const [company] = await tx.select({ id: companies.id, tenantId: companies.tenantId }).from(companies).where(eq(companies.id, opts.companyId));
    if (!company) throw new ApiError("not_found", `Company ${opts.companyId} was not found`);
    const accountCache = new Map<string, string>();
    const files: ImportFileSummary[] = [];
    for (const file of parsed) files.push(await importFile(tx, company, file.name, file.statements, accountCache));
    return { companyId: company.id, files };
  });
}

/** A file summary with every count at zero (also the CLI's totals row). */
export function emptyFileSummary(file: string): ImportFileSummary {
  return {
    file,
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
  };
}

async function importFile(tx: DbOrTx, company: Company, name: string, statements: ParsedStatement[], accountCache: Map<string, string>): Promise<ImportFileSummary> {
  const summary = emptyFileSummary(name);
  summary.statements = statements.length;
  const seenAccounts = new Set<string>();
  for (const stmt of statements) {
    const cached = accountCache.get(stmt.account.ref);
    const resolved = cached ? { id: cached, created: false } : await resolveAccount(tx, company, stmt);
    accountCache.set(stmt.account.ref, resolved.id);
    if (!seenAccounts.has(resolved.id)) {
      seenAccounts.add(resolved.id);
      summary.accountRefs.push(stmt.account.ref);
      if (resolved.created) summary.accountsCreated += 1;
      else summary.accountsMatched += 1;
    }
    const booked = stmt.entries.filter((e) => e.status === null || e.status === "BOOK");
    summary.entriesNotBooked += stmt.entries.length - booked.length;
    const inserted = await insertTransactions(tx, company, resolved.id, stmt, booked);
    summary.transactionsInserted += inserted;
    summary.duplicatesSkipped += booked.length - inserted;
    summary.balancesUpserted += await upsertBalances(tx, company, resolved.id, stmt, summary.skippedBalanceCodes);
    summary.coverageDays += await upsertCoverage(tx, company, resolved.id, stmt);
  }
  return summary;
}

/** Finds the statement's account by its reference within the tenant, or creates it for the company. */
async function resolveAccount(tx: DbOrTx, company: Company, stmt: ParsedStatement): Promise<{ id: string; created: boolean }> {
  const { ref, refType } = stmt.account;
  const found = await tx
    .select({ id: accounts.id, companyId: accounts.companyId })
    .from(accounts)
    .where(and(eq(accounts.tenantId, company.tenantId), eq(accounts.externalRef, ref)));
  const own = found.find((a) => a.companyId === company.id);
  if (own) return { id: own.id, created: false };
  if (found.length > 0) {
    throw new ApiError("conflict", `${stmt.fileName}: account ${refType === "IBAN" ? "IBAN " : ""}${ref} belongs to another company of this tenant`, { file: stmt.fileName, account: ref });
  }
  const currency = stmt.account.currency;
  if (currency === null) throw new CamtImportError(stmt.fileName, `Document/BkToCstmrStmt/Stmt[${stmt.index}]/Acct/Ccy`, "is missing and no balance or entry gives a currency");
  const bankName = bankNameFor(stmt.account.servicerBic, stmt.account.servicerName);
  const id = newId();
  await tx.insert(accounts).values({
    id,
    tenantId: company.tenantId,
    companyId: company.id,
    bankId: stmt.account.servicerBic ?? "UNKNOWN",
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
    const amount = new Decimal(e.amount).toFixed();
    if (e.accountServicerRef === null) {
      const digest = createHash("sha256").update([stmt.id, e.index, e.direction, amount, e.booked.date].join("|"), "utf8").digest("hex");
      return `sha256:${digest}`;
    }
    const base = `asr:${e.accountServicerRef}|${e.direction}|${amount}|${e.booked.date}`;
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    return `${base}#${n}`;
  });
}


/** Inserts the entries in chunks, skipping known ones; emits `transaction.created` for each new row. Returns the number inserted. */
async function insertTransactions(tx: DbOrTx, company: Company, accountId: string, stmt: ParsedStatement, entries: ParsedEntry[]): Promise<number> {
  const keys = dedupeKeys(stmt, entries);
  const rows = entries.map((e, i) => ({
    id: newId(),
    tenantId: company.tenantId,
    companyId: company.id,
    accountId,
    amount: e.amount,
    currency: e.currency,
    direction: e.direction,
    bookedDate: e.booked.date,
    bookedAt: e.booked.at,
    valueDate: e.value.date,
    valueAt: e.value.at,
    counterpartyName: e.counterpartyName,
    remittance: e.remittance,
    endToEndId: e.endToEndId,
    source: SOURCE,
    dedupeKey: keys[i] ?? null,
  }));
  let inserted = 0;
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK);
    const created = await tx
      .insert(transactions)
      .values(chunk)
      .onConflictDoNothing({ target: [transactions.accountId, transactions.dedupeKey] })
      .returning(TRANSACTION_COLUMNS);
    // The event carries the stored row exactly as the ledger routes return it.
    const events = created.map((r) => ({ tenantId: company.tenantId, companyId: company.id, type: "transaction.created" as const, data: toTransaction(r) }));
    await enqueueEvents(tx, events);
    // Imported debits may settle our own payments: propose matches like the bank simulator does.
    await proposeMatchesForTransactions(tx, created.filter((r) => r.direction === "debit").map((r) => r.id));
    inserted += created.length;
  }
  return inserted;
}

/**
 * Stores the statement's balances; returns how many rows were written.
 * CLBD/CLAV/ITBD/ITAV are upserted as given. An opening balance (PRCD, OPBD)
 * is the previous business day's closing: banks date it either with that day
 * (before the statement's own first day) or with the statement's day, in
 * which case the closing belongs to the day before. It is written only where
 * neither this statement nor an earlier import has a real CLBD.
 */
async function upsertBalances(tx: DbOrTx, company: Company, accountId: string, stmt: ParsedStatement, skipped: Record<string, number>): Promise<number> {
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
    source: SOURCE,
  });
  const closingDates = stmt.balances.filter((b) => b.code === "CLBD").map((b) => b.date).sort();
  const statementDay = stmt.period?.from ?? closingDates[0] ?? stmt.entries.map((e) => e.booked.date).sort()[0];
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
    const res = await tx.insert(balanceSnapshots).values(derivedRows).onConflictDoNothing().returning({ id: balanceSnapshots.id });
    written += res.length;
  }
  return written;
}

/**
 * Marks the statement's days as completely covered by camt.053: every day of
 * its FrToDt period, or, without one, the days of its entries and closing balances.
 */
async function upsertCoverage(tx: DbOrTx, company: Company, accountId: string, stmt: ParsedStatement): Promise<number> {
  const days = new Set<string>();
  if (stmt.period) {
    for (let d = stmt.period.from; d <= stmt.period.to; d = nextDay(d)) days.add(d);
  } else {
    for (const e of stmt.entries) days.add(e.booked.date);
    for (const b of stmt.balances) if (b.code === "CLBD" || b.code === "CLAV") days.add(b.date);
  }
  const rows = [...days].map((date) => ({ id: newId(), tenantId: company.tenantId, companyId: company.id, accountId, date, source: SOURCE, completeness: "complete" }));
  for (let i = 0; i < rows.length; i += CHUNK) {
    await tx
      .insert(coverageDays)
      .values(rows.slice(i, i + CHUNK))
      .onConflictDoUpdate({ target: [coverageDays.accountId, coverageDays.date], set: { source: SOURCE, completeness: "complete" } });
  }
  return rows.length;
}
