/**
 * Test-only (docs/testing.md): a batch made ready for the bank through the repositories, with no HTTP in between,
 * for the tests that drive the simulated bank themselves.
 */
import { decide } from "../db/repos/approvals";
import { createBatch, submitBatch } from "../db/repos/payments";
import { CLIENTS, IDS, approvalIdOf } from "./harness";

type Db = Parameters<typeof createBatch>[0];
type Instructions = Parameters<typeof createBatch>[3]["instructions"];
type BankSpeed = Parameters<typeof decide>[3]["bankSpeed"];

/**
 * Creates company A's NOK batch of `instructions` as the full Form B client, submits it (a second approval above
 * 100,000) and approves it by each of `approvers` in turn, the bank at `bankSpeed`.
 * @returns the batch's id
 */
export async function approvedBatchDirect(
  db: Db,
  instructions: Instructions,
  approvers: readonly string[],
  bankSpeed: BankSpeed,
): Promise<string> {
  const scope = { tenantId: IDS.tenant, companyIds: [IDS.companyA] };
  const batch = await createBatch(db, scope, CLIENTS.fullB.id, {
    company_id: IDS.companyA,
    currency: "NOK",
    instructions,
  });
  await submitBatch(db, scope, batch.id, { byCurrency: {}, fallback: "100000.00" });
  const approvalId = await approvalIdOf(db, batch.id);
  for (const approver of approvers)
    await decide(db, scope, approvalId, {
      kind: "approve",
      clientId: CLIENTS.fullB.id,
      approver,
      reason: null,
      bankSpeed,
    });
  return batch.id;
}
