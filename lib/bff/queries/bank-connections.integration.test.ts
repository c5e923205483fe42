/**
 * The bank connections health route (docs/bank-channels.md#operations) against the real local treasury-api
 * (in-memory PGlite, small demo seed): treasurers and admins read the selected company's connections with their
 * health and account names, never the channel's folders or credentials; a viewer and an approver are refused 403;
 * an API that does not advertise the extension answers 404 and the page hides the area. And the batch page's
 * "Sent to bank" (docs/bank-channels.md "Push"): a batch approved on an account served by a folder connection is
 * written once into the connection's inbox by the API's own worker, and the BFF's batch view carries its
 * `bank_delivery` (file name, time, bank).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.mock("server-only", () => ({}));
vi.mock("../../auth/session", async () => (await import("../testing/local-api")).sessionModule);
vi.mock("next/headers", async () => (await import("../testing/local-api")).headersModule);

import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { collectAll } from "../../treasury-client";
import { bffSuite, installCapabilities, testUser } from "../testing/local-api";
import type { BankConnectionHealthView } from "./bank-connections";
import * as route from "../../../app/api/treasury/bank-connections/route";
import * as viewRoute from "../../../app/api/treasury/payments/batches/[id]/view/route";
import type { BatchView } from "../../views/payments";

const bff = bffSuite({ origin: "http://127.0.0.1:3997", capabilities: "advertised" });
let dir: string;
let companyId: string;
let accountName: string;
let firstAccountId: string;

function get(roles: Parameters<typeof testUser>[1]) {
  const who = testUser(`bank.${roles.join("-")}`, roles);
  return bff.call<{ data?: BankConnectionHealthView[]; error?: { code: string } }>(
    route.GET,
    who,
    "GET",
    "/bank-connections",
    { companyId },
  );
}

beforeAll(async () => {
  const local = bff.local;
  dir = mkdtempSync(path.join(tmpdir(), "treasury-bank-health-"));
  const company = local.company();
  companyId = company.id;
  const [account] = await collectAll(local.client.listAccounts({ companyId }, { pageSize: 1 }), { maxPages: 1 });
  if (!account) throw new Error("the demo seed has no account");
  accountName = account.name;
  firstAccountId = account.id;
  // A folder connection whose outbox does not exist: its pull fails, so its health shows a failure.
  const res = await createFolderConnection("Health Bank", account.id, path.join(dir, "in"), path.join(dir, "missing"));
  if (res.status !== 201) throw new Error(`create connection: ${res.status} ${await res.text()}`);
  const { id } = (await res.json()) as { id: string };
  const pull = await fetch(`${local.baseUrl}/bank-connections/${id}/pull`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${await local.client.tokens.get()}`,
      "x-company-id": companyId,
      "idempotency-key": randomUUID(),
    },
  });
  if (pull.status !== 200) throw new Error(`pull: ${pull.status}`);
}, 120_000);
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** `POST /bank-connections` on the local API: a folder connection of `companyId` serving one account. */
async function createFolderConnection(bankName: string, accountId: string, inboxDir: string, outboxDir: string) {
  return fetch(`${bff.local.baseUrl}/bank-connections`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${await bff.local.client.tokens.get()}`,
      "x-company-id": companyId,
      "content-type": "application/json",
      "idempotency-key": randomUUID(),
    },
    body: JSON.stringify({
      bank_name: bankName,
      account_ids: [accountId],
      channel: { channel: "folder", inbox_dir: inboxDir, outbox_dir: outboxDir },
    }),
  });
}

describe("GET /api/treasury/bank-connections", () => {
  it("shows treasurers and admins each connection's health with account names, never folders or credentials", async () => {
    for (const roles of [["treasurer"], ["admin"]] as const) {
      const r = await get([...roles]);
      expect(r.status, roles.join()).toBe(200);
      const [c] = r.body.data ?? [];
      expect(c).toMatchObject({
        bank_name: "Health Bank",
        channel: "folder",
        state: "failing",
        accounts: [accountName],
        last_pull_ok_at: null,
        files_in_today: 0,
      });
      expect(c?.last_pull_at).toMatch(/^\d{4}-\d{2}-\d{2}T.*(Z|[+-]\d{2}:\d{2})$/);
      expect(c?.last_error).toBeTruthy();
      // The pull above failed; the API's own scheduled pull may have failed once more meanwhile.
      expect(c?.consecutive_failures).toBeGreaterThanOrEqual(1);
      expect(JSON.stringify(r.body)).not.toContain(path.join(dir, "in")); // the inbox folder stays on the server
      expect(Object.keys(c ?? {})).not.toContain("inbox_dir");
    }
  });

  it("refuses viewers and approvers", async () => {
    expect((await get(["viewer"])).status).toBe(403);
    expect((await get(["approver"])).status).toBe(403);
  });

  it("answers 404 where the API does not advertise bank connections", async () => {
    await installCapabilities(bff.local.baseUrl, "none");
    try {
      const r = await get(["admin"]);
      expect(r.status).toBe(404);
    } finally {
      await installCapabilities(bff.local.baseUrl, "advertised");
    }
  });
});

describe("Sent to bank on the batch page", () => {
  it("shows the payment file the API's worker wrote into the connection's inbox, once", async () => {
    const local = bff.local;
    const call = { companyId };
    const accounts = await collectAll(local.client.listAccounts(call, { pageSize: 100 }), { maxPages: 5 });
    const account = accounts.find((a) => a.id !== firstAccountId && a.status !== "closed");
    if (!account) throw new Error("the demo seed has one account only");
    const inbox = path.join(dir, "pay-in");
    const outbox = path.join(dir, "pay-out");
    mkdirSync(inbox);
    mkdirSync(outbox);
    const res = await createFolderConnection("Folder Bank", account.id, inbox, outbox);
    expect(res.status).toBe(201);
    const batch = await local.client.createBatch(
      { companyId, idempotencyKey: randomUUID() },
      {
        company_id: companyId,
        currency: account.currency,
        initiator: "maker@test.local",
        debtor_account_id: account.id,
        instructions: [
          {
            amount: "12.50",
            currency: account.currency,
            creditor_name: "Kreditor AS",
            creditor_iban: "NO9386011117947",
            end_to_end_id: "SENT-1",
          },
        ],
      },
    );
    const view = () =>
      bff.call<{ data?: BatchView } & Partial<BatchView>>(
        viewRoute.GET,
        testUser("bank.treasurer", ["treasurer"]),
        "GET",
        `/payments/batches/${batch.id}/view`,
        { companyId, params: { id: batch.id } },
      );
    const before = await view();
    expect(before.status).toBe(200);
    const batchOf = (b: typeof before.body) => (b.data ?? b).batch;
    expect(batchOf(before.body)?.bank_delivery).toBeNull(); // created: nothing sent

    await local.client.submitBatch({ companyId, idempotencyKey: randomUUID() }, batch.id);
    const pending = await collectAll(local.client.listPendingApprovals({ companyId }, { pageSize: 100 }));
    const request = pending.find((a) => a.object_id === batch.id);
    if (!request) throw new Error("no approval request for the batch");
    await local.client.approve({ companyId, idempotencyKey: randomUUID() }, request.id, {
      approver: "checker@test.local",
    });

    // The API's bank-channel worker runs every 5 s: wait for the delivery, not for a fixed time.
    const deadline = Date.now() + 45_000;
    let delivered = batchOf((await view()).body)?.bank_delivery;
    while (!delivered && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      delivered = batchOf((await view()).body)?.bank_delivery;
    }
    expect(delivered, "no bank_delivery within 45 s").toBeTruthy();
    const files = readdirSync(inbox);
    expect(files).toEqual([delivered?.file_name]);
    expect(delivered?.file_name).toBe(`TD${batch.id.replaceAll("-", "")}.xml`);
    expect(readFileSync(path.join(inbox, files[0] ?? ""), "utf8")).toContain("<EndToEndId>SENT-1</EndToEndId>");
    expect(delivered?.connection_name).toBe("Folder Bank");
    expect(delivered?.sent_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/);
    expect(Math.abs(Date.parse(delivered?.sent_at ?? "") - Date.now())).toBeLessThan(120_000);
  });
});
