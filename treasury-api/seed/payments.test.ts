import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { BATCH_STATUSES } from "@treasury/contract/payments";
import { queryRows } from "../db/client";
import { IDS } from "../test/harness";
import { harnessForFile } from "../test/file-harness";
import { seedPayments } from "./payments";

const h = harnessForFile({ bankSpeed: "manual" });

describe("seedPayments", () => {
  it("leaves batches in every state and pending approvals, some needing two approvers", async () => {
    const summary = await seedPayments(h.database);
    for (const status of BATCH_STATUSES) expect(summary.byStatus[status], status).toBeGreaterThan(0);
    const open = await queryRows<{ state: string; required_count: number; approved_count: number }>(
      h.database.db,
      sql`select state, required_count, approved_count from approval_requests where state in ('pending',
        'partially_approved')`,
    );
    expect(open.length).toBe(summary.pendingApprovals);
    expect(open.some((r) => r.required_count === 2 && r.state === "pending")).toBe(true);
    expect(open.some((r) => r.state === "partially_approved" && r.approved_count === 1)).toBe(true);

    // The API serves them: the approval queue of the Form B client and the company's batches.
    const queue = (await (await h.call("GET", "/approvals/pending", { client: "fullB" })).json()) as { count: number };
    expect(queue.count).toBeGreaterThan(0);
    const batches = (await (
      await h.call("GET", "/payments/batches?page_size=1000", { client: "fullB", company: IDS.companyA })
    ).json()) as { count: number };
    expect(batches.count).toBeGreaterThan(0);
    const [settled] = await queryRows<{ n: number }>(
      h.database.db,
      sql`select count(*)::int as n from transactions where source = 'bank-simulator'`,
    );
    expect(settled?.n).toBeGreaterThan(0);

    // Each creditor is paid to one IBAN, so the demo raises "bank details changed" only when someone changes them.
    const payees = await queryRows<{ creditor_name: string; ibans: number }>(
      h.database.db,
      sql`select creditor_name, count(distinct creditor_iban)::int as ibans from payment_instructions group by 1`,
    );
    expect(payees.length).toBeGreaterThan(3);
    expect(payees.filter((p) => p.ibans !== 1)).toEqual([]);
  });
});
