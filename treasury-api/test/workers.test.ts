/**
 * `--workers 2` on one PostgreSQL (docs/operations.md#worker-processes): two real server processes (node:cluster,
 * one port) each run the bank simulator and the webhook delivery worker against the same database. Six approved
 * batches at an `instant` bank and one webhook endpoint for every event kind (bank-webhook-scenario.ts): every batch
 * ends final once, no end-to-end id is booked twice, one debit per settled instruction, and every outbox event
 * reaches the receiver exactly once (no crash happens here, so at-least-once allows no repeat) and is recorded
 * delivered. Skipped, with the reason printed, where PostgreSQL is not installed.
 */
import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { findPostgresBin, startTempPostgres } from "@treasury/test-support/temp-postgres";
import { startLoopbackReceiver, type LoopbackReceiver } from "../webhooks/loopback-receiver";
import { generateWebhookSecret } from "../webhooks/signing";
import { availableParallelism } from "node:os";
import { resolveWorkers } from "../server";
import { childToken, startChildServer, type ChildServer } from "./child-server";
import { expectProcessedOnce, prepare, processingOutcome, untilQuiet, withDatabase } from "./bank-webhook-scenario";

const KEY = randomBytes(32);
const cleanups: (() => Promise<void>)[] = [];
let server: ChildServer | undefined;
let rx: LoopbackReceiver | undefined;
afterAll(async () => {
  await server?.kill();
  await rx?.close();
  for (const c of cleanups.reverse()) await c();
});

const hasPostgres = findPostgresBin() !== null;
if (!hasPostgres) console.warn("workers.test.ts: PostgreSQL not installed (initdb, pg_ctl); the test is skipped");

describe("resolveWorkers (--workers)", () => {
  it("defaults to the number of cores with PostgreSQL and to 1 with PGlite", () => {
    expect(resolveWorkers(undefined, "postgres://localhost/x")).toBe(availableParallelism());
    expect(resolveWorkers(undefined, undefined)).toBe(1);
  });
  it("takes the flag; more than one process on PGlite is refused, naming --workers and PGlite", () => {
    expect(resolveWorkers(3, "postgres://localhost/x")).toBe(3);
    expect(resolveWorkers(1, undefined)).toBe(1);
    expect(() => resolveWorkers(2, undefined)).toThrow(/--workers.*PGlite/);
  });
});

describe("--workers 2 on one PostgreSQL (two real server processes)", () => {
  it.runIf(hasPostgres)(
    "no batch processed twice, no webhook event lost or delivered twice",
    async () => {
      const pg = await startTempPostgres();
      cleanups.push(() => pg.stop());
      const target = { url: pg.url };
      rx = await startLoopbackReceiver();
      const receiver = rx;
      const secret = generateWebhookSecret();
      receiver.secrets.set("workers", secret);
      const endpointId = await withDatabase(target, (db) => prepare(db, `${receiver.url}/workers`, secret, KEY));

      server = await startChildServer(target, {
        args: ["--bank-speed", "instant", "--workers", "2"],
        env: { TREASURY_API_SECRET_KEY: KEY.toString("hex"), TREASURY_API_ALLOW_PRIVATE_WEBHOOKS: "1" },
      });
      expect(server.output()).toContain("2 worker processes");
      const token = await childToken(server.url);
      await untilQuiet(server.url, token, endpointId, 90_000);
      await server.stop();
      expect((await server.exited).code).toBe(0);

      const received = receiver.received.filter((d) => d.path === "/workers");
      const result = await withDatabase(target, (db) => processingOutcome(db, endpointId));
      const receivedIds = received.map((d) => d.eventId);
      console.log(
        `workers test: ${result.batches} batches, ${result.debits} debits for ${result.settled} settled instructions, ` +
          `${result.eventIds.length} events, ${received.length} deliveries received ` +
          `(${received.length - new Set(receivedIds).size} repeated)`,
      );
      expectProcessedOnce(result, new Set(receivedIds));
      expect(received.length).toBe(new Set(receivedIds).size);
    },
    // A temp PostgreSQL cluster and three processes on the shared 2-core machine.
    240_000,
  );
});
