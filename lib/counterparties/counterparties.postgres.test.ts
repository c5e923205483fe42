/**
 * Maker-checker decisions racing on real PostgreSQL (PGlite runs one
 * transaction at a time, so only a server with a connection pool shows that
 * the row lock and the version check let exactly one of two verifiers win).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.mock("server-only", () => ({}));

import { findPostgresBin, startTempPostgres, type TempPostgres } from "@treasury/test-support/temp-postgres";
import { openDashboardDb, type DashboardDatabase } from "../db/client";
import { createCounterparty, getCounterpartyHistory, rejectCounterparty, verifyCounterparty } from "./counterparties";

const available = findPostgresBin() !== null;
if (!available) console.warn("counterparties.postgres.test.ts: PostgreSQL not installed; skipped");

const C1 = "11111111-1111-4111-8111-111111111111";
const who = (n: number, roles: ("treasurer" | "admin")[]) => ({
  id: `00000000-0000-4000-8000-00000000000${n}`,
  email: `user${n}@example.com`,
  roles,
  companyIds: null,
});
const MAKER = who(1, ["treasurer"]);
const CHECKER_1 = who(2, ["treasurer"]);
const CHECKER_2 = who(3, ["admin"]);
const IBANS = ["NO9386011117947", "NO8330001234567", "NO7112345678903", "NO5015032080119", "DE89370400440532013000"];

describe.runIf(available)("counterparty decisions on PostgreSQL", () => {
  let pg: TempPostgres;
  let database: DashboardDatabase;
  beforeAll(async () => {
    pg = await startTempPostgres();
    database = await openDashboardDb({ url: pg.url });
  });
  afterAll(async () => {
    await database?.close();
    await pg?.stop();
  });

  it("lets exactly one of two concurrent verifiers act on the same version", async () => {
    for (const iban of IBANS) {
      const c = await createCounterparty(database.db, MAKER, C1, { name: `Race ${iban}`, iban });
      const results = await Promise.allSettled([
        verifyCounterparty(database.db, CHECKER_1, c.id, { reason: "called back", expectedVersion: 1 }),
        rejectCounterparty(database.db, CHECKER_2, c.id, { reason: "looks wrong", expectedVersion: 1 }),
      ]);
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      const lost = results.find((r) => r.status === "rejected");
      expect(lost?.status === "rejected" && lost.reason).toMatchObject({ code: "conflict" });
      const history = await getCounterpartyHistory(database.db, CHECKER_1, c.id);
      expect(history.map((h) => h.version)).toEqual([1, 2]);
    }
  });
});
