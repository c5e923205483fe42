/**
 * The deterministic demo data of the local Treasury API (docs/architecture.md#data-model). `seedDemo` fills a new database with:
 * - tenants "Nordlys Group" (koncern "Nordlys Koncern": companies in NO, SE,
 *   DK, FI, plus "Polarlys Eiendom AS" outside it) and "Fjord Holdings";
 * - 14 accounts with valid IBANs at real Nordic banks (BICs), in NOK, SEK,
 *   DKK, EUR and USD;
 * - 13 months of transactions up to today (UTC) with balances, coverage days
 *   and 15-minute intraday points (see ledger.ts for the consistency rules);
 * - the demo OAuth clients of demo-clients.ts;
 * - `meta.seed = { scale, seed, seeded_at }`;
 * then runs the steps other areas registered with {@link registerSeedStep}.
 *
 * Deterministic: the same seed, scale and "today" give the same ids, amounts
 * and texts. Only the anchor date follows the clock, so a live demo always
 * shows recent data.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { companies, koncernMembers, koncerner, meta, tenants, accounts as accountsTable } from "../db/schema";
import { utcToday } from "./calendar";
import { demoClientFixtures, insertDemoClients, type DemoClientFixture } from "./clients";
import { writeDemoLedger, type LedgerCounts } from "./ledger-writer";
import { buildDemoOrganization, type SeedOrganization } from "./organization";
import { createRng, type Rng } from "./prng";
import { DEMO_SIZE, type SeedSize } from "./size";

/** The default seed (the spec's version date). */
export const DEMO_SEED = 20260110;

export interface SeedDemoOptions {
  /** Multiplies the transaction volume: 1 ≈ 23 000 transactions, 50 ≈ 1.15 million. Must be > 0. */
  scale: number;
  /** PRNG seed (default {@link DEMO_SEED}). */
  seed?: number;
  /** Organisation size (default {@link DEMO_SIZE}: the demo's companies and accounts; see size.ts). */
  size?: SeedSize;
  /** Anchor date `YYYY-MM-DD` (default: the current UTC date). Tests pin it. */
  today?: string;
  /**
   * The current time (default: now when `today` is not given, else none):
   * today's bookings and intraday points stop at it (see ledger.ts).
   */
  now?: Date;
  /** Progress callback: transactions written so far, after each account. */
  onProgress?: (transactions: number, accountKey: string) => void;
}

/** What the seed created, as written to demo-fixtures.json (snake_case like the API). */
export interface DemoFixtures {
  seed: number;
  scale: number;
  /** Organisation size (companies, accounts per company). */
  size: SeedSize;
  today: string;
  seeded_at: string;
  tenants: { id: string; key: string; name: string }[];
  koncerner: { id: string; tenant_id: string; name: string; company_ids: string[] }[];
  companies: {
    id: string;
    key: string;
    tenant_id: string;
    name: string;
    orgnr: string;
    country: string;
    koncern_id: string | null;
  }[];
  accounts: {
    id: string;
    key: string;
    tenant_id: string;
    company_id: string;
    name: string;
    iban: string;
    currency: string;
    bank: string;
    bank_id: string;
  }[];
  clients: DemoClientFixture[];
  counts: LedgerCounts;
  /** Seconds the whole seed took. */
  seconds: number;
}

/** A step another area adds to the demo seed (payments, reconciliation, webhooks …). */
export type SeedStep = (database: Database, fixtures: DemoFixtures, rng: Rng) => Promise<void>;

/**
 * Steps run by {@link seedDemo} after the ledger data, in registration order.
 * Each gets its own PRNG stream keyed by its name, so adding a step does not
 * change the data of the others. Register from a module the server imports.
 */
export const extraSeedSteps: { name: string; run: SeedStep }[] = [];

/** Adds (or, for a known name, replaces) a seed step. */
export function registerSeedStep(name: string, run: SeedStep): void {
  const existing = extraSeedSteps.findIndex((s) => s.name === name);
  if (existing >= 0) extraSeedSteps[existing] = { name, run };
  else extraSeedSteps.push({ name, run });
}

/** The organization part of the fixtures (pure; the test suite uses it too). */
export function organizationFixtures(
  org: SeedOrganization,
): Pick<DemoFixtures, "tenants" | "koncerner" | "companies" | "accounts" | "clients"> {
  return {
    tenants: org.tenants.map((t) => ({ id: t.id, key: t.key, name: t.name })),
    koncerner: org.koncerner.map((k) => ({
      id: k.id,
      tenant_id: k.tenantId,
      name: k.name,
      company_ids: org.companies.filter((c) => k.companyKeys.includes(c.key)).map((c) => c.id),
    })),
    companies: org.companies.map((c) => ({
      id: c.id,
      key: c.key,
      tenant_id: c.tenantId,
      name: c.name,
      orgnr: c.orgnr,
      country: c.country,
      koncern_id: org.koncerner.find((k) => k.key === c.koncernKey)?.id ?? null,
    })),
    accounts: org.accounts.map((a) => ({
      id: a.id,
      key: a.key,
      tenant_id: a.tenantId,
      company_id: a.companyId,
      name: a.name,
      iban: a.iban,
      currency: a.currency,
      bank: a.bank.name,
      bank_id: a.bank.bic,
    })),
    clients: demoClientFixtures(org),
  };
}

/**
 * Seeds a new (migrated, empty) database with the demo data.
 * @returns the fixtures: ids, demo credentials, counts
 * @throws Error when `scale` is not a positive number or the database already
 *   holds a seed (`meta.seed`); database errors as they come
 */
export async function seedDemo(database: Database, opts: SeedDemoOptions): Promise<DemoFixtures> {
  if (!Number.isFinite(opts.scale) || opts.scale <= 0)
    throw new Error(`seedDemo: scale must be a positive number, got ${opts.scale}`);
  const started = performance.now();
  const seed = opts.seed ?? DEMO_SEED;
  const today = opts.today ?? utcToday();
  const size = opts.size ?? DEMO_SIZE;
  const org = buildDemoOrganization(seed, size);
  const orgFixtures = organizationFixtures(org);

  await database.db.transaction(async (tx) => {
    const [existing] = await tx.select().from(meta).where(eq(meta.key, "seed"));
    if (existing) throw new Error("seedDemo: the database is already seeded (meta key 'seed' exists)");
    await tx.insert(tenants).values(org.tenants.map((t) => ({ id: t.id, name: t.name })));
    await tx.insert(companies).values(
      org.companies.map((c) => ({
        id: c.id,
        tenantId: c.tenantId,
        orgnr: c.orgnr,
        name: c.name,
        country: c.country,
      })),
    );
    await tx.insert(koncerner).values(org.koncerner.map((k) => ({ id: k.id, tenantId: k.tenantId, name: k.name })));
    const members = orgFixtures.koncerner.flatMap((k) =>
      k.company_ids.map((companyId) => ({ koncernId: k.id, companyId })),
    );
    if (members.length) await tx.insert(koncernMembers).values(members);
    await tx.insert(accountsTable).values(
      org.accounts.map((a) => ({
        id: a.id,
        tenantId: a.tenantId,
        companyId: a.companyId,
        bankId: a.bank.bic,
        externalRef: a.iban,
        externalRefType: "IBAN",
        name: a.name,
        currency: a.currency,
        bankName: a.bank.name,
        status: "active" as const,
      })),
    );
    await insertDemoClients(tx, orgFixtures.clients);
  });

  const now = opts.now ?? (opts.today === undefined ? new Date() : undefined);
  const counts = await writeDemoLedger(database, org, { seed, scale: opts.scale, today, now }, opts.onProgress);
  const seededAt = new Date().toISOString();
  await database.db
    .insert(meta)
    .values({ key: "seed", value: { scale: opts.scale, seed, seeded_at: seededAt, today, size } });
  // Fresh statistics so the planner sees a million rows, not an empty table.
  await database.exec(
    "ANALYZE transactions; ANALYZE account_day_flows; ANALYZE balance_snapshots; ANALYZE intraday_points; ANALYZE " +
      "coverage_days",
  );

  const fixtures: DemoFixtures = {
    seed,
    scale: opts.scale,
    size,
    today,
    seeded_at: seededAt,
    ...orgFixtures,
    counts,
    seconds: 0,
  };
  for (const step of extraSeedSteps) await step.run(database, fixtures, createRng(seed, `step:${step.name}`));
  fixtures.seconds = Math.round((performance.now() - started) / 10) / 100;
  return fixtures;
}

/** Writes `demo-fixtures.json` into `dir` (created if missing) and returns its path. */
export function writeDemoFixtures(dir: string, fixtures: DemoFixtures): string {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "demo-fixtures.json");
  writeFileSync(file, `${JSON.stringify(fixtures, null, 2)}\n`);
  return file;
}

/** Reads `demo-fixtures.json` from `dir`. @throws when missing or not JSON. */
export function readDemoFixtures(dir: string): DemoFixtures {
  return JSON.parse(readFileSync(path.join(dir, "demo-fixtures.json"), "utf8")) as DemoFixtures;
}
