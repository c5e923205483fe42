/**
 * The notification side of the running dashboard (docs/users-and-notifications.md): whether e-mail is on, the outbox
 * worker (a drain right after each event, and a sweep every 15 s that also recovers rows of a crashed process), and
 * the event hooks the BFF calls. A hook never fails the request that triggered it: its errors are logged.
 */
import "server-only";
import { getConfig } from "../server/config";
import { dashboardDb } from "../server/db";
import { logger } from "../server/log";
import { drainOutbox, type SendMail } from "./outbox";
import { smtpSender } from "./mailer";
import { notifyUsers, type NotifyInput } from "./store";

const g = globalThis as typeof globalThis & {
  __mailSender?: { url: string; send: SendMail };
  __outboxDraining?: Promise<void>;
  __outboxTimer?: ReturnType<typeof setInterval>;
};

/** True when `SMTP_URL` is set. */
export function emailEnabled(): boolean {
  return Boolean(getConfig().SMTP_URL);
}

function sender(): SendMail | null {
  const { SMTP_URL, SMTP_FROM } = getConfig();
  if (!SMTP_URL) return null;
  if (g.__mailSender?.url !== SMTP_URL) g.__mailSender = { url: SMTP_URL, send: smtpSender(SMTP_URL, SMTP_FROM) };
  return g.__mailSender.send;
}

/** Sends what the outbox holds, one drain at a time in this process; resolves when done (errors logged). */
export function kickOutbox(): Promise<void> {
  const send = sender();
  if (!send) return Promise.resolve();
  g.__outboxDraining ??= (async () => {
    try {
      const db = await dashboardDb();
      for (;;) {
        const r = await drainOutbox(db, send);
        if (r.failed) logger.warn({ failed: r.failed }, "outbox: e-mails not sent, retried later");
        if (r.sent + r.failed === 0) break;
      }
    } catch (err) {
      logger.error({ err }, "outbox drain failed");
    } finally {
      g.__outboxDraining = undefined;
    }
  })();
  return g.__outboxDraining;
}

/** Starts the 15-second outbox sweep (instrumentation.ts, when SMTP_URL is set). */
export function startOutboxWorker(intervalMs = 15_000): void {
  if (g.__outboxTimer || !emailEnabled()) return;
  g.__outboxTimer = setInterval(() => void kickOutbox(), intervalMs);
  g.__outboxTimer.unref?.();
  void kickOutbox();
}

/** The public origin for links in e-mails: NEXTAUTH_URL, else `fallback` (the request's origin). */
export function publicBaseUrl(fallback: string): string {
  return getConfig().NEXTAUTH_URL ?? fallback;
}

/**
 * Tells people of an event (in-app, and by e-mail when SMTP is on), then kicks the outbox. Never throws.
 */
export async function tell(n: Omit<NotifyInput, "email">): Promise<void> {
  try {
    const r = await notifyUsers(await dashboardDb(), { ...n, email: emailEnabled() });
    if (r.emails > 0) void kickOutbox();
  } catch (err) {
    logger.error({ err, kind: n.kind, eventKey: n.eventKey }, "notification not written");
  }
}
