/**
 * kill -9 of the API process during a pull (file imported, not committed) and during a push (file uploaded, not
 * marked sent), over SFTP to a local sshd (docs/bank-channels.md "Exactly once"): after restarts every received
 * file is imported once and the batch's payment file is in the bank's inbox once. The API runs as a child process
 * (treasury-api/test/child-server.ts), once on a PGlite folder and once on a temporary PostgreSQL (skipped, with the
 * reason printed, where PostgreSQL is not installed); between runs the test ends the dead process's leases, as their
 * expiry would.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sftpChannelOf, sshdSkipReason, startTempSshd, type TempSshd } from "@treasury/test-support/temp-sshd";
import { findPostgresBin, startTempPostgres, type TempPostgres } from "@treasury/test-support/temp-postgres";
import { startChildServer, type ChildTarget } from "../test/child-server";
import { withDatabase } from "../test/bank-webhook-scenario";
import { channelCounts, channelMetric, endChannelLeases, prepareChannelScenario } from "../test/channel-scenario";
import { pushFileName } from "./exchange";

const skip = sshdSkipReason();
if (skip) console.log(`channel crash tests skipped: ${skip}`);
const noPostgres = findPostgresBin() === null;
if (!skip && noPostgres)
  console.log("channel crash test on PostgreSQL skipped: PostgreSQL not installed (initdb, pg_ctl)");

const KEY = randomBytes(32);
const ENTRIES = 25;

describe.skipIf(skip !== null).each([
  { db: "PGlite", skipped: false },
  { db: "PostgreSQL", skipped: noPostgres },
])("bank channel across kill -9 (SFTP, $db)", ({ db, skipped }) => {
  let sshd: TempSshd;
  let pg: TempPostgres | undefined;
  let dataDir: string | undefined;
  let target: ChildTarget;
  let batchId: string;

  const counts = () => withDatabase(target, channelCounts);
  const run = async (failpoint?: string) => {
    const child = await startChildServer(target, {
      failpoint,
      env: { TREASURY_API_SECRET_KEY: KEY.toString("hex") },
    });
    if (failpoint) {
      const end = await Promise.race([child.exited, new Promise<null>((r) => setTimeout(() => r(null), 90_000))]);
      if (end === null) await child.kill();
      expect(end?.signal, child.output().slice(-1500)).toBe("SIGKILL");
    } else {
      // Until this process has pulled and pushed once (worker ticks every 5 s), bounded. Read from its metrics: a
      // PGlite folder is open in one process only.
      const deadline = Date.now() + 60_000;
      const ok = (kind: string) => channelMetric(child.url, `treasury_api_bank_channel_${kind}_total{outcome="ok"}`);
      while (Date.now() < deadline && ((await ok("pulls")) < 1 || (await ok("pushes")) < 1))
        await new Promise((r) => setTimeout(r, 500));
      await child.stop();
    }
  };

  beforeAll(async () => {
    if (skipped) return;
    sshd = await startTempSshd();
    if (db === "PostgreSQL") {
      pg = await startTempPostgres();
      target = { url: pg.url };
    } else {
      dataDir = mkdtempSync(path.join(tmpdir(), "treasury-channel-crash-"));
      target = { dataDir };
    }
    const scenario = await withDatabase(target, (database) =>
      prepareChannelScenario(
        database,
        [
          {
            channel: sftpChannelOf(sshd),
            outboxPath: path.join(sshd.root, "outbox"),
          },
        ],
        { key: KEY, batchesPerBank: 1, filesPerBank: 1, entriesPerFile: ENTRIES },
      ),
    );
    batchId = scenario.batchIds[0] ?? "";
  }, 120_000);

  afterAll(async () => {
    await sshd?.stop();
    await pg?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it.skipIf(skipped)(
    "imports the file once and delivers the payment file once across two kills",
    async () => {
      await run("channels.pull.before-commit");
      expect((await counts()).transactions).toBe(0);
      await withDatabase(target, endChannelLeases);
      await run("channels.push.after-upload");
      expect(await counts()).toMatchObject({ transactions: ENTRIES, sent: 0 });
      expect(readdirSync(path.join(sshd.root, "inbox"))).toEqual([pushFileName(batchId)]);
      const uploaded = statSync(path.join(sshd.root, "inbox", pushFileName(batchId))).mtimeMs;
      await withDatabase(target, endChannelLeases);
      await run();
      expect(await counts()).toEqual({ transactions: ENTRIES, filesIn: 1, sent: 1, filesOut: 1 });
      expect(readdirSync(path.join(sshd.root, "inbox"))).toEqual([pushFileName(batchId)]);
      // Found there after the crash, not uploaded a second time.
      expect(statSync(path.join(sshd.root, "inbox", pushFileName(batchId))).mtimeMs).toBe(uploaded);
    },
    400_000,
  );
});
