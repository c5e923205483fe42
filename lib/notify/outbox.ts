/**
 * The e-mail outbox worker (docs/users-and-notifications.md#e-mail-outbox): sends queued rows through a `send`
 * function (SMTP in production, lib/notify/mailer.ts).
 *
 * The rule across a crash: a row is claimed (`sending`, with a lease of `leaseMs`) in a committed statement before
 * the SMTP exchange, and marked `sent` after the server accepted it. A kill -9 after the event committed and before
 * the claim leaves the row `pending`: it is sent once by the next run. A kill -9 after the claim leaves it `sending`:
 * it is sent again once the lease expired, with the same Message-ID (derived from the row), so a duplicate is only
 * possible when the process died in the instant between the server's acceptance and the `sent` mark, and a mail
 * client that de-duplicates by Message-ID shows it once. A row failing `maxAttempts` times is `failed` (logged).
 */
import { sql } from "drizzle-orm";
import type { DashboardDb } from "../db/client";

/** One message as the sender gets it. */
export interface OutboxMessage {
  id: string;
  to: string;
  subject: string;
  text: string;
  messageId: string;
}

export type SendMail = (m: OutboxMessage) => Promise<void>;

interface Row {
  id: string;
  to_address: string;
  subject: string;
  body: string;
  message_id: string;
  attempts: number;
}

function rowsOf<T>(r: unknown): T[] {
  return ((r as { rows?: T[] }).rows ?? (r as T[])) as T[];
}

/**
 * Claims up to `batch` sendable rows (pending, or sending with an expired lease) and sends them one by one.
 * `failpoint` (tests only) is called after the claim committed, before sending.
 * @returns how many were sent and how many failed this round
 */
export async function drainOutbox(
  db: DashboardDb,
  send: SendMail,
  opts: { leaseMs?: number; maxAttempts?: number; batch?: number; afterClaim?: () => void } = {},
): Promise<{ sent: number; failed: number }> {
  const leaseMs = opts.leaseMs ?? 60_000;
  const maxAttempts = opts.maxAttempts ?? 5;
  const claimed = rowsOf<Row>(
    await db.execute(sql`
      update email_outbox set state = 'sending', attempts = attempts + 1,
        claimed_until = now() + make_interval(secs => ${leaseMs / 1000})
      where id in (
        select id from email_outbox
        where state = 'pending' or (state = 'sending' and claimed_until < now())
        order by created_at limit ${opts.batch ?? 20} for update skip locked)
      returning id, to_address, subject, body, message_id, attempts`),
  );
  opts.afterClaim?.();
  let sent = 0;
  let failed = 0;
  for (const r of claimed) {
    try {
      await send({ id: r.id, to: r.to_address, subject: r.subject, text: r.body, messageId: r.message_id });
      await db.execute(
        sql`update email_outbox set state = 'sent', sent_at = now(), body = '', last_error = null where id = ${r.id}`,
      );
      sent++;
    } catch (err) {
      const message = (err instanceof Error ? err.message : String(err)).slice(0, 500);
      const final = r.attempts >= maxAttempts;
      await db.execute(
        sql`update email_outbox set state = ${final ? "failed" : "pending"}, claimed_until = null,
          last_error = ${message} where id = ${r.id}`,
      );
      failed++;
    }
  }
  return { sent, failed };
}
