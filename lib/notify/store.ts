/**
 * Notifications in the dashboard database (docs/users-and-notifications.md#notifications): telling people of an
 * event (the in-app row and, unless they switched e-mail off for the kind, an outbox e-mail, both in one
 * transaction), the paged list, the unread count, marking read, and the per-kind e-mail switches.
 *
 * An event is told once per person: `eventKey` (e.g. `approval.waiting:<batch id>`) is unique per user in
 * `notifications` and, with the user, in `email_outbox`; a retried event changes nothing.
 */
import { and, desc, eq, inArray, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import type { DashboardDb } from "../db/client";
import { emailOutbox, notificationEmailOptOuts, notifications, users } from "../db/schema";
import { NOTIFICATION_KIND_LIST, type NotificationKind } from "./kinds";
import { checkedHeaders, oneLine } from "./mail-text";
import { mailText } from "./money-text";

/** A transaction of the dashboard database. */
export type Tx = Parameters<Parameters<DashboardDb["transaction"]>[0]>[0];

/** One notification as the centre shows it. Timestamps ISO 8601 with offset. */
export interface NotificationView {
  id: string;
  kind: string;
  title: string;
  body: string;
  link: string | null;
  created_at: string;
  read: boolean;
}

/** An e-mail to queue: one address, a subject and a plain-text body; `dedupeKey` makes it once-only. */
export interface OutgoingMail {
  to: string;
  subject: string;
  body: string;
  kind: string;
  dedupeKey: string;
}

/**
 * Queues an e-mail in the outbox (in the caller's transaction, so it commits with the event). A second call with the
 * same `dedupeKey` queues nothing.
 * @returns whether a row was queued
 * @throws MailHeaderError for a recipient or subject with CR / LF (nothing queued)
 */
export async function enqueueMail(tx: Tx | DashboardDb, mail: OutgoingMail): Promise<boolean> {
  const { to, subject } = checkedHeaders(mail.to, mail.subject);
  const id = crypto.randomUUID();
  const rows = await tx
    .insert(emailOutbox)
    .values({
      id,
      toAddress: to,
      subject,
      body: mail.body,
      kind: mail.kind,
      dedupeKey: mail.dedupeKey,
      messageId: messageIdOf(id),
    })
    .onConflictDoNothing({ target: emailOutbox.dedupeKey })
    .returning({ id: emailOutbox.id });
  return rows.length > 0;
}

/** The Message-ID of an outbox row: derived from its id, so each attempt of the row carries the same one. */
export function messageIdOf(outboxId: string): string {
  return `<${outboxId}@treasury-dashboard.outbox>`;
}

/** What an event tells: to whom, of what kind, in words, and where to look (a path inside the dashboard). */
export interface NotifyInput {
  kind: NotificationKind;
  userIds: readonly string[];
  title: string;
  body: string;
  /** A path such as `/payments/<id>`; the e-mail carries it as an absolute URL on `baseUrl`. */
  link: string | null;
  eventKey: string;
  /** The dashboard's public origin for links in e-mails (NEXTAUTH_URL). */
  baseUrl: string;
  /** False when SMTP is off: only the in-app rows are written. */
  email: boolean;
}

/**
 * Tells enabled users of an event: a notification each, and an outbox e-mail to each who did not switch the kind off,
 * in one transaction; people told of this event before are skipped.
 * @returns the ids of users newly told, and how many e-mails were queued
 */
export async function notifyUsers(db: DashboardDb, n: NotifyInput): Promise<{ told: string[]; emails: number }> {
  if (n.userIds.length === 0) return { told: [], emails: 0 };
  return db.transaction((tx) => notifyUsersIn(tx, n));
}

/** As {@link notifyUsers}, inside the caller's transaction `tx` (which commits or rolls back all of it). */
export async function notifyUsersIn(tx: Tx, n: NotifyInput): Promise<{ told: string[]; emails: number }> {
  const ids = [...new Set(n.userIds)];
  if (ids.length === 0) return { told: [], emails: 0 };
  const title = oneLine(n.title).slice(0, 200);
  const people = await tx
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(and(inArray(users.id, ids), isNull(users.disabledAt)));
  if (people.length === 0) return { told: [], emails: 0 };
  const inserted = await tx
    .insert(notifications)
    .values(
      people.map((p) => ({ userId: p.id, kind: n.kind, title, body: n.body, link: n.link, dedupeKey: n.eventKey })),
    )
    .onConflictDoNothing({ target: [notifications.userId, notifications.dedupeKey] })
    .returning({ userId: notifications.userId });
  const told = inserted.map((r) => r.userId);
  let emails = 0;
  if (n.email && told.length > 0) {
    const off = await tx
      .select({ userId: notificationEmailOptOuts.userId })
      .from(notificationEmailOptOuts)
      .where(and(inArray(notificationEmailOptOuts.userId, told), eq(notificationEmailOptOuts.kind, n.kind)));
    const optedOut = new Set(off.map((o) => o.userId));
    const link = n.link ? `\n\n${n.baseUrl.replace(/\/+$/, "")}${n.link}` : "";
    for (const p of people) {
      if (!told.includes(p.id) || optedOut.has(p.id)) continue;
      const queued = await enqueueMail(tx, {
        to: p.email,
        // The recipient's locale is not stored: amounts in en-GB ("NOK 1,662.11").
        subject: mailText(title),
        body: `${mailText(n.body)}${link}\n\n— Treasury Dashboard. Switch these e-mails off on your profile page.`,
        kind: n.kind,
        dedupeKey: `${n.eventKey}:${p.id}`,
      });
      if (queued) emails++;
    }
  }
  return { told, emails };
}

/** Most notifications one page holds. */
export const NOTIFICATIONS_PAGE_MAX = 100;

/**
 * One page of a user's notifications, newest first. `cursor` is the `next_cursor` of the page before
 * (`<created_at>|<id>`); `limit` 1..100 (default 20).
 * @returns the items and the cursor of the next page (null on the last)
 */
export async function listNotifications(
  db: DashboardDb,
  userId: string,
  opts: { cursor?: string; limit?: number } = {},
): Promise<{ items: NotificationView[]; next_cursor: string | null }> {
  const limit = Math.min(NOTIFICATIONS_PAGE_MAX, Math.max(1, opts.limit ?? 20));
  const where: SQL[] = [eq(notifications.userId, userId)];
  const [at, id] = (opts.cursor ?? "").split("|");
  const after =
    at && id
      ? or(lt(notifications.createdAt, at), and(eq(notifications.createdAt, at), lt(notifications.id, id)))
      : undefined;
  if (after) where.push(after);
  const rows = await db
    .select()
    .from(notifications)
    .where(and(...where))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    items: page.map((r) => ({
      id: r.id,
      kind: r.kind,
      title: r.title,
      body: r.body,
      link: r.link,
      created_at: r.createdAt,
      read: r.readAt !== null,
    })),
    next_cursor: rows.length > limit && last ? `${last.createdAt}|${last.id}` : null,
  };
}

/** How many of the user's notifications are unread. */
export async function unreadCount(db: DashboardDb, userId: string): Promise<number> {
  const [r] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
  return Number(r?.n ?? 0);
}

/** Marks the user's notifications read: the given ids (only the user's own), or all when `ids` is "all". */
export async function markRead(db: DashboardDb, userId: string, ids: readonly string[] | "all"): Promise<number> {
  const where = [eq(notifications.userId, userId), isNull(notifications.readAt)];
  if (ids !== "all") {
    if (ids.length === 0) return 0;
    where.push(inArray(notifications.id, [...ids]));
  }
  const rows = await db
    .update(notifications)
    .set({ readAt: new Date().toISOString() })
    .where(and(...where))
    .returning({ id: notifications.id });
  return rows.length;
}

/** The user's e-mail switch per kind (true = e-mail on). */
export async function emailSettings(db: DashboardDb, userId: string): Promise<Record<NotificationKind, boolean>> {
  const off = await db
    .select({ kind: notificationEmailOptOuts.kind })
    .from(notificationEmailOptOuts)
    .where(eq(notificationEmailOptOuts.userId, userId));
  const offKinds = new Set(off.map((o) => o.kind));
  return Object.fromEntries(NOTIFICATION_KIND_LIST.map((k) => [k, !offKinds.has(k)])) as Record<
    NotificationKind,
    boolean
  >;
}

/** Switches e-mail of one kind on or off for the user. */
export async function setEmailSetting(db: DashboardDb, userId: string, kind: NotificationKind, on: boolean) {
  if (on)
    await db
      .delete(notificationEmailOptOuts)
      .where(and(eq(notificationEmailOptOuts.userId, userId), eq(notificationEmailOptOuts.kind, kind)));
  else await db.insert(notificationEmailOptOuts).values({ userId, kind }).onConflictDoNothing();
}
