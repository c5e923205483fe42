/**
 * Seed steps of reconciliation and webhooks, run after the
 * payments seed on the test fixture: proposed, confirmed and rejected matches
 * that the API serves, and one inactive webhook endpoint without a visible secret.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { WEBHOOK_EVENT_TYPES } from "@treasury/contract/webhooks";
import { queryRows } from "../db/client";
import { ALL_SCOPES, CLIENTS, IDS, createHarness, type Harness } from "../test/harness";
import { seedPayments } from "./payments";
import { createRng } from "./prng";
import { seedReconciliation, UNMATCHED_AGES_DAYS } from "./reconciliation";
import { DEMO_WEBHOOK_URL, seedWebhooks } from "./webhooks";
import { extraSeedSteps } from "./demo";

let h: Harness;
/**
 * The proposals exactly as the payments seed leaves them, read before any test runs: the reconciliation step's test
 * decides most of them (they leave state `proposed`), and tests run in any order.
 */
let proposedAfterPaymentsSeed: { score: number; remittance: string; e2e: string | null }[];
beforeAll(async () => {
  h = await createHarness({ bankSpeed: "manual" });
  await seedPayments(h.database);
  proposedAfterPaymentsSeed = await queryRows<{ score: number; remittance: string; e2e: string | null }>(
    h.database.db,
    sql`select m.score, t.remittance, t.end_to_end_id as e2e from reconciliation_matches m
        join transactions t on t.id = m.transaction_id where m.state = 'proposed' order by m.score`,
  );
});
afterAll(() => h.close());

interface BatchTimeline {
  batch_id: string;
  created_at: string;
  submitted_at: string;
  updated_at: string;
  first_instruction_created: string;
  first_decision: string | null;
  last_decision: string | null;
  first_event: string | null;
  /** Whole days since the batch's first settlement (0 when none), its creation and its submission. */
  age: number;
  created_age: number;
  submitted_age: number;
}

/** Each settled batch's timestamps in the order its batch page shows them (ISO strings compare as instants). */
async function batchTimelines(): Promise<BatchTimeline[]> {
  const iso = (col: string) => sql.raw(`to_char(${col} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US')`);
  const age = (col: string) => sql.raw(`(current_date - (${col} at time zone 'UTC')::date)::int`);
  return queryRows<BatchTimeline>(
    h.database.db,
    sql`select b.id::text as batch_id, ${iso("b.created_at")} as created_at, ${iso("b.submitted_at")} as submitted_at,
          ${iso("b.updated_at")} as updated_at,
          (select ${iso("min(i.created_at)")} from payment_instructions i where i.batch_id = b.id)
            as first_instruction_created,
          (select ${iso("min(d.created_at)")} from approval_decisions d join approval_requests r
            on r.id = d.approval_request_id where r.object_id = b.id) as first_decision,
          (select ${iso("max(d.created_at)")} from approval_decisions d join approval_requests r
            on r.id = d.approval_request_id where r.object_id = b.id) as last_decision,
          (select ${iso("min(e.occurred_at)")} from payment_status_events e where e.batch_id = b.id) as first_event,
          (select ${age("min(e.occurred_at)")} from payment_status_events e
            where e.batch_id = b.id and e.status = 'settled') as age,
          ${age("b.created_at")} as created_age, ${age("b.submitted_at")} as submitted_age
        from payment_batches b
        where exists (select 1 from payment_status_events e where e.batch_id = b.id and e.status = 'settled')
        order by b.id`,
  );
}

describe("seed steps", () => {
  it("are registered with the demo seed, reconciliation before webhooks", () => {
    const names = extraSeedSteps.map((s) => s.name);
    expect(names).toContain("reconciliation");
    expect(names.indexOf("reconciliation")).toBeLessThan(names.indexOf("webhooks"));
  });

  it("the demo's proposals span the matcher's range: fees, cut references, name variants, twins, a lone charge", async () => {
    const scores = proposedAfterPaymentsSeed;
    const values = scores.map((r) => r.score);
    expect(Math.min(...values)).toBeGreaterThanOrEqual(60);
    expect(Math.min(...values)).toBeLessThan(70);
    expect(Math.max(...values)).toBe(100);
    // Every band of ten between 60 and 100 is represented.
    for (const band of [60, 70, 80, 90])
      expect(
        values.some((v) => v >= band && v < band + 10),
        String(band),
      ).toBe(true);
    // The two same-amount invoices to one payee: the booking that says only "FAKTURA" has two equal proposals.
    const faktura = scores.filter((r) => r.remittance === "FAKTURA");
    expect(faktura.map((r) => r.score)).toEqual([65, 65]);
    // The bank charge has no instruction, hence no proposal, and stays a debit without a match.
    const [orphan] = await queryRows<{ n: number }>(
      h.database.db,
      sql`select count(*)::int as n from transactions t where t.counterparty_name = 'Bank charges'
          and not exists (select 1 from reconciliation_matches m where m.transaction_id = t.id)`,
    );
    expect(orphan?.n).toBe(1);
    // Deterministic: the same seed scores the same (the scores do not depend on random row ids).
    expect(values.filter((v) => v < 100)).toMatchInlineSnapshot(`
      [
        65,
        65,
        65,
        65,
        77,
        89,
        96,
        97,
      ]
    `);
  });

  it("reconciliation: proposed and decided matches, served by the API", async () => {
    const summary = await seedReconciliation(h.database, createRng(1, "step:reconciliation"));
    // The unmatched payments have different ages: those whose booking was rejected as their match are aged.
    expect(summary.aged).toBeGreaterThanOrEqual(3);
    const ages = await queryRows<{ age: number }>(
      h.database.db,
      sql`select distinct (current_date - (e.occurred_at at time zone 'UTC')::date)::int as age
          from payment_status_events e join payment_instructions i on i.id = e.instruction_id
          where e.status = 'settled' and i.status = 'settled'
            and not exists (select 1 from reconciliation_matches m where m.payment_instruction_id = i.id
              and m.state = 'confirmed')
          order by 1`,
    );
    expect(ages.map((a) => a.age)).toEqual(expect.arrayContaining([0, ...UNMATCHED_AGES_DAYS]));
    // Every batch's timeline stays in order: the whole batch moved, not only its payments' status events.
    const timelines = await batchTimelines();
    expect(timelines.filter((t) => t.age > 0).length).toBeGreaterThanOrEqual(UNMATCHED_AGES_DAYS.length);
    for (const t of timelines) {
      expect(t.created_at <= t.submitted_at, JSON.stringify(t)).toBe(true);
      expect(t.submitted_at <= (t.first_decision ?? t.submitted_at), JSON.stringify(t)).toBe(true);
      expect((t.last_decision ?? t.submitted_at) <= (t.first_event ?? t.updated_at), JSON.stringify(t)).toBe(true);
      expect(t.first_instruction_created >= t.created_at, JSON.stringify(t)).toBe(true);
      // A moved batch moved as one: created, submitted and settled on the same (aged) day.
      expect([t.created_age, t.submitted_age, t.age], JSON.stringify(t)).toEqual([t.age, t.age, t.age]);
    }
    // Honest dates: a matched payment settles on its booking's day, never days before it (ageing keeps them there).
    const settledVsBooked = await queryRows<{ e2e: string; state: string; settled: string; booked: string }>(
      h.database.db,
      sql`select i.end_to_end_id as e2e, m.state, (e.occurred_at at time zone 'UTC')::date::text as settled,
            t.booked_date::text as booked
          from payment_instructions i join payment_status_events e on e.instruction_id = i.id and e.status = 'settled'
          join reconciliation_matches m on m.payment_instruction_id = i.id and m.state in ('confirmed', 'proposed')
          join transactions t on t.id = m.transaction_id
          where i.status = 'settled'`,
    );
    expect(settledVsBooked.filter((r) => r.state === "confirmed").length).toBeGreaterThan(0);
    for (const r of settledVsBooked) expect(r.settled, JSON.stringify(r)).toBe(r.booked);
    expect(summary.confirmed).toBeGreaterThan(0);
    expect(summary.rejected).toBeGreaterThan(0);
    expect(summary.proposed).toBeGreaterThan(0);
    const states = await queryRows<{ state: string; n: number }>(
      h.database.db,
      sql`select state, count(*)::int as n from reconciliation_matches group by state`,
    );
    expect(Object.fromEntries(states.map((r) => [r.state, r.n]))).toEqual({
      proposed: summary.proposed,
      confirmed: summary.confirmed,
      rejected: summary.rejected,
    });
    const res = await h.call("GET", "/reconciliation/matches?state=confirmed", { client: "partnerA" });
    const rows = (await res.json()) as { state: string; reviewer: string | null }[];
    const [tenant1] = await queryRows<{ n: number }>(
      h.database.db,
      sql`select count(*)::int as n from reconciliation_matches where state = 'confirmed' and tenant_id =
        ${IDS.tenant}`,
    );
    expect(rows.length).toBe(tenant1?.n);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.reviewer !== null)).toBe(true);
    // Running it again changes nothing it already decided: it proposes nothing new and works only on the open
    // proposals.
    const decidedBefore = await queryRows<{ id: string; state: string }>(
      h.database.db,
      sql`select id::text as id, state from reconciliation_matches where state <> 'proposed' order by id`,
    );
    const again = await seedReconciliation(h.database, createRng(1, "step:reconciliation"));
    expect(again.proposed + again.confirmed + again.rejected).toBe(summary.proposed);
    const decidedAfter = await queryRows<{ id: string; state: string }>(
      h.database.db,
      sql`select id::text as id, state from reconciliation_matches where state <> 'proposed' order by id`,
    );
    expect(decidedAfter).toEqual(expect.arrayContaining(decidedBefore));
    // A second run moves nothing: every batch keeps its timeline (those it has just left unmatched too).
    expect(again.aged).toBe(0);
    expect(await batchTimelines()).toEqual(timelines);
    const after = await queryRows<{ state: string; n: number }>(
      h.database.db,
      sql`select state, count(*)::int as n from reconciliation_matches group by state`,
    );
    expect({ proposed: 0, confirmed: 0, rejected: 0, ...Object.fromEntries(after.map((r) => [r.state, r.n])) }).toEqual(
      {
        proposed: again.proposed,
        confirmed: summary.confirmed + again.confirmed,
        rejected: summary.rejected + again.rejected,
      },
    );
  });

  it("webhooks: one inactive endpoint, secret never shown", async () => {
    const client = {
      id: CLIENTS.fullB.id,
      client_id: CLIENTS.fullB.clientId,
      client_secret: "",
      name: "fullB",
      form: "B" as const,
      tenant_id: IDS.tenant,
      allowed_scopes: ALL_SCOPES.split(" "),
      write_approved: true,
      company_ids: [IDS.companyA, IDS.companyB],
      tenant_ids: [],
    };
    const id = await seedWebhooks(h.database, { seed: 7, clients: [client] });
    expect(id).not.toBeNull();
    const res = await h.call("GET", `/webhooks/${id ?? ""}`, { client: "fullB" });
    expect(res.status).toBe(200);
    const ep = (await res.json()) as Record<string, unknown>;
    expect(ep).toMatchObject({
      url: DEMO_WEBHOOK_URL,
      active: false,
      events: [...WEBHOOK_EVENT_TYPES], // every kind, in the contract's order
    });
    expect(JSON.stringify(ep)).not.toContain("whsec_");
    expect(await seedWebhooks(h.database, { seed: 7, clients: [client] })).toBe(id); // idempotent
  });
});
