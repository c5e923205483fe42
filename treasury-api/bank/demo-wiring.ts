/**
 * Demo mode's bank (docs/bank-channels.md "The simulated bank behind a channel"): one `folder` connection per company
 * under `<data>/bank/<company id>/{inbox,outbox,archive}`, serving all the company's active accounts, and the folder
 * bank's configuration (`<data>/bank/bank.json`) with one desk per connection. The bank's books open with each
 * account's latest closing booked balance as the seed left it: the one figure both sides agree on at the start.
 */
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { and, asc, desc, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { accounts, balanceSnapshots, companies } from "../db/schema";
import { createConnection } from "../channels/connections";
import { writeFolderBank, type FolderBank, type FolderBankDesk } from "./folder-bank";

/** The bank name the demo's connections carry. */
export const DEMO_BANK_NAME = "Demo bank (folder channel)";

/**
 * Seconds between the demo connections' scheduled pulls: 1 for the demo's five companies, longer for large seeds so
 * that the API pulls at most about five folders a second.
 */
export function demoPullIntervalSeconds(companyCount: number): number {
  return Math.max(1, Math.ceil(companyCount / 5));
}

/**
 * Creates the demo's folder connections and the folder bank's configuration in `dir` (call once, right after the
 * demo seed; a company with no active account gets no connection).
 * @param key the secret key (folder channels store no secret; the repository takes it for every channel)
 * @returns the folder bank (its state in `dir/state`)
 */
export async function wireDemoFolderBank(db: Db, dir: string, key: Buffer): Promise<FolderBank> {
  const rows = await db.select().from(companies).orderBy(asc(companies.name), asc(companies.id));
  const interval = demoPullIntervalSeconds(rows.length);
  const desks: FolderBankDesk[] = [];
  for (const company of rows) {
    const own = await db
      .select()
      .from(accounts)
      .where(and(eq(accounts.companyId, company.id), eq(accounts.status, "active")))
      .orderBy(asc(accounts.name));
    if (own.length === 0) continue;
    const root = path.join(dir, company.id);
    const folders = {
      inbox: path.join(root, "inbox"),
      outbox: path.join(root, "outbox"),
      archive: path.join(root, "archive"),
    };
    for (const f of Object.values(folders)) await mkdir(f, { recursive: true });
    await createConnection(
      db,
      { tenantId: company.tenantId, companyId: company.id },
      {
        bank_name: DEMO_BANK_NAME,
        account_ids: own.map((a) => a.id),
        after_import: "archive",
        archive_dir: folders.archive,
        pull_interval_seconds: interval,
        active: true,
        channel: { channel: "folder", inbox_dir: folders.inbox, outbox_dir: folders.outbox },
      },
      key,
      "demo-seed",
    );
    const deskAccounts = [];
    for (const a of own) {
      const [closing] = await db
        .select({ date: balanceSnapshots.asOfDate, balance: balanceSnapshots.balance })
        .from(balanceSnapshots)
        .where(and(eq(balanceSnapshots.accountId, a.id), eq(balanceSnapshots.balanceType, "closing_booked")))
        .orderBy(desc(balanceSnapshots.asOfDate))
        .limit(1);
      deskAccounts.push({
        iban: a.externalRef.replace(/\s+/g, "").toUpperCase(),
        currency: a.currency,
        ...(closing ? { opening: { date: closing.date, balance: closing.balance } } : {}),
      });
    }
    desks.push({ name: company.id, inboxDir: folders.inbox, outboxDir: folders.outbox, accounts: deskAccounts });
  }
  return writeFolderBank(dir, desks);
}
