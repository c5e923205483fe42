/**
 * `npm run bench:channels` — files per second over SFTP on loopback (docs/bank-channels.md): a local sshd
 * (packages/test-support/src/temp-sshd.ts), an in-memory database, N one-entry camt.054 files in the bank's
 * outbox pulled and imported (each recorded with its SHA-256), then a second pull that finds them all duplicates.
 *
 *   npm run bench:channels -- [--files 200]
 *
 * Prints files/s of the first pull (fetch + import + record) and of the re-listing pull (fetch + hash only).
 * Needs `sshd` (Debian: openssh-server); exits 0 with a message without it.
 */
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { openDatabase } from "@treasury/api/db/client";
import { createConnection, getConnectionRow } from "@treasury/api/channels/connections";
import { pullConnection } from "@treasury/api/channels/exchange";
import { buildCamt } from "@treasury/api/test/camt053-builder";
import { newTenant } from "@treasury/api/test/import-db";
import { sftpChannelOf, sshdSkipReason, startTempSshd } from "@treasury/test-support/temp-sshd";

const { values } = parseArgs({ options: { files: { type: "string", default: "200" } } });
const n = Number(values.files);
if (!Number.isInteger(n) || n < 1) {
  console.error("usage: npm run bench:channels -- [--files N]");
  process.exit(2);
}
const skip = sshdSkipReason();
if (skip) {
  console.log(`bench:channels skipped: ${skip}`);
  process.exit(0);
}

const today = new Date().toISOString().slice(0, 10);
const sshd = await startTempSshd();
const database = await openDatabase({ dataDir: "memory" });
try {
  const t = await newTenant(database);
  const owner = { tenantId: t.tenantId, companyId: t.companyId };
  const key = randomBytes(32);
  for (let i = 0; i < n; i++)
    writeFileSync(
      path.join(sshd.root, "outbox", `file-${String(i).padStart(5, "0")}.xml`),
      buildCamt({
        version: "08",
        message: "camt.054",
        messageId: `BENCH-${i}`,
        createdAt: `${today}T06:00:00+00:00`,
        statements: [
          {
            id: `N-${i}`,
            createdAt: `${today}T06:00:00+00:00`,
            account: { iban: "NO9386011117947", currency: "NOK" },
            balances: [],
            entries: [{ amount: "1.00", currency: "NOK", direction: "credit", booked: today, entryRef: `E-${i}` }],
          },
        ],
      }),
    );
  const created = await createConnection(
    database.db,
    owner,
    {
      bank_name: "Bench bank",
      account_ids: [],
      after_import: "leave",
      pull_interval_seconds: 300,
      active: true,
      channel: sftpChannelOf(sshd),
    },
    key,
    "bench",
  );
  const conn = () => getConnectionRow(database.db, owner, created.id);
  let t0 = performance.now();
  const first = await pullConnection(database.db, await conn(), key);
  const firstS = (performance.now() - t0) / 1000;
  t0 = performance.now();
  const second = await pullConnection(database.db, await conn(), key);
  const secondS = (performance.now() - t0) / 1000;
  if (first.error || first.imported !== n || second.duplicates !== n)
    throw new Error(`unexpected pull results: ${JSON.stringify({ first, second })}`);
  const load = loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");
  console.log(`bench:channels  ${n} files over SFTP on loopback (load average ${load})`);
  console.log(`  pull + import   ${(n / firstS).toFixed(1)} files/s  (${firstS.toFixed(2)} s)`);
  console.log(`  pull, all seen  ${(n / secondS).toFixed(1)} files/s  (${secondS.toFixed(2)} s)`);
} finally {
  await database.close();
  await sshd.stop();
}
