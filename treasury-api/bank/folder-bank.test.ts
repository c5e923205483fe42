/**
 * The simulated bank behind a folder channel (docs/bank-channels.md "The simulated bank behind a channel"), end to
 * end on the real app (PGlite, one database for the file) and real folders: create → approve → pain.001 in the bank's
 * inbox → pain.002 accepting it → camt.054 + final pain.002 in its outbox → pulled → instructions settled / rejected
 * with the rule's reasons and transactions booked exactly as the direct simulator books the same batch → matches
 * proposed; the end-of-day camt.053; and the bank's steps across a crash between writing an answer and recording it.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../db/client";
import { getConnectionRow } from "../channels/connections";
import { pullConnection, pushDue, pushFileName } from "../channels/exchange";
import { bankVerdict, runBankOnce } from "../domain/bank-simulator";
import { ephemeralSecretKey } from "../lib/secret-box";
import { IDS, approvedBatchVia, createHarness, daysAgo, type Harness } from "../test/harness";
import { runFolderBankOnce, type FolderBank } from "./folder-bank";

const KEY = ephemeralSecretKey();
const IBAN_A1 = "NO9386011117947";
let h: Harness;
let dir: string;
let connectionId: string;
let bank: FolderBank;
const inbox = () => path.join(dir, "inbox");
const outbox = () => path.join(dir, "outbox");
const archive = () => path.join(dir, "archive");

/** End-to-end ids that get each verdict of the deterministic rule (found by trying, as the rule is a hash). */
function idWith(verdict: "settled" | "AC04" | "AM04", prefix: string): string {
  for (let i = 0; i < 10_000; i++) {
    const id = `${prefix}-${i}`;
    const v = bankVerdict({ endToEndId: id, creditorName: "Leverandør AS" }, true);
    if ((v.status === "settled" ? "settled" : v.reason) === verdict) return id;
  }
  throw new Error(`no id with ${verdict}`);
}

/** Creates, submits and approves a batch through the API from `accountId`. @returns its id */
function approvedBatch(
  accountId: string,
  currency: string,
  instructions: {
    amount: string;
    creditor_name: string;
    end_to_end_id: string;
    remittance_information?: { type: "unstructured"; text: string } | { type: "creditor_reference"; reference: string };
  }[],
): Promise<string> {
  return approvedBatchVia(h, { currency, debtorAccountId: accountId, instructions });
}

const pull = async () =>
  pullConnection(
    h.database.db,
    await getConnectionRow(h.database.db, { tenantId: IDS.tenant, companyId: IDS.companyA }, connectionId),
    KEY,
  );

async function batchStatus(batchId: string): Promise<string | undefined> {
  const [row] = await queryRows<{ status: string }>(
    h.database.db,
    sql`select status from payment_batches where id = ${batchId}`,
  );
  return row?.status;
}

/** Per end-to-end id: the instruction's status, its rejection reason and the booked transaction's fields. */
async function outcome(batchId: string) {
  const rows = await queryRows<{
    e2e: string;
    status: string;
    reason: string | null;
    amount: string | null;
    direction: string | null;
    remittance: string | null;
    counterparty: string | null;
    tx_e2e: string | null;
    booked_date: string | null;
    matches: number;
  }>(
    h.database.db,
    sql`select i.end_to_end_id as e2e, i.status,
          (select reason from payment_status_events e where e.instruction_id = i.id and e.status = 'rejected') as reason,
          t.amount::text as amount, t.direction, t.remittance, t.counterparty_name as counterparty,
          t.end_to_end_id as tx_e2e, t.booked_date::text as booked_date,
          (select count(*)::int from reconciliation_matches m where m.payment_instruction_id = i.id
             and m.transaction_id = t.id) as matches
        from payment_instructions i left join transactions t on t.id = i.transaction_id
        where i.batch_id = ${batchId} order by i.position`,
  );
  return rows;
}

beforeAll(async () => {
  h = await createHarness({ secretKey: KEY });
  dir = mkdtempSync(path.join(tmpdir(), "treasury-folder-bank-"));
  for (const d of ["inbox", "outbox", "archive", "bank"]) mkdirSync(path.join(dir, d));
  const res = await h.call("POST", "/bank-connections", {
    client: "fullB",
    company: IDS.companyA,
    idem: true,
    json: {
      bank_name: "Demo bank (folder)",
      account_ids: [IDS.accountA1],
      after_import: "archive",
      archive_dir: archive(),
      channel: { channel: "folder", inbox_dir: inbox(), outbox_dir: outbox() },
    },
  });
  expect(res.status).toBe(201);
  connectionId = ((await res.json()) as { id: string }).id;
  const [closing] = await queryRows<{ balance: string }>(
    h.database.db,
    sql`select balance::text as balance from balance_snapshots where account_id = ${IDS.accountA1}
          and balance_type = 'closing_booked' and as_of_date = ${daysAgo(1)}`,
  );
  bank = {
    stateDir: path.join(dir, "bank"),
    desks: [
      {
        name: "company-a",
        inboxDir: inbox(),
        outboxDir: outbox(),
        accounts: [{ iban: IBAN_A1, currency: "NOK", opening: { date: daysAgo(1), balance: closing?.balance ?? "0" } }],
      },
    ],
  };
});

afterAll(async () => {
  await h?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the simulated bank behind a folder channel", () => {
  const ok = idWith("settled", "FB-OK");
  const am04 = idWith("AM04", "FB-AM");
  const ok2 = idWith("settled", "FB-OK2");
  const ok3 = idWith("settled", "FB-OK3");
  const instructions = [
    {
      amount: "1250.50",
      creditor_name: "Leverandør AS",
      end_to_end_id: ok,
      remittance_information: { type: "unstructured" as const, text: "Faktura 4711" },
    },
    { amount: "99.95", creditor_name: "Reject Me AS", end_to_end_id: `${ok}-R` },
    { amount: "10.00", creditor_name: "Leverandør AS", end_to_end_id: am04 },
    { amount: "42.00", creditor_name: "Leverandør AS", end_to_end_id: ok2 },
    {
      amount: "3.10",
      creditor_name: "Leverandør AS",
      end_to_end_id: ok3,
      remittance_information: { type: "creditor_reference" as const, reference: "RF18539007547034" },
    },
  ];
  let batchId: string;

  it("settles and rejects through files exactly as the direct simulator does", async () => {
    // The same instructions twice: through the folder bank (NOK account, served by the connection) and through the
    // direct simulator (EUR account, served by none).
    batchId = await approvedBatch(IDS.accountA1, "NOK", instructions);
    const direct = await approvedBatch(IDS.accountA2, "EUR", instructions);
    // The direct simulator leaves the channel's batch alone.
    // (Its clock a minute ahead: the approval scheduled the take at the API's pace.)
    const later = { now: () => new Date(Date.now() + 60_000) };
    await runBankOnce(h.database.db, { bankSpeed: "instant" }, later);
    await runBankOnce(h.database.db, { bankSpeed: "instant" }, later);
    expect(await batchStatus(batchId)).toBe("approved");
    expect(await batchStatus(direct)).toBe("partially_completed");

    const pushed = await pushDue(h.database.db, KEY);
    expect(pushed.sent.map((s) => s.batchId)).toEqual([batchId]);
    expect(readdirSync(inbox())).toEqual([pushFileName(batchId)]);

    // The bank at its fast pace on its own clock: receipt, then the take 2 s later, then the settlement 5 s after it.
    const t0 = Date.now();
    const at = (ms: number) => ({ speed: "fast" as const, now: () => new Date(t0 + ms) });
    const first = await runFolderBankOnce(bank, at(0));
    expect(first).toMatchObject({ received: [pushFileName(batchId)], written: [], refused: [] });
    expect(readdirSync(inbox())).toEqual([]);
    expect((await runFolderBankOnce(bank, at(1_500))).written).toEqual([]);
    const ack = await runFolderBankOnce(bank, at(2_100));
    expect(ack.written).toHaveLength(1);
    expect(ack.written[0]).toMatch(/-1-ack\.xml$/);
    expect(await pull()).toMatchObject({ listed: 1, imported: 1, failed: 0, error: null });
    expect(await batchStatus(batchId)).toBe("processing");
    expect((await outcome(batchId)).map((r) => r.status)).toEqual(Array(5).fill("accepted"));

    expect((await runFolderBankOnce(bank, at(6_000))).written).toEqual([]);
    const settled = await runFolderBankOnce(bank, at(7_200));
    expect(settled.written.map((n) => n.replace(/^.*-(\d-\w+\.xml)$/, "$1"))).toEqual(["2-debit.xml", "3-status.xml"]);
    // The camt.054 books only the settled payments.
    const debit = readFileSync(path.join(outbox(), settled.written[0] ?? ""), "utf8");
    expect(debit.match(/<Ntry>/g)).toHaveLength(3);
    expect(await pull()).toMatchObject({ listed: 2, imported: 2, failed: 0, error: null });
    expect(readdirSync(outbox())).toEqual([]);
    expect(readdirSync(archive())).toHaveLength(3);

    const viaFiles = await outcome(batchId);
    expect(viaFiles.map((r) => [r.e2e, r.status, r.reason])).toEqual([
      [ok, "settled", null],
      [`${ok}-R`, "rejected", "AC04"],
      [am04, "rejected", "AM04"],
      [ok2, "settled", null],
      [ok3, "settled", null],
    ]);
    expect(await batchStatus(batchId)).toBe("partially_completed");
    // Booked like the direct simulator's: amount, debit, remittance (else the end-to-end id), end-to-end id, today;
    // each linked to its instruction and proposed as a reconciliation match. The creditor's name is the one the
    // pain.001 carried, in the SEPA Latin set (the bank never saw "ø"), where the direct simulator reads ours.
    const viaSimulator = await outcome(direct);
    const fields = (rows: typeof viaFiles) =>
      rows.map(
        ({ e2e, status, reason, amount, direction, remittance, counterparty, tx_e2e, booked_date, matches }) => ({
          e2e,
          status,
          reason,
          amount: amount === null ? null : Number(amount).toFixed(2),
          direction,
          remittance,
          counterparty: counterparty?.replace("ø", "o") ?? null,
          tx_e2e,
          booked_date,
          matches,
        }),
      );
    expect(fields(viaFiles)).toEqual(fields(viaSimulator));
    expect(viaFiles[0]).toMatchObject({ remittance: "Faktura 4711", counterparty: "Leverandor AS", matches: 1 });
    expect(viaFiles[3]).toMatchObject({ remittance: ok2, matches: 1 });
    expect(viaFiles[4]).toMatchObject({ remittance: "RF18539007547034", matches: 1 });
    const [tx] = await queryRows<{ n: number }>(
      h.database.db,
      sql`select count(*)::int as n from transactions where account_id = ${IDS.accountA1} and source = 'camt.054'`,
    );
    expect(tx?.n).toBe(3);
  });

  it("writes the end-of-day camt.053 the next day: balances from its books, bookings not imported twice", async () => {
    const tomorrow = new Date(Date.parse(`${daysAgo(0)}T00:00:00Z`) + 86_400_000 + 3_600_000);
    const eod = await runFolderBankOnce(bank, { speed: "fast", now: () => tomorrow });
    expect(eod.written).toEqual([expect.stringMatching(new RegExp(`-EOD-${IBAN_A1}-${daysAgo(0)}\\.xml$`))]);
    const opening = bank.desks[0]?.accounts[0]?.opening?.balance ?? "";
    const text = readFileSync(path.join(outbox(), eod.written[0] ?? ""), "utf8");
    const closing = (Number(opening) - 1250.5 - 42 - 3.1).toFixed(2);
    expect(text).toContain("<Cd>CLBD</Cd>");
    expect(await pull()).toMatchObject({ imported: 1, failed: 0, error: null });
    const [bal] = await queryRows<{ balance: string }>(
      h.database.db,
      sql`select balance::text as balance from balance_snapshots where account_id = ${IDS.accountA1}
            and balance_type = 'closing_booked' and as_of_date = ${daysAgo(0)}`,
    );
    expect(Number(bal?.balance).toFixed(2)).toBe(closing);
    const [tx] = await queryRows<{ n: number }>(
      h.database.db,
      sql`select count(*)::int as n from transactions where account_id = ${IDS.accountA1}
            and source in ('camt.054', 'camt.053')`,
    );
    expect(tx?.n).toBe(3);
    // Once only.
    expect((await runFolderBankOnce(bank, { speed: "fast", now: () => tomorrow })).written).toEqual([]);
  });

  it("across a crash between writing an answer and recording it: one answer file, one booking", async () => {
    const e2e = idWith("settled", "FB-CRASH");
    const crashed = await approvedBatch(IDS.accountA1, "NOK", [
      { amount: "77.00", creditor_name: "Leverandør AS", end_to_end_id: e2e },
    ]);
    await pushDue(h.database.db, KEY);
    const crashAt = (kind: string) => ({
      speed: "manual" as const,
      afterWrite: (name: string) => {
        if (name.endsWith(kind)) throw new Error(`killed after writing ${name}`);
      },
    });
    // Killed after the camt.054 is in the outbox, before the bank recorded it: the next run finds it there.
    await expect(runFolderBankOnce(bank, crashAt("-2-debit.xml"))).rejects.toThrow(/killed after writing/);
    const debitFiles = () => readdirSync(outbox()).filter((n) => n.endsWith("-2-debit.xml"));
    expect(debitFiles()).toHaveLength(1);
    const again = await runFolderBankOnce(bank, crashAt("-3-status.xml")).catch((e: Error) => e);
    expect(String(again)).toMatch(/killed after writing .*-3-status\.xml/);
    expect(debitFiles()).toHaveLength(1);
    // The API pulls (and archives) everything, the status report included, before the bank runs again: the bank
    // writes the status report again, byte for byte, and the API's import-once by SHA-256 takes it as a duplicate.
    expect(await pull()).toMatchObject({ imported: 3, duplicates: 0, failed: 0 });
    const third = await runFolderBankOnce(bank, { speed: "manual" });
    expect(third.written).toEqual([expect.stringMatching(/-3-status\.xml$/)]);
    expect(await pull()).toMatchObject({ imported: 0, duplicates: 1, failed: 0 });
    expect((await runFolderBankOnce(bank, { speed: "manual" })).written).toEqual([]);
    const rows = await outcome(crashed);
    expect(rows.map((r) => [r.status, r.amount === null ? null : Number(r.amount).toFixed(2)])).toEqual([
      ["settled", "77.00"],
    ]);
    const [n] = await queryRows<{ n: number }>(
      h.database.db,
      sql`select count(*)::int as n from transactions where end_to_end_id = ${e2e}`,
    );
    expect(n?.n).toBe(1);
    expect(await batchStatus(crashed)).toBe("completed");
  });

  it("refuses a file it cannot read, never answers a message twice, and yields to a live process's lock", async () => {
    writeFileSync(path.join(inbox(), "broken.xml"), "<Document><CstmrCdtTrfInitn>");
    writeFileSync(path.join(inbox(), "entity.xml"), '<!DOCTYPE x [<!ENTITY a "b">]><Document/>');
    const run = await runFolderBankOnce(bank, { speed: "manual" });
    expect(run).toMatchObject({ received: [], written: [], refused: ["broken.xml", "entity.xml"] });
    expect(readdirSync(inbox())).toEqual([]);
    // The same payment file again (the customer re-sent it): recorded as received, not answered again.
    const again = readdirSync(path.join(bank.stateDir, "company-a", "received"))[0] ?? "";
    writeFileSync(
      path.join(inbox(), `copy-${again}`),
      readFileSync(path.join(bank.stateDir, "company-a", "received", again)),
    );
    expect(await runFolderBankOnce(bank, { speed: "manual" })).toMatchObject({ written: [], refused: [] });
    // Another live process holds the lock: this one does nothing.
    writeFileSync(path.join(bank.stateDir, "bank.lock"), String(process.ppid));
    expect((await runFolderBankOnce(bank, { speed: "manual" })).busy).toBe(true);
    // A lock left by a dead process is taken over, and so is a live process's lock older than ten minutes.
    writeFileSync(path.join(bank.stateDir, "bank.lock"), "2147483646");
    expect((await runFolderBankOnce(bank, { speed: "manual" })).busy).toBe(false);
    writeFileSync(path.join(bank.stateDir, "bank.lock"), String(process.ppid));
    const old = new Date(Date.now() - 11 * 60_000);
    utimesSync(path.join(bank.stateDir, "bank.lock"), old, old);
    expect((await runFolderBankOnce(bank, { speed: "manual" })).busy).toBe(false);
  });
});
