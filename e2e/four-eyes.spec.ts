/**
 * Four-eyes (docs/architecture.md#users-roles-and-permissions): a user who holds both the
 * treasurer and the approver role creates and submits a batch through the
 * BFF, cannot approve it herself (403, reason four_eyes, nothing changes
 * upstream), and another approver can.
 */
import { expect, test } from "@playwright/test";
import { createBatchVia, pageAs as as, writeHeaders as write } from "./fixtures";

test("the creator of a batch cannot approve it, another approver can", async ({ browser }) => {
  const lead = await as(browser, "lead");
  await lead.goto("/payments");
  const batch = {
    id: await createBatchVia(lead, "NOK", [
      {
        amount: "4200.00",
        creditor_name: "Fjordkraft AS",
        creditor_iban: "NO9386011117947",
        end_to_end_id: "FOUR-EYES-1",
      },
    ]),
  };
  const submitted = await lead.request.post(`/api/treasury/payments/batches/${batch.id}/submit`, { headers: write() });
  expect(submitted.status(), await submitted.text()).toBe(202);

  const queue = (await (await lead.request.get("/api/treasury/approvals/queue")).json()) as {
    items: { approval: { id: string; object_id: string; approved_count: number } }[];
  };
  const approval = queue.items.find((i) => i.approval.object_id === batch.id)?.approval;
  expect(approval).toBeDefined();

  const own = await lead.request.post(`/api/treasury/approvals/${approval?.id}/approve`, { headers: write() });
  expect(own.status()).toBe(403);
  expect(await own.json()).toMatchObject({ error: "permission_denied", details: { reason: "four_eyes" } });

  // Nothing changed upstream: the request is still waiting with no approval counted.
  const after = (await (await lead.request.get("/api/treasury/approvals/queue")).json()) as typeof queue;
  expect(after.items.find((i) => i.approval.id === approval?.id)?.approval.approved_count).toBe(0);

  // The UI explains it instead of offering the action.
  await lead.goto("/approvals");
  await expect(lead.getByTestId("four-eyes").first()).toBeVisible();

  const approver = await as(browser, "approver");
  const ok = await approver.request.post(`/api/treasury/approvals/${approval?.id}/approve`, { headers: write() });
  expect(ok.status(), await ok.text()).toBe(200);
});
