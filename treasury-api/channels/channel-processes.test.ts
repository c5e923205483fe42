/**
 * Two API processes on one PostgreSQL share the bank channels' work without doing it twice (docs/bank-channels.md
 * "Exactly once, and several API processes"): three `folder` connections, each with two approved batches queued for
 * push and three camt.054 files in its outbox (left there after import, so every pull lists them again). Two separate
 * server processes (treasury-api/test/child-server.ts) run their bank-channel workers against the same database;
 * once every file is imported and every batch pushed, the test waits for one more scheduled pull of every connection
 * and then checks that each file was imported once (its transactions once, one record each) and each payment file
 * is in its bank's inbox once and recorded sent once. Skipped, with the reason printed, without PostgreSQL.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { findPostgresBin, startTempPostgres } from "@treasury/test-support/temp-postgres";
import { startChildServer, type ChildTarget } from "../test/child-server";
import { n, withDatabase } from "../test/bank-webhook-scenario";
import { channelCounts, channelMetric, prepareChannelScenario, type ScenarioBank } from "../test/channel-scenario";
import { sql } from "drizzle-orm";
import { pushFileName } from "./exchange";

const KEY = randomBytes(32);
const BANKS = 3;
const BATCHES_PER_BANK = 2;
const FILES_PER_BANK = 3;
const ENTRIES_PER_FILE = 10;

const noPostgres = findPostgresBin() === null;
if (noPostgres) console.log("channel-processes.test.ts skipped: PostgreSQL not installed (initdb, pg_ctl)");

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

/** Polls `check` every 300 ms until it is true; false after `ms`. */
async function until(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 300));
  }
}

describe.skipIf(noPostgres)("bank channels with two API processes on one PostgreSQL", () => {
  it("pulls and imports each file once and pushes each approved batch once", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "treasury-channel-processes-"));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    const pg = await startTempPostgres();
    cleanups.push(() => pg.stop());
    const target: ChildTarget = { url: pg.url };
    const banks: (ScenarioBank & { inbox: string })[] = Array.from({ length: BANKS }, (_, b) => {
      const inbox = path.join(dir, `bank${b}`, "inbox");
      const outbox = path.join(dir, `bank${b}`, "outbox");
      mkdirSync(inbox, { recursive: true });
      mkdirSync(outbox, { recursive: true });
      return { inbox, outboxPath: outbox, channel: { channel: "folder", inbox_dir: inbox, outbox_dir: outbox } };
    });
    const scenario = await withDatabase(target, (database) =>
      prepareChannelScenario(database, banks, {
        key: KEY,
        batchesPerBank: BATCHES_PER_BANK,
        filesPerBank: FILES_PER_BANK,
        entriesPerFile: ENTRIES_PER_FILE,
      }),
    );

    const started = Date.now();
    const env = { TREASURY_API_SECRET_KEY: KEY.toString("hex") };
    const servers = await Promise.all([startChildServer(target, { env }), startChildServer(target, { env })]);
    cleanups.push(async () => void (await Promise.all(servers.map((s) => s.kill()))));

    const done = await until(async () => {
      const c = await withDatabase(target, channelCounts);
      return c.filesIn === scenario.files && c.sent === scenario.batchIds.length;
    }, 45_000);
    expect(done, servers.map((s) => s.output().slice(-800)).join("\n---\n")).toBe(true);
    const finished = new Date().toISOString();
    // One more scheduled pull of every connection lists every file again (after_import: leave).
    const pulledAgain = await until(
      () =>
        withDatabase(
          target,
          async (database) =>
            (await n(
              database,
              sql`select count(*)::int as n from bank_connections where last_pull_ok_at > ${finished}`,
            )) === BANKS,
        ),
      30_000,
    );
    expect(pulledAgain).toBe(true);
    const pulls = await Promise.all(
      servers.map((s) => channelMetric(s.url, 'treasury_api_bank_channel_pulls_total{outcome="ok"}')),
    );
    const pushes = await Promise.all(
      servers.map((s) => channelMetric(s.url, 'treasury_api_bank_channel_pushes_total{outcome="ok"}')),
    );
    await Promise.all(servers.map((s) => s.stop()));

    const counts = await withDatabase(target, channelCounts);
    const result = await withDatabase(target, async (database) => ({
      distinctEntries: await n(database, sql`select count(distinct (account_id, amount))::int as n from transactions`),
      notImported: await n(
        database,
        sql`select count(*)::int as n from bank_connection_files where direction = 'in' and status <> 'imported'`,
      ),
    }));
    console.log(
      `channel-processes: ${scenario.files} files, ${scenario.batchIds.length} batches, ${BANKS} connections; ` +
        `pulls per process ${pulls.join("/")}, pushes per process ${pushes.join("/")}; ` +
        `${Math.round((Date.now() - started) / 1000)} s with both processes`,
    );
    expect(counts).toEqual({
      transactions: scenario.entries,
      filesIn: scenario.files,
      sent: scenario.batchIds.length,
      filesOut: scenario.batchIds.length,
    });
    expect(result).toEqual({ distinctEntries: scenario.entries, notImported: 0 });
    // Every file listed at least twice (first import, the pull after), imported once.
    expect(pulls.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(2 * BANKS);
    expect(pushes.reduce((a, b) => a + b, 0)).toBe(scenario.batchIds.length);
    for (const [b, bank] of banks.entries()) {
      const expected = scenario.batchIds.slice(b * BATCHES_PER_BANK, (b + 1) * BATCHES_PER_BANK).map(pushFileName);
      expect(readdirSync(bank.inbox).sort()).toEqual(expected.sort());
    }
  }, 120_000);
});
