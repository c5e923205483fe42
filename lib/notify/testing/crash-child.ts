/**
 * Child process of lib/notify/outbox.crash.test.ts (test-only): opens the PGlite folder given in argv[2], and
 *
 * - `commit`: tells a user of an event (notification + outbox e-mail in one transaction), then kill -9 before any
 *   send;
 * - `claim`: drains the outbox with a short lease and kill -9 right after the claim committed, before sending.
 */
import { openDashboardDb } from "../../db/client";
import { drainOutbox } from "../outbox";
import { notifyUsers } from "../store";

async function main() {
  const [dir, mode, userId, smtpUrl] = process.argv.slice(2);
  if (!dir || !mode || !userId) throw new Error("usage: crash-child <dir> commit|claim <userId> [smtpUrl]");
  const { db } = await openDashboardDb({ dataDir: dir });
  if (mode === "commit") {
    await notifyUsers(db, {
      kind: "approval.waiting",
      userIds: [userId],
      title: "Batch CRASH-1 waits for your approval",
      body: "Batch CRASH-1 of Nordlys Norge AS waits for your approval.",
      link: "/approvals",
      eventKey: "approval.waiting:crash-1",
      baseUrl: "http://127.0.0.1:3000",
      email: true,
    });
    process.stdout.write("committed\n");
    process.kill(process.pid, "SIGKILL");
  }
  await drainOutbox(
    db,
    async () => {
      throw new Error(`must not send before the kill (${smtpUrl})`);
    },
    {
      leaseMs: 1000,
      afterClaim: () => {
        process.stdout.write("claimed\n");
        process.kill(process.pid, "SIGKILL");
      },
    },
  );
}

void main();
