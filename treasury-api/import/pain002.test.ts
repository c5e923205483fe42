/**
 * pain.002 status reports through the real app (POST /statements): the round trip from our pain.001 export to the
 * bank's report (two settled, one accepted, one rejected AC04), status events, the webhook delivery to a loopback
 * receiver, idempotent re-import, group rejection, camt.054 debit settlement, the refusals (unknown / other
 * company's batch read the same, batch never sent, unknown end-to-end id) and a rejected payment paid again without
 * a duplicate signal. One PGlite database for the file.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import nodePath from "node:path";
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { StatementImportResult } from "@treasury/contract/statements";
import { paymentBatches, paymentStatusEvents, reconciliationMatches, webhookEvents } from "../db/schema";
import { IDS } from "../test/harness";
import { buildCamt } from "../test/camt053-builder";
import { buildPain002, pain002For } from "../test/pain002-builder";
import { uploadStatements } from "../test/statement-upload";
import { runWebhooksOnce } from "../webhooks/delivery";
import { captureCliOutput } from "../test/import-db";
import { webhookHarnessForFile } from "../test/webhook-harness";
import { runImportCli } from "./cli";
import { batchIdFromReference, isPain002, parsePain002 } from "./pain002";

const { h, rx, config } = webhookHarnessForFile({ bankSpeed: "manual" });

type Instruction = { id: string; end_to_end_id: string; status: string; amount: string; creditor_iban: string };
type Batch = {
  id: string;
  status: string;
  currency: string;
  requested_execution_date: string | null;
  created_at: string;
};

let seq = 0;
const e2e = (tag: string) => `P2-${tag}-${++seq}`;

async function json<T>(res: Response, status = 200): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}

/** Creates, submits and approves a NOK batch of company A; returns it with its instructions. */
async function approvedBatch(amounts: string[], company: string = IDS.companyA, currency = "NOK") {
  const ids = amounts.map(() => e2e("I"));
  const batch = await json<Batch>(
    await h.call("POST", "/payments/batches", {
      client: "fullB",
      company,
      idem: true,
      json: {
        company_id: company,
        currency,
        instructions: amounts.map((amount, i) => ({
          amount,
          currency,
          creditor_name: `Creditor ${i + 1}`,
          creditor_iban: "NO93 8601 1117 947",
          end_to_end_id: ids[i],
        })),
      },
    }),
    201,
  );
  await json(
    await h.call("POST", `/payments/batches/${batch.id}/submit`, { client: "fullB", company, idem: true }),
    202,
  );
  const queue = await json<{ results: { id: string; object_id: string; required_count: number }[] }>(
    await h.call("GET", "/approvals/pending?page_size=1000", { client: "fullB" }),
  );
  const req = queue.results.find((r) => r.object_id === batch.id);
  for (let i = 0; i < (req?.required_count ?? 0); i++)
    await json(
      await h.call("POST", `/approvals/${req?.id}/approve`, {
        client: "fullB",
        idem: true,
        json: { approver: `ap-${i}` },
      }),
    );
  return { batch: await getBatch(batch.id, company), instructions: await instructionsOf(batch.id, company) };
}

async function getBatch(id: string, company: string = IDS.companyA): Promise<Batch> {
  return json<Batch>(await h.call("GET", `/payments/batches/${id}`, { client: "fullB", company }));
}

async function instructionsOf(id: string, company: string = IDS.companyA): Promise<Instruction[]> {
  return (
    await json<{ results: Instruction[] }>(
      await h.call("GET", `/payments/batches/${id}/instructions?page_size=100`, { client: "fullB", company }),
    )
  ).results;
}

/**
 * The ids our pain.001 export gives the batch (lib/iso20022/pain001.ts: message id `TD` + the batch id without
 * dashes, payment information id `TDP` + the same; lib/iso20022/pain002-roundtrip.test.ts checks the export against
 * this importer), written as a minimal pain.001 for the bank builder to answer.
 */
function exportPain001(batch: Batch, instructions: Instruction[]): string {
  const hex = batch.id.replace(/-/g, "");
  return `<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.03"><CstmrCdtTrfInitn><GrpHdr><MsgId>TD${hex}</MsgId></GrpHdr><PmtInf><PmtInfId>TDP${hex}</PmtInfId>${instructions
    .map((i) => `<CdtTrfTxInf><PmtId><EndToEndId>${i.end_to_end_id}</EndToEndId></PmtId></CdtTrfTxInf>`)
    .join("")}</PmtInf></CstmrCdtTrfInitn></Document>`;
}

const upload = (files: { name: string; content: string }[], company: string = IDS.companyA) =>
  uploadStatements(h, files, { company });

async function eventsOf(batchId: string) {
  return h.database.db
    .select()
    .from(paymentStatusEvents)
    .where(eq(paymentStatusEvents.batchId, batchId))
    .orderBy(paymentStatusEvents.occurredAt, paymentStatusEvents.status);
}

async function outboxCount(): Promise<number> {
  const [row] = await h.database.db
    .select({ n: sql<number>`count(*)::int` })
    .from(webhookEvents)
    .where(eq(webhookEvents.type, "payment.status.updated"));
  return row?.n ?? 0;
}

describe("pain.002 round trip", () => {
  it("export → bank report (2 settled, 1 accepted, 1 rejected AC04) → statuses, events, webhook; again changes nothing", async () => {
    const path = "/pain002-hook";
    const ep = await json<{ id: string; secret: string }>(
      await h.call("POST", "/webhooks", {
        client: "fullB",
        idem: true,
        json: { url: `${rx.url}${path}`, events: ["payment.status.updated"] },
      }),
      201,
    );
    rx.secrets.set(ep.id, ep.secret);
    const { batch, instructions } = await approvedBatch(["100.00", "200.00", "300.00", "400.00"]);
    expect(batch.status).toBe("approved");
    const pain001 = exportPain001(batch, instructions);
    const [a, b, c, d] = instructions.map((i) => i.end_to_end_id) as [string, string, string, string];
    const report = pain002For(pain001, {
      [a]: { code: "ACSC" },
      [b]: { code: "ACCC" },
      [c]: { code: "ACSP" },
      [d]: { code: "RJCT", reason: "AC04", info: ["Account closed 2026-01-31"] },
    });
    expect(isPain002(report)).toBe(true);

    const res = await upload([{ name: "status.xml", content: report }]);
    const body = StatementImportResult.parse(await json(res));
    const file = body.files[0];
    expect(file?.message_type).toBe("pain.002");
    expect(file?.version).toBe("pain.002.001.03");
    expect(file?.transactions_inserted).toBe(0);
    expect(file?.status_report?.batch_id).toBe(batch.id);
    expect(file?.status_report?.batch_status_from).toBe("approved");
    expect(file?.status_report?.batch_status_to).toBe("processing");
    expect(file?.status_report?.changes.map((x) => [x.end_to_end_id, x.from, x.to, x.reason_code])).toEqual([
      [a, "pending", "settled", null],
      [b, "pending", "settled", null],
      [c, "pending", "accepted", null],
      [d, "pending", "rejected", "AC04"],
    ]);
    expect(file?.status_report?.changes[3]?.reason_text).toBe("Closed account number — Account closed 2026-01-31");

    expect((await instructionsOf(batch.id)).map((i) => [i.end_to_end_id, i.status])).toEqual([
      [a, "settled"],
      [b, "settled"],
      [c, "accepted"],
      [d, "rejected"],
    ]);
    expect((await getBatch(batch.id)).status).toBe("processing");
    const events = await eventsOf(batch.id);
    // Settled ones pass through accepted: 2 × 2 + 1 + 1 events.
    expect(events).toHaveLength(6);
    const rejected = events.find((e) => e.status === "rejected");
    expect([rejected?.reason, rejected?.reasonText]).toEqual([
      "AC04",
      "Closed account number — Account closed 2026-01-31",
    ]);

    // The API's status events carry the reason and its text.
    const listed = await json<{
      results: { instruction_id: string; status: string; reason: string | null; reason_text?: string }[];
    }>(
      await h.call("GET", `/payments/status-events?batch_id=${batch.id}&page_size=100`, {
        client: "fullB",
        company: IDS.companyA,
      }),
    );
    expect(listed.results.find((e) => e.status === "rejected")).toMatchObject({
      reason: "AC04",
      reason_text: "Closed account number — Account closed 2026-01-31",
    });

    // The webhook: one payment.status.updated per event, the rejection with its reason, signed for the endpoint.
    const until = Date.now() + 20_000;
    while (rx.received.filter((r) => r.path === path).length < 6) {
      if (Date.now() > until) throw new Error("webhook deliveries did not arrive in time");
      await runWebhooksOnce(h.database.db, config);
      await new Promise((r) => setTimeout(r, 5));
    }
    const mine = rx.received.filter((r) => r.path === path);
    expect(mine.every((r) => r.body.type === "payment.status.updated" && r.validFor.includes(ep.id))).toBe(true);
    const hook = mine.find((r) => r.body.data?.status === "rejected");
    expect(hook?.body.data).toMatchObject({
      batch_id: batch.id,
      reason: "AC04",
      reason_text: "Closed account number — Account closed 2026-01-31",
    });

    // Again: nothing changes, no event, no webhook.
    const outbox = await outboxCount();
    const again = StatementImportResult.parse(
      await json(await upload([{ name: "status-again.xml", content: report }])),
    );
    expect(again.files[0]?.status_report?.changes).toEqual([]);
    expect(await eventsOf(batch.id)).toHaveLength(6);
    expect(await outboxCount()).toBe(outbox);

    // The bank settles the accepted one later (pain.002.001.10): the batch is partially completed.
    const later = pain002For(pain001, { [c]: { code: "ACSC" } }, { version: "10", messageId: "STS-LATER" });
    const last = StatementImportResult.parse(await json(await upload([{ name: "later.xml", content: later }])));
    expect(last.files[0]?.version).toBe("pain.002.001.10");
    expect(last.files[0]?.status_report?.changes.map((x) => [x.from, x.to])).toEqual([["accepted", "settled"]]);
    expect(last.files[0]?.status_report?.batch_status_to).toBe("partially_completed");
    expect((await getBatch(batch.id)).status).toBe("partially_completed");

    // A late RJCT for a settled instruction is listed as ignored, never applied.
    const late = pain002For(pain001, { [a]: { code: "RJCT", reason: "AM04" } }, { messageId: "STS-LATE" });
    const ignored = StatementImportResult.parse(await json(await upload([{ name: "late.xml", content: late }])));
    expect(ignored.files[0]?.status_report?.changes).toEqual([]);
    expect(ignored.files[0]?.status_report?.ignored).toMatchObject([
      { end_to_end_id: a, status: "settled", bank_status: "RJCT" },
    ]);
  }, 60_000);

  it("a group RJCT rejects every instruction and fails the batch; a proposed match of it is rejected", async () => {
    const { batch, instructions } = await approvedBatch(["10.00", "20.00"]);
    const pain001 = exportPain001(batch, instructions);
    const report = pain002For(pain001, {}, { groupStatus: { code: "RJCT", reason: "AM10", info: ["control sum"] } });
    const body = StatementImportResult.parse(await json(await upload([{ name: "grp.xml", content: report }])));
    expect(body.files[0]?.status_report?.changes.map((c) => [c.to, c.reason_code, c.reason_text])).toEqual([
      ["rejected", "AM10", "Invalid control sum — control sum"],
      ["rejected", "AM10", "Invalid control sum — control sum"],
    ]);
    expect((await getBatch(batch.id)).status).toBe("failed");
    const proposed = await h.database.db
      .select()
      .from(reconciliationMatches)
      .where(
        and(
          eq(reconciliationMatches.paymentInstructionId, instructions[0]?.id ?? ""),
          eq(reconciliationMatches.state, "proposed"),
        ),
      );
    expect(proposed).toEqual([]);
  });

  it("a rejected instruction is never proposed for matching when its debit shows up on a statement", async () => {
    const { batch, instructions } = await approvedBatch(["61.25", "62.50"]);
    const [a, b] = instructions as [Instruction, Instruction];
    const report = pain002For(exportPain001(batch, instructions), {
      [a.end_to_end_id]: { code: "ACSC" },
      [b.end_to_end_id]: { code: "RJCT", reason: "AC04", info: ["Account closed"] },
    });
    expect((await upload([{ name: "sts.xml", content: report }])).status).toBe(200);
    // The bank's statement then books both amounts with their end-to-end ids (a best-case match for each).
    const day = new Date().toISOString().slice(0, 10);
    const statement = buildCamt({
      version: "08",
      messageId: `S-${batch.id}`,
      createdAt: `${day}T18:00:00Z`,
      statements: [
        {
          id: `S-${batch.id}`,
          createdAt: `${day}T18:00:00Z`,
          account: { iban: "NO9386011117947", currency: "NOK" },
          balances: [
            { code: "OPBD", amount: "1000.00", currency: "NOK", date: day },
            { code: "CLBD", amount: "876.25", currency: "NOK", date: day },
          ],
          entries: [a, b].map((ins) => ({
            amount: ins.amount,
            currency: "NOK",
            direction: "debit" as const,
            booked: day,
            servicerRef: `SR-${ins.end_to_end_id}`,
            txs: [{ endToEndId: ins.end_to_end_id, counterparty: "Creditor" }],
          })),
        },
      ],
    });
    expect((await upload([{ name: "stmt.xml", content: statement }])).status).toBe(200);
    const matchesOf = (id: string) =>
      h.database.db.select().from(reconciliationMatches).where(eq(reconciliationMatches.paymentInstructionId, id));
    // The settled one is matched (the matcher ran on this statement); the rejected one has no match in any state.
    expect((await matchesOf(a.id)).length).toBeGreaterThan(0);
    expect(await matchesOf(b.id)).toEqual([]);
    const [, rejected] = await instructionsOf(batch.id);
    expect(rejected?.status).toBe("rejected");
  });

  it("a payment information RJCT with transactions listed only by id applies the payment's status", async () => {
    const { batch, instructions } = await approvedBatch(["11.00"]);
    const [ins] = instructions;
    const report = buildPain002({
      version: "10",
      messageId: "STS-PMT",
      originalMessageId: `TD${batch.id.replace(/-/g, "")}`,
      payments: [
        {
          paymentInformationId: `TDP${batch.id.replace(/-/g, "")}`,
          status: { code: "RJCT", proprietaryReason: "X99", info: ["cut-off passed"] },
          txs: [{ code: "", endToEndId: ins?.end_to_end_id, noStatus: true }],
        },
      ],
    });
    const body = StatementImportResult.parse(await json(await upload([{ name: "pmt.xml", content: report }])));
    expect(body.files[0]?.status_report?.changes).toMatchObject([
      { to: "rejected", reason_code: "X99", reason_text: "cut-off passed" },
    ]);
  });

  it("a camt.054 debit notification settles the instruction with its end-to-end id (once)", async () => {
    const { batch, instructions } = await approvedBatch(["55.50"]);
    const [ins] = instructions;
    const day = new Date().toISOString().slice(0, 10);
    const camt = buildCamt({
      message: "camt.054",
      version: "08",
      messageId: `N-${batch.id}`,
      createdAt: `${day}T12:00:00Z`,
      statements: [
        {
          id: `N-${batch.id}`,
          createdAt: `${day}T12:00:00Z`,
          account: { iban: "NO9386011117947", currency: "NOK" },
          balances: [],
          entries: [
            {
              amount: "55.50",
              currency: "NOK",
              direction: "debit",
              booked: day,
              servicerRef: `SR-${batch.id}`,
              txs: [{ endToEndId: ins?.end_to_end_id, counterparty: "Creditor 1" }],
            },
          ],
        },
      ],
    });
    for (const name of ["n.xml", "n-again.xml"]) expect((await upload([{ name, content: camt }])).status).toBe(200);
    const [after] = await instructionsOf(batch.id);
    expect(after?.status).toBe("settled");
    expect((await getBatch(batch.id)).status).toBe("completed");
    expect((await eventsOf(batch.id)).map((e) => e.status)).toEqual(["accepted", "settled"]);
  });
});

describe("import-statements command line with pain.002 files", () => {
  it("--json lists the status changes; --dry-run changes nothing; then the real run applies them", async () => {
    const { batch, instructions } = await approvedBatch(["10.00", "20.00"]);
    const [a, b] = instructions.map((i) => i.end_to_end_id) as [string, string];
    const report = pain002For(exportPain001(batch, instructions), {
      [a]: { code: "ACSC" },
      [b]: { code: "RJCT", reason: "AC04", info: ["Account closed"] },
    });
    const dir = await mkdtemp(nodePath.join(tmpdir(), "pain002-cli-"));
    const file = nodePath.join(dir, "status.xml");
    await writeFile(file, report);
    try {
      const run = async (...flags: string[]) => {
        const io = captureCliOutput();
        const code = await runImportCli(h.database.db, ["--company", IDS.companyA, ...flags, file], io);
        return { code, io };
      };
      const expected = {
        file: "status.xml",
        format: "pain.002.001.03",
        batch_id: batch.id,
        batch_status_from: "approved",
        // Every instruction is final (one settled, one rejected).
        batch_status_to: "partially_completed",
        status_changes: [
          { end_to_end_id: a, from: "pending", to: "settled", reason_code: null, reason: null },
          {
            end_to_end_id: b,
            from: "pending",
            to: "rejected",
            reason_code: "AC04",
            reason: "Closed account number — Account closed",
          },
        ],
      };
      const dry = await run("--json", "--dry-run");
      expect(dry.code, dry.io.stderr).toBe(0);
      const dryDoc = JSON.parse(dry.io.stdout) as { files: Record<string, unknown>[] };
      expect(dryDoc.files).toHaveLength(1);
      expect(dryDoc.files[0]).toMatchObject({
        ...expected,
        status_changes: expected.status_changes.map((c) => expect.objectContaining(c)),
      });
      // The dry run stored nothing: the instructions and the batch are as before, no event was written.
      const before = await outboxCount();
      expect((await instructionsOf(batch.id)).map((i) => i.status)).toEqual(["pending", "pending"]);
      expect((await getBatch(batch.id)).status).toBe("approved");

      const real = await run("--json");
      expect(real.code, real.io.stderr).toBe(0);
      expect(JSON.parse(real.io.stdout)).toEqual(dryDoc);
      expect((await instructionsOf(batch.id)).map((i) => i.status)).toEqual(["settled", "rejected"]);
      expect(await outboxCount()).toBeGreaterThan(before);

      // Again: nothing changes, and the text output says so per file.
      const again = await run();
      expect(again.code, again.io.stderr).toBe(0);
      expect(again.io.stdout).toContain(`status.xml: pain.002.001.03 for batch ${batch.id}`);
      expect(again.io.stdout).toContain("0 status changes");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("refusals: 400 naming the element, nothing changes", () => {
  async function refused(content: string, company: string = IDS.companyA) {
    const before = await outboxCount();
    const res = await upload([{ name: "r.xml", content }], company);
    expect(res.status).toBe(400);
    const err = (await res.json()) as {
      error: string;
      message: string;
      details: { file: string; path: string | null };
    };
    expect(err.error).toBe("validation_error");
    expect(await outboxCount()).toBe(before);
    return err;
  }

  it("an unknown message id and another company's batch get the same answer", async () => {
    const other = await approvedBatch(["9.00"], IDS.companyB, "SEK");
    const otherRef = `TD${other.batch.id.replace(/-/g, "")}`;
    const unknownRef = `TD${"ab".repeat(16)}`;
    const doc = (ref: string) =>
      buildPain002({ messageId: "X", originalMessageId: ref, groupStatus: { code: "RJCT", reason: "AC01" } });
    const a = await refused(doc(otherRef));
    const b = await refused(doc(unknownRef));
    expect(a.message.replace(otherRef, "REF")).toBe(b.message.replace(unknownRef, "REF"));
    expect(a.details).toEqual(b.details);
    expect(a.message).toBe(
      `r.xml: Document/CstmrPmtStsRpt/OrgnlGrpInfAndSts/OrgnlMsgId "${otherRef}" is not a payment file of this company (no batch of the company was sent under it)`,
    );
    expect((await instructionsOf(other.batch.id, IDS.companyB))[0]?.status).toBe("pending");
  });

  it("a batch never sent, an unknown end-to-end id, an unknown status code, a missing OrgnlMsgId", async () => {
    const draft = await json<Batch>(
      await h.call("POST", "/payments/batches", {
        client: "fullB",
        company: IDS.companyA,
        idem: true,
        json: {
          company_id: IDS.companyA,
          currency: "NOK",
          instructions: [
            {
              amount: "1.00",
              currency: "NOK",
              creditor_name: "X",
              creditor_iban: "NO9386011117947",
              end_to_end_id: e2e("D"),
            },
          ],
        },
      }),
      201,
    );
    const ref = `TD${draft.id.replace(/-/g, "")}`;
    expect(
      (await refused(buildPain002({ messageId: "X", originalMessageId: ref, groupStatus: { code: "ACCP" } }))).message,
    ).toMatch(/which is created: it was never sent to the bank/);
    const { batch } = await approvedBatch(["2.00"]);
    const sent = `TD${batch.id.replace(/-/g, "")}`;
    const unknownE2e = buildPain002({
      messageId: "X",
      originalMessageId: sent,
      payments: [
        { paymentInformationId: `TDP${batch.id.replace(/-/g, "")}`, txs: [{ code: "ACSC", endToEndId: "NOPE" }] },
      ],
    });
    expect((await refused(unknownE2e)).details.path).toBe(
      "Document/CstmrPmtStsRpt/OrgnlPmtInfAndSts[0]/TxInfAndSts[0]/OrgnlEndToEndId",
    );
    expect(
      (await refused(buildPain002({ messageId: "X", originalMessageId: sent, groupStatus: { code: "ZZZZ" } }))).message,
    ).toMatch(/GrpSts is "ZZZZ", not a status this import knows/);
    expect(
      (
        await refused(
          buildPain002({ messageId: "X", originalMessageId: sent }).replace(/<OrgnlMsgId>.*<\/OrgnlMsgId>/, ""),
        )
      ).details.path,
    ).toBe("Document/CstmrPmtStsRpt/OrgnlGrpInfAndSts/OrgnlMsgId");
    expect((await instructionsOf(batch.id))[0]?.status).toBe("pending");
    const [row] = await h.database.db.select().from(paymentBatches).where(eq(paymentBatches.id, batch.id));
    expect(row?.status).toBe("approved");
  });
});

describe("parsing", () => {
  it("reads the batch id from our message and payment information ids only", () => {
    expect(batchIdFromReference("TD0123456789abcdef0123456789abcdef", "TD")).toBe(
      "01234567-89ab-cdef-0123-456789abcdef",
    );
    expect(batchIdFromReference("TDP0123456789abcdef0123456789abcdef", "TD")).toBeNull();
    expect(batchIdFromReference("MSG-1", "TD")).toBeNull();
  });

  it("detects pain.002 by content, not by name, with or without a namespace", () => {
    const doc = buildPain002({ messageId: "M", originalMessageId: "O", groupStatus: { code: "ACCP" } });
    expect(isPain002(doc)).toBe(true);
    expect(
      isPain002(
        buildPain002({ messageId: "M", originalMessageId: "O", groupStatus: { code: "ACCP" }, namespace: false }),
      ),
    ).toBe(true);
    expect(parsePain002(doc, "x.xml").groupStatus?.code).toBe("ACCP");
    expect(() => parsePain002(doc.replace("pain.002.001.03", "pain.002.001.99"), "x.xml")).toThrow(
      /not a supported ISO 20022 message/,
    );
  });
});
