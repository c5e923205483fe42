/**
 * The demo seed: determinism, valid identifiers, ledger
 * consistency (balances, intraday, coverage, the flow aggregate) and the
 * demo client matrix. One in-memory PGlite seeded once at scale 1 with a
 * pinned "today"; determinism is checked against the pure generator, so no
 * second database is needed.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { isValidIBAN } from "ibantools";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../db/client";
import { verifySecret } from "../lib/secrets";
import { addDays, dateRange } from "./calendar";
import {
  DEMO_CLIENTS,
  DEMO_FJORD_B,
  DEMO_PARTNER_A,
  DEMO_READONLY_B,
  DEMO_TREASURY_B,
  READ_SCOPES,
} from "./demo-clients";
import { DEMO_SEED, readDemoFixtures, registerSeedStep, seedDemo, writeDemoFixtures, type DemoFixtures } from "./demo";
import { generateOrgnr, isValidOrgnr, luhnCheckDigit } from "./identifiers";
import { formatMinor, generateAccountLedger, INTRADAY_DAYS, ledgerStartDate } from "./ledger";
import { buildDemoOrganization } from "./organization";
import { createRng } from "./prng";

const TODAY = "2026-03-18";
let database: Database;
let fixtures: DemoFixtures;
let stepCalls = 0;

async function rows<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  const res = (await database.db.execute(query)) as unknown as { rows: T[] };
  return res.rows;
}

function accountId(key: string): string {
  const a = fixtures.accounts.find((x) => x.key === key);
  if (!a) throw new Error(`no account ${key}`);
  return a.id;
}

beforeAll(async () => {
  registerSeedStep("demo-test-step", async (db, fx, rng) => {
    stepCalls++;
    await db.exec(
      `INSERT INTO meta (key, value) VALUES ('demo-test-step', '{"accounts": ${fx.accounts.length}, "r": ` +
        `${rng.int(0, 9)}}')`,
    );
  });
  database = await openDatabase({ dataDir: "memory" });
  fixtures = await seedDemo(database, { scale: 1, today: TODAY });
}, 60_000);

afterAll(async () => {
  await database?.close();
});

describe("determinism", () => {
  it("regenerates the same transactions, ids and amounts as were seeded", async () => {
    const org = buildDemoOrganization(DEMO_SEED);
    for (const key of ["norge-drift", "fjord-drift"]) {
      const account = org.accounts.find((a) => a.key === key);
      if (!account) throw new Error(key);
      const expected = [...generateAccountLedger(org, account, { seed: DEMO_SEED, scale: 1, today: TODAY })].flatMap(
        (d) => d.transactions,
      );
      const actual = await rows<{
        id: string;
        amount: string;
        direction: string;
        booked_at: string;
        remittance: string;
      }>(
        sql`SELECT id, amount::text AS amount, direction, booked_at, remittance FROM transactions WHERE account_id
          = ${account.id} ORDER BY booked_date, booked_at, id`,
      );
      expect(actual.length).toBe(expected.length);
      const byId = new Map(actual.map((r) => [r.id, r]));
      for (const t of expected) {
        const r = byId.get(t.id);
        expect(r?.amount).toBe(formatMinor(t.amountMinor));
        expect(r?.direction).toBe(t.direction);
        expect(r?.remittance).toBe(t.remittance);
      }
    }
  });

  it("gives the same organization for the same seed and other ids for another seed", () => {
    const a = buildDemoOrganization(DEMO_SEED);
    expect(buildDemoOrganization(DEMO_SEED)).toEqual(a);
    expect(a.accounts.map((x) => x.id)).toEqual(fixtures.accounts.map((x) => x.id));
    const b = buildDemoOrganization(DEMO_SEED + 1);
    expect(b.accounts[0]?.id).not.toBe(a.accounts[0]?.id);
    expect(b.companies[0]?.orgnr).not.toBe(a.companies[0]?.orgnr);
  });

  it("produces UUID-shaped ids and decimal amount strings", async () => {
    expect(createRng(1, "x").uuid()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect([formatMinor(0), formatMinor(5), formatMinor(-12_345), formatMinor(100_000_099)]).toEqual([
      "0.00",
      "0.05",
      "-123.45",
      "1000000.99",
    ]);
    const bad = await rows<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM transactions WHERE amount <= 0 OR scale(amount) <> 2`,
    );
    expect(bad[0]?.n).toBe(0);
  });
});

describe("organization", () => {
  it("has two tenants, the koncern in four countries and a company outside it", () => {
    expect(fixtures.tenants.map((t) => t.name)).toEqual(["Nordlys Group", "Fjord Holdings"]);
    const koncern = fixtures.koncerner[0];
    expect(koncern?.name).toBe("Nordlys Koncern");
    const members = fixtures.companies.filter((c) => koncern?.company_ids.includes(c.id));
    expect(new Set(members.map((c) => c.country))).toEqual(new Set(["NO", "SE", "DK", "FI"]));
    const outside = fixtures.companies.filter((c) => c.tenant_id === fixtures.tenants[0]?.id && c.koncern_id === null);
    expect(outside.map((c) => c.name)).toEqual(["Polarlys Eiendom AS"]);
  });

  it("every account has a valid IBAN, a Nordic BIC and one of the five currencies", async () => {
    const accs = await rows<{ external_ref: string; bank_id: string; currency: string }>(
      sql`SELECT external_ref, bank_id, currency FROM accounts`,
    );
    expect(accs.length).toBeGreaterThanOrEqual(10);
    for (const a of accs) expect(isValidIBAN(a.external_ref), a.external_ref).toBe(true);
    expect(new Set(accs.map((a) => a.currency))).toEqual(new Set(["NOK", "SEK", "DKK", "EUR", "USD"]));
    expect(new Set(accs.map((a) => a.bank_id))).toEqual(
      new Set([
        "DNBANOKK",
        "NDEANOKK",
        "NDEASESS",
        "ESSESESS",
        "HANDSESS",
        "DABADKKK",
        "NDEADKKK",
        "OKOYFIHH",
        "NDEAFIHH",
      ]),
    );
    // A changed digit breaks the mod-97 check.
    const iban = accs[0]?.external_ref ?? "";
    const flipped = `${iban.slice(0, -1)}${(Number(iban.slice(-1)) + 1) % 10}`;
    expect(isValidIBAN(flipped)).toBe(false);
  });

  it("organization numbers carry valid check digits", () => {
    for (const c of fixtures.companies)
      expect(isValidOrgnr(c.country as "NO", c.orgnr), `${c.name} ${c.orgnr}`).toBe(true);
    expect(fixtures.companies.find((c) => c.country === "SE")?.orgnr).toMatch(/^\d{6}-\d{4}$/);
    expect(fixtures.companies.find((c) => c.country === "FI")?.orgnr).toMatch(/^\d{7}-\d$/);
    // Real, public numbers validate with the same rules …
    expect(isValidOrgnr("NO", "923609016")).toBe(true);
    expect(isValidOrgnr("SE", "556012-5790")).toBe(true);
    expect(isValidOrgnr("DK", "24256790")).toBe(true);
    expect(isValidOrgnr("FI", "0112038-9")).toBe(true);
    // … and a wrong check digit or shape is rejected.
    expect(isValidOrgnr("NO", "923609017")).toBe(false);
    expect(isValidOrgnr("SE", "556012-5791")).toBe(false);
    expect(isValidOrgnr("DK", "24256791")).toBe(false);
    expect(isValidOrgnr("FI", "0112038-8")).toBe(false);
    expect(isValidOrgnr("NO", "92360901")).toBe(false);
    for (let i = 0; i < 50; i++)
      for (const c of ["NO", "SE", "DK", "FI"] as const)
        expect(isValidOrgnr(c, generateOrgnr(createRng(i, c), c))).toBe(true);
    expect(luhnCheckDigit("7992739871")).toBe(3);
  });
});

describe("ledger", () => {
  it("scale 1 gives 20–30 thousand transactions over 13 months up to today", async () => {
    const [r] = await rows<{ n: number; first: string; last: string }>(
      sql`SELECT count(*)::int AS n, min(booked_date)::text AS first, max(booked_date)::text AS last FROM transactions`,
    );
    expect(r?.n).toBeGreaterThanOrEqual(20_000);
    expect(r?.n).toBeLessThanOrEqual(30_000);
    expect(r?.n).toBe(fixtures.counts.transactions);
    expect(r?.first).toBe(ledgerStartDate(TODAY));
    expect(r?.last).toBe(TODAY);
  });

  it("books payroll on the 25th and fewer bookings on weekends", async () => {
    const payroll = await rows<{ d: string }>(
      sql`SELECT booked_date::text AS d FROM transactions WHERE account_id = ${accountId("norge-drift")} AND
        remittance LIKE 'Lønn %' ORDER BY 1`,
    );
    expect(payroll.length).toBe(13);
    for (const p of payroll) expect(Number(p.d.slice(8))).toBeLessThanOrEqual(25);
    const [w] = await rows<{ weekday: number; weekend: number }>(
      sql`SELECT avg(n) FILTER (WHERE extract(isodow FROM d) < 6)::float AS weekday, avg(n) FILTER (WHERE
        extract(isodow FROM d) >= 6)::float AS weekend
          FROM (SELECT booked_date AS d, count(*) AS n FROM transactions WHERE account_id =
            ${accountId("norge-drift")} GROUP BY 1) x`,
    );
    expect(w?.weekend).toBeLessThan((w?.weekday ?? 0) / 3);
  });

  it("closing balances move exactly by each day's credits minus debits; available ≤ booked", async () => {
    const bad = await rows<{ account_id: string; as_of_date: string }>(sql`
      WITH c AS (
        SELECT account_id, as_of_date, balance, lag(balance) OVER (PARTITION BY account_id ORDER BY as_of_date) AS prev
        FROM balance_snapshots WHERE balance_type = 'closing_booked'
      ), f AS (
        SELECT account_id, booked_date, sum(CASE WHEN direction = 'credit' THEN amount ELSE -amount END) AS net
          FROM transactions GROUP BY 1, 2
      )
      SELECT c.account_id, c.as_of_date::text FROM c LEFT JOIN f ON f.account_id = c.account_id AND f.booked_date =
        c.as_of_date
      WHERE c.prev IS NOT NULL AND c.balance - c.prev <> coalesce(f.net, 0)`);
    expect(bad).toEqual([]);
    const [today] = await rows<{ n: number; ok: number }>(sql`
      SELECT count(*)::int AS n, count(*) FILTER (WHERE i.balance = c.balance + coalesce(f.net, 0))::int AS ok
      FROM balance_snapshots i
      JOIN balance_snapshots c ON c.account_id = i.account_id AND c.balance_type = 'closing_booked' AND
        c.as_of_date = i.as_of_date - 1
      LEFT JOIN (SELECT account_id, sum(CASE WHEN direction = 'credit' THEN amount ELSE -amount END) AS net FROM
        transactions WHERE booked_date = ${TODAY} GROUP BY 1) f ON f.account_id = i.account_id
      WHERE i.balance_type = 'interim_booked' AND i.as_of_date = ${TODAY}`);
    expect(today?.n).toBe(fixtures.accounts.length);
    expect(today?.ok).toBe(today?.n);
    const [avail] = await rows<{ n: number; reserved: number }>(sql`
      SELECT count(*)::int AS n, count(*) FILTER (WHERE a.balance < b.balance)::int AS reserved
      FROM balance_snapshots a JOIN balance_snapshots b ON b.account_id = a.account_id AND b.as_of_date =
        a.as_of_date AND b.balance_type = 'closing_booked'
      WHERE a.balance_type = 'closing_available' AND a.balance > b.balance`);
    expect(avail?.n).toBe(0);
    const [someReserved] = await rows<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM balance_snapshots a JOIN balance_snapshots b ON b.account_id = a.account_id
        AND b.as_of_date = a.as_of_date AND b.balance_type = 'closing_booked'
      WHERE a.balance_type = 'closing_available' AND a.balance < b.balance`);
    expect(someReserved?.n).toBeGreaterThan(0);
  });

  it("has intraday points every 15 minutes for the last 30 days, ending at each day's closing", async () => {
    const id = accountId("sverige-drift");
    const points = await rows<{ ts: string; balance: string }>(
      sql`SELECT to_char(timestamp AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI') AS ts, balance::text AS balance FROM
        intraday_points WHERE account_id = ${id} ORDER BY timestamp`,
    );
    const fullDays = dateRange(addDays(TODAY, -INTRADAY_DAYS), addDays(TODAY, -1));
    expect(fullDays.length).toBe(30);
    expect(points.length).toBe(30 * 96 + 33);
    expect(points[0]?.ts).toBe(`${fullDays[0]}T00:00`);
    expect(points[95]?.ts).toBe(`${fullDays[0]}T23:45`);
    expect(points[96]?.ts).toBe(`${fullDays[1]}T00:00`);
    expect(points.at(-1)?.ts).toBe(`${TODAY}T08:00`);
    const closings = await rows<{ d: string; balance: string }>(
      sql`SELECT as_of_date::text AS d, balance::text AS balance FROM balance_snapshots WHERE account_id =
        ${id} AND balance_type = 'closing_booked' AND as_of_date >= ${fullDays[0]}`,
    );
    for (const c of closings) {
      const i = fullDays.indexOf(c.d);
      expect(points[i * 96 + 95]?.balance, c.d).toBe(c.balance);
    }
  });

  it("covers every day up to yesterday, with a few missing and partial days", async () => {
    const [r] = await rows<{ n: number; missing: number; partial: number; api: number; camt: number }>(sql`
      SELECT count(*)::int AS n, count(*) FILTER (WHERE completeness = 'missing')::int AS missing, count(*) FILTER
        (WHERE completeness = 'partial')::int AS partial,
             count(*) FILTER (WHERE source = 'api')::int AS api, count(*) FILTER (WHERE source = 'camt.053')::int
               AS camt
      FROM coverage_days WHERE date < ${TODAY}`);
    expect(r?.n).toBe(dateRange(ledgerStartDate(TODAY), addDays(TODAY, -1)).length * fixtures.accounts.length);
    expect(r?.missing).toBeGreaterThan(0);
    expect(r?.partial).toBeGreaterThan(0);
    expect(r?.missing ?? 0).toBeLessThan((r?.n ?? 0) / 50);
    expect(r?.api).toBeGreaterThan(0);
    expect(r?.camt).toBeGreaterThan(r?.api ?? 0);
  });

  it("account_day_flows agrees with a count(*) and sum of the transactions", async () => {
    const bad = await rows<{ account_id: string }>(sql`
      SELECT t.account_id FROM (SELECT account_id, booked_date, direction, count(*)::int AS n, sum(amount) AS s
        FROM transactions GROUP BY 1, 2, 3) t
      FULL JOIN account_day_flows f USING (account_id, booked_date, direction)
      WHERE f.tx_count IS DISTINCT FROM t.n OR f.amount_sum IS DISTINCT FROM t.s`);
    expect(bad).toEqual([]);
  });
});

describe("clients and meta", () => {
  it("stores the demo client matrix with hashed secrets", async () => {
    const clients = await rows<{
      id: string;
      client_id: string;
      secret_hash: string;
      form: string;
      tenant_id: string;
      allowed_scopes: string[];
      write_approved: boolean;
    }>(
      sql`SELECT id, client_id, secret_hash, form, tenant_id, allowed_scopes, write_approved FROM oauth_clients
        ORDER BY client_id`,
    );
    expect(clients.map((c) => c.client_id).sort()).toEqual(DEMO_CLIENTS.map((c) => c.clientId).sort());
    const links = await rows<{ client_id: string; company_id: string }>(
      sql`SELECT c.client_id, l.company_id FROM oauth_client_companies l JOIN oauth_clients c ON c.id = l.client_id`,
    );
    const tenantLinks = await rows<{ client_id: string; tenant_id: string }>(
      sql`SELECT c.client_id, l.tenant_id FROM oauth_client_tenants l JOIN oauth_clients c ON c.id = l.client_id`,
    );
    const companiesOf = (clientId: string) =>
      links
        .filter((l) => l.client_id === clientId)
        .map((l) => fixtures.companies.find((c) => c.id === l.company_id)?.key)
        .sort();
    const get = (clientId: string) => clients.find((c) => c.client_id === clientId);
    const [nordlys, fjord] = fixtures.tenants;

    for (const spec of DEMO_CLIENTS) {
      const c = get(spec.clientId);
      expect(c?.secret_hash).not.toContain(spec.clientSecret);
      expect(verifySecret(spec.clientSecret, c?.secret_hash ?? "")).toBe(true);
      expect(verifySecret("wrong", c?.secret_hash ?? "")).toBe(false);
      expect(spec.clientSecret).toMatch(/NOT-FOR-PRODUCTION$/);
    }
    // (a) all scopes, write approved, koncern companies but not Polarlys.
    expect(get(DEMO_TREASURY_B.clientId)).toMatchObject({ form: "B", tenant_id: nordlys?.id, write_approved: true });
    expect(get(DEMO_TREASURY_B.clientId)?.allowed_scopes).toHaveLength(10);
    expect(companiesOf(DEMO_TREASURY_B.clientId)).toEqual([
      "nordlys-danmark",
      "nordlys-holding",
      "nordlys-norge",
      "nordlys-suomi",
      "nordlys-sverige",
    ]);
    // (b) read scopes only, write not approved.
    expect(get(DEMO_READONLY_B.clientId)).toMatchObject({
      form: "B",
      write_approved: false,
      allowed_scopes: [...READ_SCOPES],
    });
    // (c) Form A, main tenant only.
    expect(get(DEMO_PARTNER_A.clientId)).toMatchObject({ form: "A", write_approved: true });
    expect(tenantLinks.filter((l) => l.client_id === DEMO_PARTNER_A.clientId).map((l) => l.tenant_id)).toEqual([
      nordlys?.id,
    ]);
    // (d) the second tenant's client, linked to its company only.
    expect(get(DEMO_FJORD_B.clientId)).toMatchObject({ form: "B", tenant_id: fjord?.id });
    expect(companiesOf(DEMO_FJORD_B.clientId)).toEqual(["fjord-holdings"]);
    expect(fixtures.clients.find((c) => c.client_id === DEMO_TREASURY_B.clientId)?.client_secret).toBe(
      DEMO_TREASURY_B.clientSecret,
    );
  });

  it("records the seed in meta, ran the registered step once and refuses to seed twice or a bad scale", async () => {
    const meta = await rows<{ key: string; value: Record<string, unknown> }>(
      sql`SELECT key, value FROM meta WHERE key IN ('seed', 'demo-test-step') ORDER BY key`,
    );
    expect(meta[1]?.value).toMatchObject({ scale: 1, seed: DEMO_SEED });
    expect(typeof meta[1]?.value.seeded_at).toBe("string");
    expect(meta[0]?.value).toMatchObject({ accounts: fixtures.accounts.length });
    expect(stepCalls).toBe(1);
    await expect(seedDemo(database, { scale: 1, today: TODAY })).rejects.toThrow(/already seeded/);
    await expect(seedDemo(database, { scale: 0 })).rejects.toThrow(/scale/);
  });

  it("writes and reads demo-fixtures.json", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "demo-fixtures-"));
    try {
      const file = writeDemoFixtures(path.join(dir, "data"), fixtures);
      expect(file.endsWith("demo-fixtures.json")).toBe(true);
      expect(readDemoFixtures(path.join(dir, "data"))).toEqual(fixtures);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
