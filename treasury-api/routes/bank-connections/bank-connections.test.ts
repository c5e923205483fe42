/**
 * Bank connections API (extension; docs/bank-channels.md): create / read / update / delete with credentials never
 * returned, bad and hostile input refused naming the field with nothing stored, "pull now" over a folder channel
 * (imported once, a bad file kept aside), and an approval that sends the batch's pain.001 to the connection's inbox
 * instead of the direct bank simulator.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../db/client";
import { ephemeralSecretKey } from "../../lib/secret-box";
import { pushDue, pushFileName } from "../../channels/exchange";
import { runBankOnce } from "../../domain/bank-simulator";
import { buildCamt } from "../../test/camt053-builder";
import { apiMetrics, stateRegistry } from "../../lib/metrics";
import { IDS, approvedBatchVia, createHarness, type Harness } from "../../test/harness";

let h: Harness;
let dir: string;
const today = new Date().toISOString().slice(0, 10);
const folder = () => ({
  channel: "folder",
  inbox_dir: path.join(dir, "inbox"),
  outbox_dir: path.join(dir, "outbox"),
});
const create = (json: unknown, company: string = IDS.companyA) =>
  h.write("POST", "/bank-connections", { company, json });
const count = async () =>
  Number((await queryRows<{ n: number }>(h.database.db, sql`select count(*)::int as n from bank_connections`))[0]?.n);

beforeAll(async () => {
  h = await createHarness();
  dir = mkdtempSync(path.join(tmpdir(), "treasury-bank-folder-"));
  mkdirSync(path.join(dir, "inbox"));
  mkdirSync(path.join(dir, "outbox"));
});
afterAll(async () => {
  await h.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("bank connections", () => {
  let folderId: string;

  it("creates a folder connection and an sftp one whose password is never returned", async () => {
    const res = await create({ bank_name: "DNB", account_ids: [IDS.accountA1], channel: folder() });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { id: string; account_ids: string[]; health: { consecutive_failures: number } };
    folderId = body.id;
    expect(body.account_ids).toEqual([IDS.accountA1]);
    expect(body.health.consecutive_failures).toBe(0);
    const sftp = await create({
      bank_name: "Nordea",
      account_ids: [IDS.accountA2],
      channel: {
        channel: "sftp",
        host: "sftp.nordea.example",
        username: "ACME",
        password: "hunter2-secret",
        host_key_fingerprint: "SHA256:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU",
        inbox: "/in",
        outbox: "/out",
      },
    });
    expect(sftp.status).toBe(201);
    const text = await sftp.text();
    expect(text).not.toContain("hunter2");
    expect(JSON.parse(text).channel).toMatchObject({ has_password: true, has_private_key: false, port: 22 });
    const rows = await queryRows<{ secret: string }>(
      h.database.db,
      sql`select secret from bank_connections where bank_name = 'Nordea'`,
    );
    expect(rows[0]?.secret).toMatch(/^enc:v1:/);
    const list = await h.call("GET", "/bank-connections", { client: "fullB", company: IDS.companyA });
    expect(await list.text()).not.toContain("hunter2");
  });

  it("refuses bad and hostile input naming the field, storing nothing", async () => {
    const before = await count();
    const cases: [unknown, string][] = [
      [
        { bank_name: "X", account_ids: [IDS.accountA1], channel: { ...folder(), inbox_dir: "relative/in" } },
        "inbox_dir",
      ],
      [{ bank_name: "X", account_ids: [IDS.accountB1], channel: folder() }, "account_ids"],
      [{ bank_name: "X", account_ids: [IDS.accountA1], channel: folder() }, "account_ids"], // served already
      [{ bank_name: "X", account_ids: [], channel: folder() }, "account_ids"],
      [{ bank_name: "X\u0000", account_ids: [IDS.accountA1], channel: folder() }, "bank_name"],
      [{ bank_name: "X", account_ids: [IDS.accountA1], channel: folder(), after_import: "archive" }, "archive_dir"],
      [{ bank_name: "X", account_ids: [IDS.accountA1], channel: folder(), extra: 1 }, "extra"],
      [
        {
          bank_name: "X",
          account_ids: [IDS.accountA1],
          channel: {
            channel: "sftp",
            host: "h",
            username: "u",
            host_key_fingerprint: "md5:aa",
            inbox: "/i",
            outbox: "/o",
          },
        },
        "channel",
      ],
      [
        {
          bank_name: "X",
          account_ids: [IDS.accountA1],
          channel: {
            channel: "sftp",
            host: "h;rm -rf /",
            username: "u",
            password: "p",
            inbox: "/i",
            outbox: "/o",
            host_key_fingerprint: "SHA256:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU",
          },
        },
        "host",
      ],
    ];
    for (const [json, field] of cases) {
      const res = await create(json);
      const text = await res.text();
      expect(res.status, text).toBe(400);
      expect(text).toContain(field);
    }
    expect(await count()).toBe(before);
    expect(
      (await h.call("GET", `/bank-connections/${folderId}`, { client: "fullB", company: IDS.companyB })).status,
    ).toBe(404);
    expect(
      (await h.call("GET", "/bank-connections/not-a-uuid", { client: "fullB", company: IDS.companyA })).status,
    ).toBe(400);
    expect((await h.call("GET", "/bank-connections", { client: "readB", company: IDS.companyA })).status).toBe(403);
  });

  it("pulls now: imports a statement once, keeps a bad file aside, lists the files", async () => {
    writeFileSync(
      path.join(dir, "outbox", "a.xml"),
      buildCamt({
        version: "08",
        message: "camt.054",
        messageId: "PULL-1",
        createdAt: `${today}T06:00:00+00:00`,
        statements: [
          {
            id: "N-1",
            createdAt: `${today}T06:00:00+00:00`,
            account: { iban: "NO9386011117947", currency: "NOK" },
            balances: [],
            entries: [{ amount: "12.34", currency: "NOK", direction: "credit", booked: today, entryRef: "P1" }],
          },
        ],
      }),
    );
    writeFileSync(path.join(dir, "outbox", "b.txt"), "not a bank file");
    const pull = () => h.write("POST", `/bank-connections/${folderId}/pull`);
    const first = await pull();
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ listed: 2, imported: 1, duplicates: 0, failed: 1, error: null });
    expect(await (await pull()).json()).toEqual({ listed: 2, imported: 0, duplicates: 1, failed: 0, error: null });
    const files = (await (
      await h.call("GET", `/bank-connections/${folderId}/files`, { client: "fullB", company: IDS.companyA })
    ).json()) as { data: { file_name: string; status: string; sha256: string; reason: string | null }[] };
    expect(files.data.map((f) => [f.file_name, f.status]).sort()).toEqual([
      ["a.xml", "imported"],
      ["b.txt", "failed"],
    ]);
    expect(files.data.find((f) => f.status === "failed")?.reason).toMatch(/not a bank file/);
    const got = (await (
      await h.call("GET", `/bank-connections/${folderId}`, { client: "fullB", company: IDS.companyA })
    ).json()) as { health: { last_pull_ok_at: string | null; files_in_today: number; failed_files_today: number } };
    expect(got.health).toMatchObject({ files_in_today: 1, failed_files_today: 1 });
    expect(got.health.last_pull_ok_at).not.toBeNull();
  });

  it("sends an approved batch paid from a served account to the inbox, and the direct simulator leaves it", async () => {
    const batchId = await approvedBatchVia(h, {
      currency: "NOK",
      debtorAccountId: IDS.accountA1,
      instructions: [{ amount: "250.00", creditor_name: "Kreditor AS", end_to_end_id: "CH-1" }],
    });
    await runBankOnce(h.database.db, { bankSpeed: "instant" }, { now: () => new Date(Date.now() + 86_400_000) });
    const [status] = await queryRows<{ status: string }>(
      h.database.db,
      sql`select status from payment_batches where id = ${batchId}`,
    );
    expect(status?.status).toBe("approved");
    const read = async () =>
      (await (
        await h.call("GET", `/payments/batches/${batchId}`, { client: "fullB", company: IDS.companyA })
      ).json()) as { bank_delivery?: { file_name: string; sent_at: string; connection_name: string } | null };
    expect((await read()).bank_delivery).toBeNull(); // queued, not sent yet
    const before = Date.now();
    const pushed = await pushDue(h.database.db, ephemeralSecretKey());
    expect(pushed.sent).toEqual([{ batchId, fileName: pushFileName(batchId), uploaded: true }]);
    expect(readdirSync(path.join(dir, "inbox"))).toEqual([pushFileName(batchId)]);
    expect(readFileSync(path.join(dir, "inbox", pushFileName(batchId)), "utf8")).toContain(
      "<EndToEndId>CH-1</EndToEndId>",
    );
    const { bank_delivery: delivery } = await read();
    expect(delivery).toMatchObject({ file_name: pushFileName(batchId), connection_name: expect.any(String) });
    expect(delivery?.sent_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/);
    expect(Date.parse(delivery?.sent_at ?? "")).toBeGreaterThanOrEqual(before - 1000);
    // Another company's client cannot read the batch, nor its delivery.
    expect(
      (await h.call("GET", `/payments/batches/${batchId}`, { client: "fullB", company: IDS.companyB })).status,
    ).toBe(404);
    // Advertised as an extension of PaymentBatch in the OpenAPI document.
    type Schema = { properties?: Record<string, Schema>; type?: string | string[]; description?: string };
    const doc = (await (await h.call("GET", "/openapi.json")).json()) as {
      components: { schemas: Record<string, Schema> };
    };
    const field = doc.components.schemas.PaymentBatch?.properties?.bank_delivery;
    expect(field?.type).toEqual(["object", "null"]);
    expect(field?.description).toMatch(/^Extension/);
    expect(Object.keys(field?.properties ?? {})).toEqual(["file_name", "sent_at", "connection_name"]);
  });

  it("exposes pulls, pushes, files and lag as Prometheus metrics; a failing connection shows", async () => {
    // A connection (company B) whose outbox folder does not exist: its pull fails.
    const broken = await create(
      {
        bank_name: "Broken bank",
        account_ids: [IDS.accountB1],
        channel: { channel: "folder", inbox_dir: path.join(dir, "nowhere-in"), outbox_dir: path.join(dir, "nowhere") },
      },
      IDS.companyB,
    );
    expect(broken.status).toBe(201);
    const brokenId = ((await broken.json()) as { id: string }).id;
    const pull = await h.write("POST", `/bank-connections/${brokenId}/pull`, { company: IDS.companyB });
    expect(((await pull.json()) as { error: string | null }).error).toBeTruthy();

    const text = (await apiMetrics().registry.metrics()) + (await stateRegistry(h.database.db).metrics());
    const value = (line: string) => {
      const m = text.split("\n").find((l) => l.startsWith(`${line} `));
      return m === undefined ? undefined : Number(m.slice(line.length + 1));
    };
    // The earlier tests of this file pulled twice (one import, one bad file, one duplicate) and pushed one file.
    expect(value('treasury_api_bank_channel_pulls_total{outcome="ok"}')).toBeGreaterThanOrEqual(2);
    expect(value('treasury_api_bank_channel_pulls_total{outcome="failed"}')).toBeGreaterThanOrEqual(1);
    expect(value('treasury_api_bank_channel_pushes_total{outcome="ok"}')).toBeGreaterThanOrEqual(1);
    expect(value('treasury_api_bank_channel_files_total{direction="in",result="imported"}')).toBeGreaterThanOrEqual(1);
    expect(value('treasury_api_bank_channel_files_total{direction="in",result="duplicate"}')).toBeGreaterThanOrEqual(1);
    expect(value('treasury_api_bank_channel_files_total{direction="in",result="failed"}')).toBeGreaterThanOrEqual(1);
    expect(value('treasury_api_bank_channel_files_total{direction="out",result="sent"}')).toBeGreaterThanOrEqual(1);
    expect(value("treasury_api_bank_connections_failing")).toBe(1);
    // Nordea (sftp) never pulled: the pull lag counts from its creation; the one payment file was sent.
    expect(value("treasury_api_bank_channel_pull_lag_seconds")).toBeGreaterThan(0);
    expect(value("treasury_api_bank_channel_push_lag_seconds")).toBe(0);
    const del = await h.write("DELETE", `/bank-connections/${brokenId}`, { company: IDS.companyB });
    expect(del.status).toBe(204);
  });

  it("deletes a connection, audited", async () => {
    const list = (await (
      await h.call("GET", "/bank-connections", { client: "fullB", company: IDS.companyA })
    ).json()) as {
      data: { id: string; bank_name: string }[];
    };
    const nordea = list.data.find((c) => c.bank_name === "Nordea");
    const del = await h.write("DELETE", `/bank-connections/${nordea?.id}`);
    expect(del.status).toBe(204);
    const audit = await queryRows<{ action: string }>(
      h.database.db,
      sql`select action from bank_connection_audit where connection_id = ${nordea?.id ?? ""} order by occurred_at`,
    );
    expect(audit.map((a) => a.action)).toEqual(["created", "deleted"]);
  });
});
