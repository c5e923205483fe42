/**
 * Exactly-once writes across a crash (docs/architecture.md#idempotency: the stored
 * response commits in the same transaction as the handler's changes). The API
 * runs as a real child process on a file-backed PGlite folder and on a
 * throw-away PostgreSQL; a failpoint SIGKILLs it
 *
 * 1. right after a batch creation committed: after a restart the retry with
 *    the same key gets the original 201 and body with `Idempotent-Replayed:
 *    true`, and exactly one batch exists;
 * 2. right before that commit: nothing was written, the key is left
 *    `in_progress`; once its lock expires the retry runs the handler once.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { openDatabase, queryRows, type Database } from "../db/client";
import { findPostgresBin, startTempPostgres, type TempPostgres } from "@treasury/test-support/temp-postgres";
import { childToken, startChildServer, type ChildServer, type ChildTarget } from "./child-server";
import { IDS, insertFixture } from "./harness";

const KEY = randomBytes(32).toString("hex");
const cleanups: (() => Promise<void>)[] = [];
const servers: ChildServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.kill();
  for (const c of cleanups.reverse()) await c();
});

const hasPostgres = findPostgresBin() !== null;
if (!hasPostgres) console.warn("idempotency-crash.test.ts: PostgreSQL not installed; its half is skipped");

async function prepare(kind: "pglite" | "postgres"): Promise<ChildTarget> {
  let target: ChildTarget;
  if (kind === "pglite") {
    const dir = mkdtempSync(path.join(tmpdir(), "idem-crash-"));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    target = { dataDir: dir };
  } else {
    const pg: TempPostgres = await startTempPostgres();
    cleanups.push(() => pg.stop());
    target = { url: pg.url };
  }
  await withDatabase(target, insertFixture);
  return target;
}

/** Opens the child's database in this process (PGlite: only while no server runs on the folder). */
async function withDatabase<T>(target: ChildTarget, fn: (db: Database) => Promise<T>): Promise<T> {
  const database = await openDatabase("url" in target ? { url: target.url, poolSize: 1 } : { dataDir: target.dataDir });
  try {
    return await fn(database);
  } finally {
    await database.close();
  }
}

async function start(target: ChildTarget, failpoint?: string): Promise<ChildServer> {
  // A fixed key, so that no run writes a secret-key file into the repository's default data folder (PostgreSQL).
  const s = await startChildServer(target, {
    failpoint,
    args: ["--bank-speed", "manual"],
    env: { TREASURY_API_SECRET_KEY: KEY },
  });
  servers.push(s);
  return s;
}

const batchBody = (tag: string) => ({
  company_id: IDS.companyA,
  currency: "NOK",
  instructions: [1, 2].map((i) => ({
    amount: `${i}25.50`,
    currency: "NOK",
    creditor_name: `Crash Test ${i} AS`,
    creditor_iban: "NO9386011117947",
    end_to_end_id: `${tag}-${i}`,
  })),
});

function createBatch(base: string, token: string, key: string, tag: string): Promise<Response> {
  return fetch(`${base}/public/payments/batches`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "x-company-id": IDS.companyA,
      "content-type": "application/json",
      "idempotency-key": key,
    },
    body: JSON.stringify(batchBody(tag)),
  });
}

/** Batches holding instructions whose end-to-end id starts with `tag-`. */
async function batchesTagged(db: Database, tag: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db.db,
    sql`select count(distinct batch_id)::int as n from payment_instructions where end_to_end_id like ${`${tag}-%`}`,
  );
  return Number(row?.n ?? -1);
}

describe.each([
  ["pglite", true],
  ["postgres", hasPostgres],
] as const)("a crash around the commit of a write (%s, real process, SIGKILL)", (kind, available) => {
  it.runIf(available)(
    "after the commit: the retry replays the original 201; before it: the retry runs once; one batch each",
    async () => {
      const target = await prepare(kind);
      const afterTag = `AFTER-${kind}`;
      const beforeTag = `BEFORE-${kind}`;
      const afterKey = `crash-after-${kind}`;
      const beforeKey = `crash-before-${kind}`;

      // Life 1 dies right after the batch and its stored response committed, before answering.
      const first = await start(target, "idempotency.after-commit");
      const token = await childToken(first.url);
      await expect(createBatch(first.url, token, afterKey, afterTag)).rejects.toThrow();
      expect((await first.exited).signal).toBe("SIGKILL");
      expect(first.output()).toContain("failpoint idempotency.after-commit");

      // Life 2: the retry replays what was committed; then a create dies before its commit.
      const second = await start(target, "idempotency.before-commit");
      const replay = await createBatch(second.url, token, afterKey, afterTag);
      expect(replay.status).toBe(201);
      expect(replay.headers.get("idempotent-replayed")).toBe("true");
      expect(replay.headers.get("content-type")).toMatch(/^application\/json/);
      const replayed = (await replay.json()) as { id: string; status: string; instruction_count: number };
      const current = await fetch(`${second.url}/public/payments/batches/${replayed.id}`, {
        headers: { authorization: `Bearer ${token}`, "x-company-id": IDS.companyA },
      });
      expect(current.status).toBe(200);
      expect(replayed).toEqual(await current.json()); // the body of the create that committed
      expect(replayed).toMatchObject({ status: "created", instruction_count: 2 });
      await expect(createBatch(second.url, token, beforeKey, beforeTag)).rejects.toThrow();
      expect((await second.exited).signal).toBe("SIGKILL");
      expect(second.output()).toContain("failpoint idempotency.before-commit");

      // Between lives: nothing of the uncommitted create exists, its key is still claimed; let its lock expire.
      await withDatabase(target, async (db) => {
        expect(await batchesTagged(db, afterTag)).toBe(1);
        expect(await batchesTagged(db, beforeTag)).toBe(0);
        const keys = await queryRows<{ key: string; state: string; status_code: number | null }>(
          db.db,
          sql`select key, state, status_code from idempotency_keys where key in (${afterKey}, ${beforeKey}) order
            by key`,
        );
        expect(keys).toEqual([
          { key: afterKey, state: "done", status_code: 201 },
          { key: beforeKey, state: "in_progress", status_code: null },
        ]);
        await db.db.execute(
          sql`update idempotency_keys set locked_until = now() - interval '1 second' where key = ${beforeKey}`,
        );
      });

      // Life 3: the abandoned key is taken over and the handler runs once; every later retry replays.
      const third = await start(target);
      const rerun = await createBatch(third.url, token, beforeKey, beforeTag);
      expect(rerun.status).toBe(201);
      expect(rerun.headers.get("idempotent-replayed")).toBeNull();
      const rerunBody: unknown = await rerun.json();
      const again = await createBatch(third.url, token, beforeKey, beforeTag);
      expect(again.headers.get("idempotent-replayed")).toBe("true");
      expect(await again.json()).toEqual(rerunBody);
      const afterAgain = await createBatch(third.url, token, afterKey, afterTag);
      expect(afterAgain.status).toBe(201);
      expect(await afterAgain.json()).toEqual(replayed);
      // The fixture has no batches: these two are all there is.
      const list = await fetch(`${third.url}/public/payments/batches`, {
        headers: { authorization: `Bearer ${token}`, "x-company-id": IDS.companyA },
      });
      const ids = ((await list.json()) as { results: { id: string }[] }).results.map((b) => b.id).sort();
      expect(ids).toEqual([replayed.id, (rerunBody as { id: string }).id].sort());
      await third.stop();
      expect((await third.exited).code).toBe(0);
    },
    // Three process starts and a PGlite initdb: 23-132 s measured on the shared 2-core machine at load 16-19.
    240_000,
  );
});
