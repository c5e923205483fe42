/**
 * The e-mail outbox against a real SMTP server on loopback (the `smtp-server` package, started here), and kill -9
 * in a child process (docs/users-and-notifications.md#e-mail-outbox):
 *
 * - an event tells each person once: the server receives one message per recipient, with the subject, the link
 *   and a Message-ID derived from the outbox row; a repeated event queues nothing more;
 * - a person who switched e-mail off for the kind gets the in-app row and no e-mail;
 * - kill -9 after the event committed and before the send: the next run delivers it once;
 * - kill -9 after the claim, before the send: delivered once after the lease, with the same Message-ID;
 * - header injection: a CR / LF in a recipient or subject is refused before anything is queued or sent; a batch
 *   reference with a line break becomes one line.
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { openDashboardDb, type DashboardDatabase } from "../db/client";
import { emailOutbox } from "../db/schema";
import { upsertUser } from "../db/users";
import { MailHeaderError } from "./mail-text";
import { smtpSender } from "./mailer";
import { moneyMarker } from "./money-text";
import { drainOutbox } from "./outbox";
import { enqueueMail, listNotifications, markRead, notifyUsers, setEmailSetting, unreadCount } from "./store";
import { startSmtpSink, type SmtpSink } from "./testing/smtp-sink";

let sink: SmtpSink;
let dir: string;
let database: DashboardDatabase;

beforeAll(async () => {
  process.env.DASHBOARD_BCRYPT_COST = "4";
  sink = await startSmtpSink();
  dir = await mkdtemp(path.join(tmpdir(), "notify-outbox-"));
  database = await openDashboardDb({ dataDir: dir });
}, 120_000);
afterAll(async () => {
  await database?.close();
  await sink?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const base = "http://127.0.0.1:3000";

async function person(name: string) {
  return upsertUser(database.db, { email: `${name}@example.com`, name, roles: ["approver"] });
}

function runChild(
  mode: "commit" | "claim",
  userId: string,
): Promise<{ code: number | null; signal: string | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", path.join(__dirname, "testing", "crash-child.ts"), dir, mode, userId, sink.url],
      { cwd: process.cwd(), stdio: ["ignore", "pipe", "pipe"] },
    );
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (out += d.toString()));
    child.on("error", reject);
    child.on("exit", (code, signal) => resolve({ code, signal, out }));
  });
}

describe("sending through SMTP", () => {
  it("delivers one message per person told, with recipient, subject, link and a derived Message-ID", async () => {
    const [a, b] = [await person("anna"), await person("bo")];
    const event = {
      kind: "approval.waiting" as const,
      userIds: [a.id, b.id],
      title: "Batch SAL-11 waits for your approval",
      body: `Batch SAL-11 of Nordlys Norge AS (${moneyMarker("1234.5", "NOK")}) waits for your approval.`,
      link: "/approvals",
      eventKey: "approval.waiting:batch-sal-11",
      baseUrl: base,
      email: true,
    };
    expect(await notifyUsers(database.db, event)).toMatchObject({ emails: 2 });
    // The same event again: nobody is told twice.
    expect(await notifyUsers(database.db, event)).toEqual({ told: [], emails: 0 });
    const send = smtpSender(sink.url, "Treasury <treasury@example.com>");
    expect(await drainOutbox(database.db, send)).toEqual({ sent: 2, failed: 0 });
    const mails = await sink.waitFor(2);
    expect(mails.map((m) => m.to[0]).sort()).toEqual(["anna@example.com", "bo@example.com"]);
    expect(mails[0]?.subject).toBe("Batch SAL-11 waits for your approval");
    expect(mails[0]?.link).toBe(`${base}/approvals`);
    // The e-mail formats the amount (recipient's locale unknown: en-GB); the in-app row keeps it structured.
    expect(mails[0]?.text).toContain("Batch SAL-11 of Nordlys Norge AS (NOK 1,234.50) waits for your approval.");
    expect((await listNotifications(database.db, a.id)).items[0]?.body).toContain("[[NOK 1234.5]]");
    const rows = await database.db.select().from(emailOutbox).where(eq(emailOutbox.kind, "approval.waiting"));
    expect(rows.every((r) => r.state === "sent" && r.body === "")).toBe(true);
    expect(mails.map((m) => m.messageId).sort()).toEqual(rows.map((r) => r.messageId).sort());
    expect(await drainOutbox(database.db, send)).toEqual({ sent: 0, failed: 0 });
    expect(sink.received).toHaveLength(2);
    expect(await unreadCount(database.db, a.id)).toBe(1);
  });

  it("a person who switched the kind off gets the in-app row and no e-mail; the list is paged", async () => {
    const c = await person("cai");
    await setEmailSetting(database.db, c.id, "batch.rejected", false);
    const before = sink.received.length;
    for (let i = 0; i < 25; i++)
      await notifyUsers(database.db, {
        kind: "batch.rejected",
        userIds: [c.id],
        title: `Batch R-${i} was rejected`,
        body: "Rejected.",
        link: null,
        eventKey: `batch.rejected:r-${i}`,
        baseUrl: base,
        email: true,
      });
    expect(await drainOutbox(database.db, smtpSender(sink.url))).toEqual({ sent: 0, failed: 0 });
    expect(sink.received.length).toBe(before);
    const p1 = await listNotifications(database.db, c.id, { limit: 20 });
    expect(p1.items).toHaveLength(20);
    expect(p1.items[0]?.title).toBe("Batch R-24 was rejected");
    const p2 = await listNotifications(database.db, c.id, { limit: 20, cursor: p1.next_cursor ?? "" });
    expect(p2.items).toHaveLength(5);
    expect(p2.next_cursor).toBeNull();
    expect(new Set([...p1.items, ...p2.items].map((n) => n.id)).size).toBe(25);
    expect(await markRead(database.db, c.id, [String(p1.items[0]?.id)])).toBe(1);
    expect(await unreadCount(database.db, c.id)).toBe(24);
    expect(await markRead(database.db, c.id, "all")).toBe(24);
  });

  it("refuses header injection through a recipient or a subject, and flattens a reference with a line break", async () => {
    await expect(
      enqueueMail(database.db, {
        to: "x@example.com\r\nBcc: all@example.com",
        subject: "Hi",
        body: "b",
        kind: "test",
        dedupeKey: "inj-1",
      }),
    ).rejects.toBeInstanceOf(MailHeaderError);
    await expect(
      enqueueMail(database.db, {
        to: "x@example.com",
        subject: "Hi\r\nBcc: all@example.com",
        body: "b",
        kind: "test",
        dedupeKey: "inj-2",
      }),
    ).rejects.toBeInstanceOf(MailHeaderError);
    expect(await database.db.select().from(emailOutbox).where(eq(emailOutbox.kind, "test"))).toHaveLength(0);
    const send = smtpSender(sink.url);
    await expect(
      send({ id: "x", to: "x@example.com", subject: "A\nBcc: y@example.com", text: "t", messageId: "<x@y>" }),
    ).rejects.toBeInstanceOf(MailHeaderError);

    const d = await person("dag");
    const before = sink.received.length;
    await notifyUsers(database.db, {
      kind: "batch.approved",
      userIds: [d.id],
      title: "Batch EVIL\r\nBcc: all@example.com was approved",
      body: "Approved.",
      link: null,
      eventKey: "batch.approved:evil",
      baseUrl: base,
      email: true,
    });
    await drainOutbox(database.db, send);
    const [mail] = (await sink.waitFor(before + 1)).slice(before);
    expect(mail?.to).toEqual(["dag@example.com"]);
    expect(mail?.subject).toBe("Batch EVIL  Bcc: all@example.com was approved");
    expect(mail?.raw).not.toMatch(/^Bcc:/im);
  });
});

describe("kill -9", () => {
  it("between the commit and the send: the next run delivers the e-mail once", async () => {
    const e = await person("eli");
    await database.close();
    const r = await runChild("commit", e.id);
    expect(r.signal, r.out).toBe("SIGKILL");
    expect(r.out).toContain("committed");
    database = await openDashboardDb({ dataDir: dir });
    const before = sink.received.length;
    const send = smtpSender(sink.url);
    expect(await drainOutbox(database.db, send)).toEqual({ sent: 1, failed: 0 });
    expect(await drainOutbox(database.db, send)).toEqual({ sent: 0, failed: 0 });
    const mails = (await sink.waitFor(before + 1)).slice(before);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ to: ["eli@example.com"], subject: "Batch CRASH-1 waits for your approval" });
  }, 120_000);

  it("after the claim and before the send: delivered once after the lease, with the row's Message-ID", async () => {
    const f = await person("fay");
    await enqueueMail(database.db, {
      to: "fay@example.com",
      subject: "Claimed then killed",
      body: "b",
      kind: "approval.waiting",
      dedupeKey: `claim:${f.id}`,
    });
    await database.close();
    const r = await runChild("claim", f.id);
    expect(r.signal, r.out).toBe("SIGKILL");
    expect(r.out).toContain("claimed");
    database = await openDashboardDb({ dataDir: dir });
    const [row] = await database.db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.dedupeKey, `claim:${f.id}`));
    expect(row?.state).toBe("sending");
    const send = smtpSender(sink.url);
    // The lease (1 s in the child) has to run out first.
    await new Promise((res) => setTimeout(res, 1200));
    const before = sink.received.length;
    expect(await drainOutbox(database.db, send)).toEqual({ sent: 1, failed: 0 });
    expect(await drainOutbox(database.db, send)).toEqual({ sent: 0, failed: 0 });
    const mails = (await sink.waitFor(before + 1)).slice(before);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.messageId).toBe(row?.messageId);
  }, 120_000);
});
