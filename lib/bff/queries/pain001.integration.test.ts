/**
 * The pain.001 export against the real local treasury-api (in-memory PGlite,
 * small demo seed): the capability read from the API's own OpenAPI document,
 * the debtor account the bank simulator would debit, every instruction, the
 * notes headers, and the states that get no file.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.mock("server-only", () => ({}));

import { randomUUID } from "node:crypto";
import { XMLParser } from "fast-xml-parser";
import { collectAll, type TreasuryClient } from "../../treasury-client";
import { startLocalApi, type LocalApi } from "../testing/local-api";
import type { Capabilities } from "../capabilities";
import type { BffContext } from "../context";
import { BffError } from "../errors";
import { exportPain001, getDebtorAccountView } from "./pain001";

let local: LocalApi;
let client: TreasuryClient;
let caps: Capabilities;
let ctx: BffContext & { audit: { details?: Record<string, unknown> } };
let companyId: string;

beforeAll(async () => {
  local = await startLocalApi({ capabilities: "advertised" });
  const c = local.company();
  companyId = c.id;
  client = local.client;
  if (!local.capabilities) throw new Error("capabilities not installed");
  caps = local.capabilities;
  ctx = {
    user: { id: "u1", email: "t@test.local", name: "T", roles: ["treasurer"], companyIds: null, disabled: false },
    companies: [c],
    company: c,
    requestId: "test",
    audit: {},
  };
}, 120_000);

afterAll(async () => {
  caps?.stop();
  await local?.api.close();
});

async function batch(creditor: string): Promise<string> {
  const b = await client.createBatch(
    { companyId, idempotencyKey: randomUUID() },
    {
      company_id: companyId,
      currency: "NOK",
      instructions: [
        {
          amount: "0.10",
          currency: "NOK",
          creditor_name: creditor,
          creditor_iban: "NO9386011117947",
          end_to_end_id: "I-1",
        },
        {
          amount: "0.20",
          currency: "NOK",
          creditor_name: "Fjordkraft AS",
          creditor_iban: "DE89370400440532013000",
          end_to_end_id: "I-2",
        },
      ],
    },
  );
  return b.id;
}

describe("pain.001 export through the BFF", () => {
  it("the local API advertises the debtor-account extension in its OpenAPI document", async () => {
    await caps.ready;
    expect(caps.has("payments.debtor_account")).toBe(true);
  });

  it("writes the batch from the company's first active NOK account, notes transliteration, audits", async () => {
    const id = await batch("Bjørn Ærø AS");
    const accounts = await collectAll(client.listAccounts({ companyId }, { currency: "NOK", pageSize: 1000 }));
    const first = accounts
      .filter((a) => a.status !== "closed")
      .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id))[0];
    const view = await getDebtorAccountView(ctx, id);
    expect(view.reason).toBeNull();
    expect(view.account?.account_id).toBe(first?.id);
    expect(view.account?.iban_masked).toBe(first?.iban_masked);

    const res = await exportPain001(ctx, id, {});
    expect(res.headers.get("content-type")).toBe("application/xml; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="pain.001.001.09_${id}.xml"`);
    expect(res.headers.get("x-pain001-notes")).toBe("transliterated=1; truncated=0; agent_not_provided=0");
    expect(res.headers.get("x-pain001-fields")).toBe(
      encodeURIComponent("transliterated:instructions[0].creditor_name"),
    );
    const doc = new XMLParser({ parseTagValue: false }).parse(await res.text()) as {
      Document: { CstmrCdtTrfInitn: { GrpHdr: Record<string, unknown>; PmtInf: Record<string, unknown> } };
    };
    const { GrpHdr, PmtInf } = doc.Document.CstmrCdtTrfInitn;
    expect(GrpHdr).toMatchObject({ NbOfTxs: "2", CtrlSum: "0.30", InitgPty: { Nm: "Nordlys Norge AS" } });
    expect((PmtInf.DbtrAcct as { Id: { IBAN: string } }).Id.IBAN).toMatch(
      new RegExp(`^${first?.iban_masked.slice(0, 4)}.*${first?.iban_masked.slice(-4)}$`),
    );
    expect(ctx.audit.details).toMatchObject({
      version: "pain.001.001.09",
      instructions: 2,
      control_sum: "0.30",
      debtor_account_id: first?.id,
      notes: 1,
    });
  });

  it("gives no file for a batch pending approval", async () => {
    const id = await batch("Pending AS");
    await client.submitBatch({ companyId, idempotencyKey: randomUUID() }, id);
    await expect(exportPain001(ctx, id, {})).rejects.toMatchObject({
      code: "conflict",
      details: { state: "pending_approval" },
    });
    await expect(exportPain001(ctx, id, {})).rejects.toBeInstanceOf(BffError);
  });
});
