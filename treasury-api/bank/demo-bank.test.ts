/**
 * Demo mode's bank (docs/bank-channels.md "The simulated bank behind a channel") on a real server on loopback: the
 * demo seed with `simulatedBank: "folder"` wires one folder connection per company and the folder bank, and a batch
 * approved over HTTP travels only as files — pushed to the bank's inbox, answered into its outbox, pulled — until the
 * batch is final, with "sent to bank" on its read. One server (in-memory PGlite, its bank in a temporary folder).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pushFileName } from "../channels/exchange";
import type { RunningServer } from "../server";
import { clientToken, startLoopbackServer } from "../test/loopback";
import { DEMO_BANK_NAME } from "./demo-wiring";

let api: RunningServer;
let token: string;
let bankDir: string;

const call = (method: string, p: string, company: string, json?: unknown) =>
  fetch(`${api.url}/public${p}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      "x-company-id": company,
      "content-type": "application/json",
      "idempotency-key": crypto.randomUUID(),
    },
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  });

beforeAll(async () => {
  api = await startLoopbackServer({
    seed: "demo",
    seedScale: 0.01,
    bankSpeed: "instant",
    simulatedBank: "folder",
  });
  const client = api.fixtures?.clients.find((c) => c.form === "B" && c.write_approved && c.company_ids.length > 0);
  if (!client) throw new Error("no demo Form B client");
  token = await clientToken(api.url, client.client_id, client.client_secret);
}, 120_000);

afterAll(async () => {
  await api?.close();
  if (bankDir) expect(existsSync(bankDir)).toBe(false);
});

describe("the demo's payments travel as files", () => {
  it("wires a folder connection per company and settles an approved batch through the folder bank", async () => {
    const fixtures = api.fixtures;
    const company = fixtures?.companies[0];
    const account = fixtures?.accounts.find((a) => a.company_id === company?.id);
    if (!company || !account) throw new Error("no demo company with an account");
    type Connection = { bank_name: string; account_ids: string[]; channel: { outbox_dir: string } };
    const res = await call("GET", "/bank-connections", company.id);
    expect(res.status, await res.clone().text()).toBe(200);
    const list = ((await res.json()) as { data: Connection[] }).data;
    expect(list.map((c) => c.bank_name)).toEqual([DEMO_BANK_NAME]);
    expect(list[0]?.account_ids).toContain(account.id);
    const outboxDir = list[0]?.channel.outbox_dir ?? "";
    bankDir = path.dirname(path.dirname(outboxDir));
    const bankJson = JSON.parse(readFileSync(path.join(bankDir, "bank.json"), "utf8")) as {
      desks: { name: string; accounts: { iban: string; opening?: { balance: string } }[] }[];
    };
    expect(bankJson.desks.map((d) => d.name)).toContain(company.id);
    expect(bankJson.desks.flatMap((d) => d.accounts).every((a) => a.opening !== undefined)).toBe(true);

    const created = await call("POST", "/payments/batches", company.id, {
      company_id: company.id,
      currency: account.currency,
      initiator: "maker@example.com",
      debtor_account_id: account.id,
      instructions: [
        {
          amount: "120.00",
          currency: account.currency,
          creditor_name: "Kreditor AS",
          creditor_iban: "NO8330001234567",
          end_to_end_id: "DEMO-FILES-1",
        },
        {
          amount: "80.00",
          currency: account.currency,
          creditor_name: "Please REJECT AS",
          creditor_iban: "NO8330001234567",
          end_to_end_id: "DEMO-FILES-2",
        },
      ],
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const batchId = ((await created.json()) as { id: string }).id;
    expect((await call("POST", `/payments/batches/${batchId}/submit`, company.id)).status).toBe(202);
    type Approval = { id: string; object_id: string };
    let request: Approval | undefined;
    for (let page = 1; !request && page < 50; page++) {
      const body = (await (await call("GET", `/approvals/pending?page=${page}`, company.id)).json()) as {
        results: Approval[];
        next: string | null;
      };
      request = body.results.find((a) => a.object_id === batchId);
      if (!body.next) break;
    }
    expect((await call("POST", `/approvals/${request?.id}/approve`, company.id, {})).status).toBe(200);

    // Bounded wait for the files to go round: push, ack, camt.054 + final pain.002, each pulled.
    type Batch = { status: string; bank_delivery: { file_name: string } | null };
    let batch: Batch | null = null;
    // (60 s: the demo's seven companies are pulled every 2 s; a loaded two-core machine stretches every step.)
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      batch = (await (await call("GET", `/payments/batches/${batchId}`, company.id)).json()) as Batch;
      if (batch.status === "partially_completed") break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(batch).toMatchObject({ status: "partially_completed", bank_delivery: { file_name: pushFileName(batchId) } });
    const archived = readdirSync(path.join(path.dirname(outboxDir), "archive"));
    const mine = archived.filter((n) => n.includes(pushFileName(batchId).slice(0, -4)));
    expect(mine.map((n) => n.replace(/^.*-(\d-\w+\.xml)$/, "$1"))).toEqual([
      "1-ack.xml",
      "2-debit.xml",
      "3-status.xml",
    ]);
    const received = readdirSync(path.join(bankDir, "state", company.id, "received"));
    expect(received).toEqual([pushFileName(batchId)]);
  }, 120_000);
});
