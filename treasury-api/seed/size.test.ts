/**
 * The organisation size of the demo seed: parsing of the flags and variables
 * (errors name the option), the pure generator (default = the demo, valid and
 * unique identifiers, determinism) and a small seed (7 koncern companies × 3
 * accounts) in one in-memory PGlite: counts, client links and balances.
 */
import { sql } from "drizzle-orm";
import { isValidIBAN } from "ibantools";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../db/client";
import { seedDemo, type DemoFixtures } from "./index";
import { DEMO_SEED } from "./demo";
import { isValidOrgnr } from "./identifiers";
import { buildDemoOrganization } from "./organization";
import { DEMO_SIZE, parseSeedSize, resolveSeedSize, seedSizeFromEnv } from "./size";

describe("parseSeedSize", () => {
  it("defaults to the demo size", () => {
    expect(parseSeedSize({})).toEqual(DEMO_SIZE);
    expect(parseSeedSize({ companies: "", accountsPerCompany: " " })).toEqual({
      companies: 5,
      accountsPerCompany: null,
    });
  });

  it("reads whole numbers within bounds", () => {
    expect(parseSeedSize({ companies: "50", accountsPerCompany: "20" })).toEqual({
      companies: 50,
      accountsPerCompany: 20,
    });
    expect(parseSeedSize({ companies: "500", accountsPerCompany: "1" })).toEqual({
      companies: 500,
      accountsPerCompany: 1,
    });
  });

  it.each([
    [{ companies: "4" }, /--seed-companies must be a whole number from 5 to 500, got "4"/],
    [{ companies: "501" }, /--seed-companies/],
    [{ companies: "12.5" }, /--seed-companies/],
    [{ companies: "-7" }, /--seed-companies/],
    [{ companies: "1e2" }, /--seed-companies/],
    [{ companies: "fifty" }, /--seed-companies/],
    [{ accountsPerCompany: "0" }, /--seed-accounts-per-company must be a whole number from 1 to 100, got "0"/],
    [{ accountsPerCompany: "101" }, /--seed-accounts-per-company/],
    [{ accountsPerCompany: "2x" }, /--seed-accounts-per-company/],
  ])("rejects %o", (values, message) => {
    expect(() => parseSeedSize(values)).toThrow(message);
  });

  it("names the environment variable in errors and lets a flag win over it", () => {
    expect(() => seedSizeFromEnv({ TREASURY_API_SEED_COMPANIES: "3" })).toThrow(/TREASURY_API_SEED_COMPANIES/);
    expect(() => seedSizeFromEnv({ TREASURY_API_SEED_ACCOUNTS_PER_COMPANY: "abc" })).toThrow(
      /TREASURY_API_SEED_ACCOUNTS_PER_COMPANY/,
    );
    const env = { TREASURY_API_SEED_COMPANIES: "20", TREASURY_API_SEED_ACCOUNTS_PER_COMPANY: "4" };
    expect(seedSizeFromEnv(env)).toEqual({ companies: 20, accountsPerCompany: 4 });
    expect(resolveSeedSize({ companies: "30" }, env)).toEqual({ companies: 30, accountsPerCompany: 4 });
    expect(() => resolveSeedSize({ accountsPerCompany: "0" }, env)).toThrow(/--seed-accounts-per-company/);
  });
});

describe("buildDemoOrganization with a size", () => {
  it("is the demo organization at the default size", () => {
    const demo = buildDemoOrganization(DEMO_SEED);
    expect(buildDemoOrganization(DEMO_SEED, DEMO_SIZE)).toEqual(demo);
    expect(demo.companies).toHaveLength(7);
    expect(demo.accounts).toHaveLength(14);
  });

  it("generates 50 × 20 deterministically with valid, unique identifiers; demo entities unchanged", () => {
    const size = { companies: 50, accountsPerCompany: 20 };
    const org = buildDemoOrganization(DEMO_SEED, size);
    expect(buildDemoOrganization(DEMO_SEED, size)).toEqual(org);
    const koncern = org.companies.filter((c) => c.koncernKey === "nordlys-koncern");
    expect(koncern).toHaveLength(50);
    for (const c of koncern) expect(org.accounts.filter((a) => a.companyId === c.id)).toHaveLength(20);
    expect(org.accounts).toHaveLength(50 * 20 + 2);
    expect(org.accounts.every((a) => isValidIBAN(a.iban))).toBe(true);
    expect(new Set(org.accounts.map((a) => a.iban)).size).toBe(org.accounts.length);
    expect(new Set(org.accounts.map((a) => a.id)).size).toBe(org.accounts.length);
    expect(org.companies.every((c) => isValidOrgnr(c.country, c.orgnr))).toBe(true);
    const demo = buildDemoOrganization(DEMO_SEED);
    for (const a of demo.accounts) expect(org.accounts.find((x) => x.key === a.key)).toEqual(a);
    for (const c of demo.companies) expect(org.companies.find((x) => x.key === c.key)).toEqual(c);
  });

  it("rejects an out-of-range size naming the field", () => {
    expect(() => buildDemoOrganization(DEMO_SEED, { companies: 2, accountsPerCompany: 2 })).toThrow(/size.companies/);
    expect(() => buildDemoOrganization(DEMO_SEED, { companies: 6, accountsPerCompany: 0 })).toThrow(
      /size.accountsPerCompany/,
    );
  });
});

describe("seedDemo at 7 companies × 3 accounts", () => {
  let database: Database;
  let fixtures: DemoFixtures;

  beforeAll(async () => {
    database = await openDatabase({ dataDir: "memory" });
    fixtures = await seedDemo(database, {
      scale: 0.05,
      today: "2026-03-18",
      size: { companies: 7, accountsPerCompany: 3 },
    });
  }, 120_000);
  afterAll(async () => {
    await database?.close();
  });

  async function count(query: ReturnType<typeof sql>): Promise<number> {
    const res = (await database.db.execute(query)) as unknown as { rows: { n: number | string }[] };
    return Number(res.rows[0]?.n);
  }

  it("writes the companies, koncern members and accounts", async () => {
    // 7 koncern companies + Polarlys Eiendom + Fjord Holdings; 14 demo accounts + 3 top-ups + 2 × 3 new.
    expect(await count(sql`select count(*) as n from companies`)).toBe(9);
    expect(await count(sql`select count(*) as n from koncern_members`)).toBe(7);
    expect(await count(sql`select count(*) as n from accounts`)).toBe(23);
    expect(fixtures.size).toEqual({ companies: 7, accountsPerCompany: 3 });
    const ibans = fixtures.accounts.map((a) => a.iban);
    expect(ibans.every((i) => isValidIBAN(i))).toBe(true);
    expect(new Set(ibans).size).toBe(23);
  });

  it("links every koncern company to the koncern demo clients", async () => {
    const koncernIds = fixtures.koncerner[0]?.company_ids ?? [];
    expect(koncernIds).toHaveLength(7);
    const treasury = fixtures.clients.find((c) => c.client_id === "demo-treasury-b");
    expect(new Set(treasury?.company_ids)).toEqual(new Set(koncernIds));
    expect(
      await count(
        sql`select count(*) as n from oauth_client_companies l join oauth_clients c on c.id = l.client_id
            where c.client_id = 'demo-treasury-b'`,
      ),
    ).toBe(7);
  });

  it("gives every generated account closing and interim balances and transactions", async () => {
    const generated = fixtures.accounts.filter((a) => a.key.includes("-acc-"));
    expect(generated).toHaveLength(9);
    for (const a of generated) {
      const closing = await count(
        sql`select count(*) as n from balance_snapshots where account_id = ${a.id} and balance_type = 'closing_booked'`,
      );
      const interim = await count(
        sql`select count(*) as n from balance_snapshots where account_id = ${a.id} and balance_type = 'interim_booked'`,
      );
      expect(closing, a.key).toBeGreaterThan(300);
      expect(interim, a.key).toBeGreaterThanOrEqual(1);
    }
    const withTransactions = await count(
      sql`select count(distinct account_id) as n from transactions where account_id in (${sql.join(
        generated.map((a) => sql`${a.id}`),
        sql`, `,
      )})`,
    );
    expect(withTransactions).toBeGreaterThan(0);
  });
});
