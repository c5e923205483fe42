/**
 * A statement import proposes reconciliation matches for imported debits,
 * like the bank simulator does for its own bookings.
 */
import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { paymentInstructions, reconciliationMatches } from "../db/schema";
import { buildCamt053 } from "../test/camt053-builder";
import { IDS, daysAgo, insertCompletedBatch } from "../test/harness";
import { harnessForFile } from "../test/file-harness";
import { importCamt053 } from "./camt053-import";

const h = harnessForFile();

const BATCH = "a1000000-0000-4000-8000-000000000001";
const INSTRUCTION = "a2000000-0000-4000-8000-000000000001";

/** One day's statement of company A's NOK account with the settled payment's debit. */
function statement(date: string): string {
  return buildCamt053({
    version: "02",
    messageId: `M-${date}`,
    createdAt: `${date}T18:00:00+01:00`,
    statements: [
      {
        id: `S-${date}`,
        createdAt: `${date}T18:00:00+01:00`,
        account: { iban: "NO9386011117947", currency: "NOK", servicerBic: "DNBANOKK" },
        balances: [{ code: "CLBD", amount: "87500.00", currency: "NOK", date }],
        entries: [
          {
            amount: "12500.00",
            currency: "NOK",
            direction: "debit",
            booked: date,
            value: date,
            servicerRef: "REF-IMPORT-1",
            txs: [{ endToEndId: "E2E-IMPORT-0001", counterparty: "Fjordkraft AS", remittance: ["Invoice 4411"] }],
          },
        ],
      },
    ],
  });
}

it("an imported debit carrying a settled instruction's end-to-end id gets a proposed match", async () => {
  const db = h.database.db;
  const today = daysAgo(0);
  await insertCompletedBatch(db, { id: BATCH, totalAmount: "12500.00", requestedExecutionDate: today });
  await db.insert(paymentInstructions).values({
    id: INSTRUCTION,
    batchId: BATCH,
    tenantId: IDS.tenant,
    companyId: IDS.companyA,
    position: 0,
    amount: "12500.00",
    currency: "NOK",
    creditorName: "Fjordkraft AS",
    creditorIban: "NO7112345678903",
    endToEndId: "E2E-IMPORT-0001",
    status: "settled",
  });

  const summary = await importCamt053(db, {
    companyId: IDS.companyA,
    files: [{ name: "today.xml", content: statement(today) }],
  });
  expect(summary.files[0]?.transactionsInserted).toBe(1);

  const matches = await db
    .select()
    .from(reconciliationMatches)
    .where(eq(reconciliationMatches.paymentInstructionId, INSTRUCTION));
  expect(matches).toHaveLength(1);
  expect(matches[0]?.state).toBe("proposed");
  expect(matches[0]?.score).toBeGreaterThanOrEqual(90);

  // importing the same statement again proposes nothing new
  await importCamt053(db, { companyId: IDS.companyA, files: [{ name: "today.xml", content: statement(today) }] });
  expect(
    await db.select().from(reconciliationMatches).where(eq(reconciliationMatches.paymentInstructionId, INSTRUCTION)),
  ).toHaveLength(1);
});
