/**
 * The receiver of the Treasury API's signed webhooks (docs/users-and-notifications.md#webhooks-from-the-treasury-api):
 * verifies the delivery, then tells people what concerns them, once per event id:
 *
 * - `bank_connection.failed` → every enabled admin (kind `bank.alert`);
 * - `statement.missing` → enabled admins and treasurers who have the statement's company (kind `bank.alert`);
 * - `payment.status.updated` with status `rejected` → the batch's creator (kind `payment.bank_rejected`, with the
 *   ISO 20022 reason code and the bank's text when the event carries them);
 * - any other event type: nothing (204).
 *
 * The event id is recorded in `treasury_webhook_events` in the transaction that writes the notifications (and their
 * outbox e-mails), so a redelivery — also one arriving while the first is being handled — tells nobody twice.
 */
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { PaymentStatusEvent } from "@treasury/contract/payments";
import { EVENT_ID_HEADER, SIGNATURE_HEADER, verifySignature } from "@treasury/contract/webhook-signing";
import type { DashboardDb } from "../db/client";
import { auditEvents, treasuryWebhookEvents, users } from "../db/schema";
import { AUDIT_ACTION } from "../audit-actions";
import { oneLine } from "./mail-text";
import { notifyUsersIn, type NotifyInput } from "./store";

/** The delivery envelope (docs/guides/webhooks.md#deliveries-and-signatures). */
const Envelope = z.object({
  id: z.string().trim().min(1).max(200),
  type: z.string().trim().min(1).max(100),
  created_at: z.string().max(100).optional(),
  data: z.record(z.string(), z.unknown()),
});

const BankConnectionFailed = z.object({
  connection_id: z.string().min(1).max(200),
  bank_name: z.string().max(300).optional(),
  operation: z.string().max(20).optional(),
  consecutive_failures: z.number().int().optional(),
  error: z.string().max(2000).nullable().optional(),
});

const StatementMissing = z.object({
  account_id: z.string().min(1).max(200),
  company_id: z.string().min(1).max(200),
  account_name: z.string().max(300).optional(),
  expected_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { message: "must be a date YYYY-MM-DD" }),
  due_at: z.string().max(100).optional(),
});

/** What the receiver answers: an HTTP status and a JSON body (null for 204). */
export interface ReceiverAnswer {
  status: number;
  body: Record<string, unknown> | null;
}

/** A delivery as received: the raw body text and the two headers (null when absent). */
export interface Delivery {
  rawBody: string;
  signature: string | null;
  eventId: string | null;
}

/** What the receiver needs: the configured secrets (undefined = receiver off), the database, the e-mail switch. */
export interface ReceiverDeps {
  secrets: readonly string[] | undefined;
  db: DashboardDb;
  /** True when SMTP is on: e-mails are queued with the notifications. */
  email: boolean;
  /** The dashboard's public origin for links in e-mails. */
  baseUrl: string;
  /** Unix seconds (tests). */
  now?: number;
}

const badRequest = (field: string, message: string): ReceiverAnswer => ({
  status: 400,
  body: { error: "validation_error", message: `${field}: ${message}`, details: { errors: { [field]: [message] } } },
});

function firstIssue(err: z.ZodError, prefix: string): ReceiverAnswer {
  const issue = err.issues[0];
  const field = [prefix, ...(issue?.path ?? []).map(String)].filter(Boolean).join(".");
  return badRequest(field || "body", issue?.message ?? "is invalid");
}

/** Enabled users with any of `roles` who have company `companyId` (null: any company). */
async function usersWith(db: DashboardDb, roles: readonly string[], companyId: string | null): Promise<string[]> {
  const rows = await db.select().from(users);
  return rows
    .filter(
      (u) =>
        u.disabledAt === null &&
        u.roles.some((r) => roles.includes(r)) &&
        (companyId === null || u.companyIds === null || u.companyIds.includes(companyId)),
    )
    .map((u) => u.id);
}

/** The dashboard user who created batch `batchId` and its reference, from the audit log's create entry. */
async function batchCreatorOf(db: DashboardDb, batchId: string): Promise<{ userId: string; reference: string | null }> {
  const [entry] = await db
    .select({ userId: auditEvents.userId, userEmail: auditEvents.userEmail, details: auditEvents.details })
    .from(auditEvents)
    .where(and(eq(auditEvents.action, AUDIT_ACTION.batchCreate), eq(auditEvents.objectId, batchId)))
    .limit(1);
  if (!entry) return { userId: "", reference: null };
  const [user] = entry.userId
    ? [{ id: entry.userId }]
    : await db.select({ id: users.id }).from(users).where(eq(users.email, entry.userEmail.trim().toLowerCase()));
  const reference = entry.details.reference;
  return { userId: user?.id ?? "", reference: typeof reference === "string" ? reference : null };
}

type Told = Omit<NotifyInput, "email" | "baseUrl">;

/**
 * Who is told what of one verified event. Null for an event of no interest (another type, a status other than
 * rejected); a 400 answer when the event's data lacks what its type needs.
 */
async function whatToTell(
  db: DashboardDb,
  event: z.infer<typeof Envelope>,
): Promise<{ tell: Told } | { answer: ReceiverAnswer } | null> {
  if (event.type === "bank_connection.failed") {
    const d = BankConnectionFailed.safeParse(event.data);
    if (!d.success) return { answer: firstIssue(d.error, "data") };
    const bank = oneLine(d.data.bank_name ?? "a bank");
    const failures = d.data.consecutive_failures ? ` ${d.data.consecutive_failures} times in a row` : "";
    return {
      tell: {
        kind: "bank.alert",
        userIds: await usersWith(db, ["admin"], null),
        title: `Bank connection to ${bank} failed`,
        body:
          `The ${d.data.operation ?? "exchange"} of the bank connection to ${bank} failed${failures}` +
          `${d.data.error ? `: ${oneLine(d.data.error).slice(0, 300)}` : ""}.`,
        link: "/bank-connections",
        eventKey: `bank_connection.failed:${event.id}`,
      },
    };
  }
  if (event.type === "statement.missing") {
    const d = StatementMissing.safeParse(event.data);
    if (!d.success) return { answer: firstIssue(d.error, "data") };
    const account = oneLine(d.data.account_name ?? d.data.account_id);
    return {
      tell: {
        kind: "bank.alert",
        userIds: await usersWith(db, ["admin", "treasurer"], d.data.company_id),
        title: `Statement of ${account} for ${d.data.expected_date} is missing`,
        body: `The bank statement of ${account} for ${d.data.expected_date} did not arrive${d.data.due_at ? ` (due ${d.data.due_at})` : ""}.`,
        link: "/statements",
        eventKey: `statement.missing:${d.data.account_id}:${d.data.expected_date}`,
      },
    };
  }
  if (event.type === "payment.status.updated") {
    const d = PaymentStatusEvent.safeParse(event.data);
    if (!d.success) return { answer: firstIssue(d.error, "data") };
    if (d.data.status !== "rejected" || !d.data.batch_id) return null;
    const creator = await batchCreatorOf(db, d.data.batch_id);
    const name = oneLine(creator.reference?.trim() || d.data.batch_id.slice(0, 8));
    const why = [d.data.reason, d.data.reason_text].filter(Boolean).map((s) => oneLine(String(s)));
    return {
      tell: {
        kind: "payment.bank_rejected",
        userIds: creator.userId ? [creator.userId] : [],
        title: `The bank rejected a payment of batch ${name}`,
        body: `The bank rejected a payment of batch ${name}${why.length ? `: ${why.join(" ").slice(0, 500)}` : ""}.`,
        link: `/payments/${d.data.batch_id}`,
        eventKey: `payment.bank_rejected:${d.data.instruction_id}`,
      },
    };
  }
  return null;
}

/**
 * Handles one delivery. Answers 503 when the receiver is off (no secret), 401 when the signature is absent, bad or
 * older than 5 minutes (nothing stored), 400 naming the field for a malformed body, 204 for an event type of no
 * interest, else 200 `{ received: true, duplicate, told }` (`told`: people newly told; a redelivery: duplicate,
 * 0). Throws only when the database fails (the API then delivers again).
 */
export async function receiveTreasuryWebhook(
  delivery: Delivery,
  deps: ReceiverDeps,
): Promise<ReceiverAnswer & { emails?: number }> {
  if (!deps.secrets || deps.secrets.length === 0)
    return {
      status: 503,
      body: {
        error: "webhook_receiver_off",
        message: "The Treasury webhook receiver is off: TREASURY_WEBHOOK_SECRET is not set (docs/configuration.md).",
      },
    };
  if (!verifySignature(delivery.signature, delivery.rawBody, deps.secrets, undefined, deps.now))
    return {
      status: 401,
      body: { error: "bad_signature", message: `${SIGNATURE_HEADER} is absent, invalid or older than 5 minutes.` },
    };
  let json: unknown;
  try {
    json = JSON.parse(delivery.rawBody);
  } catch {
    return badRequest("body", "must be a JSON object");
  }
  const env = Envelope.safeParse(json);
  if (!env.success) return firstIssue(env.error, "");
  const event = env.data;
  if (delivery.eventId !== null && delivery.eventId !== event.id)
    return badRequest("id", `must equal the ${EVENT_ID_HEADER} header`);
  const what = await whatToTell(deps.db, event);
  if (what === null) return { status: 204, body: null };
  if ("answer" in what) return what.answer;
  const n = what.tell;
  return deps.db.transaction(async (tx) => {
    const fresh = await tx
      .insert(treasuryWebhookEvents)
      .values({ id: event.id, type: event.type })
      .onConflictDoNothing()
      .returning({ id: treasuryWebhookEvents.id });
    if (fresh.length === 0) return { status: 200, body: { received: true, duplicate: true, told: 0 } };
    const r = await notifyUsersIn(tx, { ...n, email: deps.email, baseUrl: deps.baseUrl });
    await tx.update(treasuryWebhookEvents).set({ told: r.told.length }).where(eq(treasuryWebhookEvents.id, event.id));
    return { status: 200, body: { received: true, duplicate: false, told: r.told.length }, emails: r.emails };
  });
}
