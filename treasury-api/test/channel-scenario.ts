/**
 * The bank-channel scenario shared by the real-process channel tests (channels/channel-crash.test.ts: kill -9 of
 * the API during pull and push; channels/channel-processes.test.ts: two API processes on one PostgreSQL): per bank
 * connection one NOK account, approved batches paid from it whose outbox rows were committed as an approval commits
 * them, and camt.054 files in the bank's outbox; then the counts that say whether a file was imported twice or a
 * payment file sent twice (docs/bank-channels.md "Exactly once, and several API processes").
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import type { BankConnectionCreate } from "@treasury/contract/bank-connections";
import type { Database } from "../db/client";
import { accounts, paymentBatches, paymentInstructions } from "../db/schema";
import { newId } from "../lib/secrets";
import { createConnection } from "../channels/connections";
import { enqueueBatchPush } from "../channels/exchange";
import { buildCamt } from "./camt053-builder";
import { newTenant } from "./import-db";
import { n } from "./bank-webhook-scenario";

/** One bank relationship of the scenario: its channel and the folder (local path) of the bank's outbox. */
export interface ScenarioBank {
  channel: BankConnectionCreate["channel"];
  /** Where the test drops the bank's statements (the channel's outbox as a local path). */
  outboxPath: string;
}

export interface ScenarioOptions {
  /** Seals the connections' credentials (the API process needs the same TREASURY_API_SECRET_KEY). */
  key: Buffer;
  /** Approved batches per connection, due today. */
  batchesPerBank: number;
  /** camt.054 files per connection's outbox. */
  filesPerBank: number;
  /** Credit entries per file. */
  entriesPerFile: number;
  /** Seconds between scheduled pulls (at least 10). */
  pullIntervalSeconds?: number;
}

export interface Scenario {
  batchIds: string[];
  /** Transactions the files hold in all. */
  entries: number;
  /** Files in all the outboxes. */
  files: number;
}

/** A valid Norwegian IBAN for the 11-digit BBAN (ISO 13616 check digits). */
export function norwegianIban(bban: string): string {
  const check = 98n - (BigInt(`${bban}232400`) % 97n);
  return `NO${String(check).padStart(2, "0")}${bban}`;
}

/** Today's date, UTC (what the API's push compares the due date with). */
export const todayUtc = (): string => new Date().toISOString().slice(0, 10);

/**
 * Writes file `f` of bank `b` into the bank's outbox: a camt.054 of `entries` NOK credits on `iban`, booked
 * `today` (YYYY-MM-DD) at 06:0f, amounts `<f + 1>.<entry>` so that a repeated entry shows as a repeated amount.
 */
function writeOutboxFile(bank: ScenarioBank, b: number, f: number, iban: string, today: string, entries: number): void {
  const at = `${today}T06:0${f % 10}:00+00:00`;
  writeFileSync(
    path.join(bank.outboxPath, `ntf-${b}-${f}.xml`),
    buildCamt({
      version: "08",
      message: "camt.054",
      messageId: `CH-${b}-${f}`,
      createdAt: at,
      statements: [
        {
          id: `N-${b}-${f}`,
          createdAt: at,
          account: { iban, currency: "NOK" },
          balances: [],
          // Amounts differ within an account (file + 1 . entry), so a repeated entry shows as a repeated amount.
          entries: Array.from({ length: entries }, (_, i) => ({
            amount: `${f + 1}.${String(i).padStart(2, "0")}`,
            currency: "NOK",
            direction: "credit" as const,
            booked: today,
            value: today,
            entryRef: `C-${b}-${f}-${i}`,
          })),
        },
      ],
    }),
  );
}

/**
 * A fresh tenant and company; per bank an account, a connection (`after_import: leave`, so every pull lists every
 * file again), `batchesPerBank` approved batches queued for push, and `filesPerBank` camt.054 files in its outbox.
 */
export async function prepareChannelScenario(
  database: Database,
  banks: ScenarioBank[],
  opts: ScenarioOptions,
): Promise<Scenario> {
  const today = todayUtc();
  const t = await newTenant(database);
  const batchIds: string[] = [];
  for (const [b, bank] of banks.entries()) {
    const accountId = newId();
    const iban = norwegianIban(`8601111${String(7000 + b).padStart(4, "0")}`);
    await database.db.insert(accounts).values({
      id: accountId,
      tenantId: t.tenantId,
      companyId: t.companyId,
      bankId: "DNBANOKK",
      externalRef: iban,
      name: `Operating NOK ${b}`,
      currency: "NOK",
      bankName: "DNB",
    });
    await createConnection(
      database.db,
      { tenantId: t.tenantId, companyId: t.companyId },
      {
        bank_name: `Bank ${b}`,
        account_ids: [accountId],
        after_import: "leave",
        pull_interval_seconds: opts.pullIntervalSeconds ?? 10,
        active: true,
        channel: bank.channel,
      },
      opts.key,
      "admin",
    );
    for (let i = 0; i < opts.batchesPerBank; i++) {
      const { batchId } = await insertApprovedBatch(database, {
        tenantId: t.tenantId,
        companyId: t.companyId,
        accountId,
        amount: "99.00",
        creditorName: "Supplier AS",
        endToEndId: `E2E-${b}-${i}`,
        date: today,
      });
      batchIds.push(batchId);
    }
    for (let f = 0; f < opts.filesPerBank; f++) writeOutboxFile(bank, b, f, iban, today, opts.entriesPerFile);
  }
  return {
    batchIds,
    entries: banks.length * opts.filesPerBank * opts.entriesPerFile,
    files: banks.length * opts.filesPerBank,
  };
}

/**
 * An approved one-instruction NOK batch paid from `accountId` on `date` (an amount as a decimal string), and its
 * push queued as the approval's transaction queues it (`enqueueBatchPush`); `queued` says whether a connection
 * serves the account.
 */
export async function insertApprovedBatch(
  database: Database,
  b: {
    tenantId: string;
    companyId: string;
    accountId: string;
    amount: string;
    creditorName: string;
    endToEndId: string;
    date: string;
  },
): Promise<{ batchId: string; queued: boolean }> {
  const batchId = newId();
  await database.db.insert(paymentBatches).values({
    id: batchId,
    tenantId: b.tenantId,
    companyId: b.companyId,
    createdByClientId: newId(),
    initiator: "tester",
    currency: "NOK",
    status: "approved",
    totalAmount: b.amount,
    instructionCount: 1,
    requestedExecutionDate: b.date,
    debtorAccountId: b.accountId,
  });
  await database.db.insert(paymentInstructions).values({
    id: newId(),
    batchId,
    tenantId: b.tenantId,
    companyId: b.companyId,
    position: 0,
    amount: b.amount,
    currency: "NOK",
    creditorName: b.creditorName,
    creditorIban: "NO8330001234567",
    endToEndId: b.endToEndId,
  });
  const [batch] = await database.db.select().from(paymentBatches).where(eq(paymentBatches.id, batchId));
  if (!batch) throw new Error("batch not stored");
  const queued = await database.db.transaction((tx) => enqueueBatchPush(tx, batch, b.date));
  return { batchId, queued };
}

/** What the API recorded: transactions, received files, payment files marked sent, and files recorded sent. */
export async function channelCounts(
  database: Database,
): Promise<{ transactions: number; filesIn: number; sent: number; filesOut: number }> {
  return {
    transactions: await n(database, sql`select count(*)::int as n from transactions`),
    filesIn: await n(database, sql`select count(*)::int as n from bank_connection_files where direction = 'in'`),
    sent: await n(database, sql`select count(*)::int as n from bank_channel_outbox where sent_at is not null`),
    filesOut: await n(database, sql`select count(*)::int as n from bank_connection_files where direction = 'out'`),
  };
}

/** Ends every lease a killed process left (as their expiry would) so the next process may claim at once. */
export async function endChannelLeases(database: Database): Promise<void> {
  await database.db.execute(sql`update bank_connections set lease_until = null, next_pull_at = null`);
  await database.db.execute(sql`update bank_channel_outbox set lease_until = null`);
}

/**
 * One sample of a running server's Prometheus counters (`GET {url}/metrics`, loopback), e.g.
 * `treasury_api_bank_channel_pulls_total{outcome="ok"}`; 0 when the sample is not there yet. Counts since that
 * process started.
 */
export async function channelMetric(url: string, line: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const found = text.split("\n").find((l) => l.startsWith(`${line} `));
  return found ? Number(found.slice(line.length + 1)) : 0;
}
