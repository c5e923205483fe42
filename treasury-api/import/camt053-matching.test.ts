/**
 * A statement import proposes reconciliation matches for imported debits,
 * like the bank simulator does for its own bookings (issue 3 item 5).
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { paymentBatches, paymentInstructions, reconciliationMatches } from "../db/schema";
import { CLIENTS, IDS, createHarness, daysAgo, type Harness } from "../test/harness";
import { importCamt053 } from "./camt053-import";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

const BATCH = "a1000000-0000-4000-8000-000000000001";
const INSTRUCTION = "a2000000-0000-4000-8000-000000000001";

function statement(date: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt>
<GrpHdr><MsgId>M1</MsgId><CreDtTm>${date}T18:00:00+01:00</CreDtTm></GrpHdr>
<Stmt><Id>S-${date}</Id><CreDtTm>${date}T18:00:00+01:00</CreDtTm>
<Acct><Id><IBAN>NO9386011117947</IBAN></Id><Ccy>NOK</Ccy><Svcr><FinInstnId><BIC>DNBANOKK</BIC></FinInstnId></Svcr></Acct>
<Ntry><Amt Ccy="NOK">12500.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>${date}</Dt></BookgDt><ValDt><Dt>${date}</Dt></ValDt><AcctSvcrRef>REF-IMPORT-1</AcctSvcrRef>
<NtryDtls><TxDtls><Refs><EndToEndId>E2E-IMPORT-0001</EndToEndId></Refs><RltdPties><Cdtr><Nm>Fjordkraft AS</Nm></Cdtr></RltdPties><RmtInf><Ustrd>Invoice 4411</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>
</Stmt></BkToCstmrStmt></Document>`;
}

it("an imported debit carrying a settled instruction's end-to-end id gets a proposed match", async () => {
  const db = h.database.db;
  const today = daysAgo(0);
  await db.insert(paymentBatches).values({ id: BATCH, tenantId: IDS.tenant, companyId: IDS.companyA, createdByClientId: CLIENTS.fullB.id, initiator: CLIENTS.fullB.clientId, currency: "NOK", status: "completed", totalAmount: "12500.00", instructionCount: 1, requestedExecutionDate: today });
  await db.insert(paymentInstructions).values({ id: INSTRUCTION, batchId: BATCH, tenantId: IDS.tenant, companyId: IDS.companyA, position: 0, amount: "12500.00", currency: "NOK", creditorName: "Fjordkraft AS", creditorIban: "NO7112345678903", endToEndId: "E2E-IMPORT-0001", status: "settled" });

  const summary = await importCamt053(db, { companyId: IDS.companyA, files: [{ name: "today.xml", content: statement(today) }] });
  expect(summary.files[0]?.transactionsInserted).toBe(1);

  const matches = await db.select().from(reconciliationMatches).where(eq(reconciliationMatches.paymentInstructionId, INSTRUCTION));
  expect(matches).toHaveLength(1);
  expect(matches[0]?.state).toBe("proposed");
  expect(matches[0]?.score).toBeGreaterThanOrEqual(90);

  // importing the same statement again proposes nothing new
  await importCamt053(db, { companyId: IDS.companyA, files: [{ name: "today.xml", content: statement(today) }] });
  expect(await db.select().from(reconciliationMatches).where(eq(reconciliationMatches.paymentInstructionId, INSTRUCTION))).toHaveLength(1);
});
