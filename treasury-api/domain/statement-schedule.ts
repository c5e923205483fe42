/**
 * Missing statements (docs/bank-files.md "Missing statements"): each account knows when its statements arrive and
 * an overdue one is listed (`GET /statements/missing`) and announced once by a `statement.missing` webhook.
 *
 * A statement is identified by its last day (the day of its closing booked balance). The schedule is set per
 * account (`PUT /statements/schedules/{account_id}`) or learned from the account's imported statements of the last
 * 120 days (closing booked balances not written by the API itself):
 * - `daily`: the median gap between statement days is at most 3 days (business days, a weekend gap counts as one);
 * - `weekly`: median gap 5–9 days; `monthly`: 25–35 days; anything else, or fewer than 3 statements: `none`.
 * The statement of day D (daily: every Monday–Friday after the last one; weekly: last + 7 k; monthly: each month's
 * last day) is due `lag_days` after D at `due_hour`:00 UTC (learned schedules: 1 day, 10:00) and overdue after
 * that while no statement for D (or later) has arrived. At most 31 overdue statements are listed per account.
 */
import { and, eq, gte, inArray, ne, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../db/client";
import { accounts, balanceSnapshots, statementMissingNotices, statementSchedules } from "../db/schema";
import { nextDay } from "../lib/dates";
import { newId } from "../lib/secrets";
import { scopeWhere, type DataScope } from "../lib/scope";
import { enqueueEvents } from "../webhooks/outbox";

export const STATEMENT_CADENCES = ["daily", "weekly", "monthly", "none"] as const;
export type StatementCadence = (typeof STATEMENT_CADENCES)[number];

/** When an account's statements arrive. */
export interface StatementSchedule {
  cadence: StatementCadence;
  /** Calendar days after the statement's last day. */
  lagDays: number;
  /** UTC hour of the due day. */
  dueHour: number;
  source: "set" | "learned";
}

/** One overdue statement. */
export interface MissingStatement {
  account_id: string;
  company_id: string;
  account_name: string;
  /** The statement's last day, `YYYY-MM-DD`. */
  expected_date: string;
  /** ISO 8601 (UTC) instant it was due. */
  due_at: string;
  /** The last statement day received, null when none. */
  last_statement_date: string | null;
  cadence: StatementCadence;
  schedule_source: "set" | "learned";
}

const LEARN_DAYS = 120;
const MAX_LISTED = 31;

const DAY_MS = 86_400_000;
const dayNumber = (d: string) => Math.round(Date.parse(`${d}T00:00:00Z`) / DAY_MS);
const weekday = (d: string) => new Date(`${d}T00:00:00Z`).getUTCDay();
const addDays = (d: string, n: number) =>
  new Date(Date.parse(`${d}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);

/**
 * The schedule learned from statement days (`YYYY-MM-DD`, any order); see the module doc.
 * @returns cadence `none` when fewer than 3 days or no regular gap
 */
export function learnSchedule(days: readonly string[]): StatementSchedule {
  const sorted = [...new Set(days)].sort();
  const none: StatementSchedule = { cadence: "none", lagDays: 1, dueHour: 10, source: "learned" };
  if (sorted.length < 3) return none;
  const gaps: number[] = [];
  for (let i = 1; i < sorted.length; i++) {
    const a = sorted[i - 1] ?? "";
    const b = sorted[i] ?? "";
    let gap = dayNumber(b) - dayNumber(a);
    // Friday → Monday is one business day.
    if (weekday(a) === 5 && weekday(b) === 1 && gap === 3) gap = 1;
    gaps.push(gap);
  }
  gaps.sort((x, y) => x - y);
  const median = gaps[Math.floor(gaps.length / 2)] ?? 0;
  const cadence: StatementCadence =
    median >= 1 && median <= 3
      ? "daily"
      : median >= 5 && median <= 9
        ? "weekly"
        : median >= 25 && median <= 35
          ? "monthly"
          : "none";
  return { ...none, cadence };
}

/** The statement days expected after `last`, up to `today` (inclusive), by cadence. */
export function expectedDays(cadence: StatementCadence, last: string, today: string): string[] {
  const out: string[] = [];
  if (cadence === "daily") {
    for (let d = nextDay(last); d <= today && out.length < 400; d = nextDay(d)) if (weekday(d) % 6 !== 0) out.push(d);
  } else if (cadence === "weekly") {
    for (let d = addDays(last, 7); d <= today; d = addDays(d, 7)) out.push(d);
  } else if (cadence === "monthly") {
    let [y, m] = last.split("-").map(Number) as [number, number];
    for (;;) {
      m += 1;
      if (m > 12) [y, m] = [y + 1, 1];
      const end = new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
      if (end > today) break;
      out.push(end);
    }
  }
  return out;
}

/** The instant the statement of `day` is due. */
export function dueAt(day: string, s: Pick<StatementSchedule, "lagDays" | "dueHour">): string {
  return new Date(Date.parse(`${addDays(day, s.lagDays)}T00:00:00Z`) + s.dueHour * 3_600_000).toISOString();
}

/**
 * The overdue statements of the accounts in scope (active accounts only), oldest first per account.
 * @param now the clock (default now)
 */
export async function listMissingStatements(
  db: DbOrTx,
  scope: DataScope | null,
  now: Date = new Date(),
): Promise<MissingStatement[]> {
  const conds = [eq(accounts.status, "active")];
  if (scope) conds.push(...scopeWhere(scope, accounts.tenantId, accounts.companyId));
  const accts = await db
    .select({ id: accounts.id, companyId: accounts.companyId, name: accounts.name })
    .from(accounts)
    .where(and(...conds));
  if (accts.length === 0) return [];
  const ids = accts.map((a) => a.id);
  const today = now.toISOString().slice(0, 10);
  const since = addDays(today, -LEARN_DAYS);
  // The accounts' closing booked balances from statements (not from the API), read twice below.
  const statementClosings = [
    inArray(balanceSnapshots.accountId, ids),
    eq(balanceSnapshots.balanceType, "closing_booked"),
    ne(balanceSnapshots.source, "api"),
  ];
  const [set, days, latest] = await Promise.all([
    db.select().from(statementSchedules).where(inArray(statementSchedules.accountId, ids)),
    db
      .select({ accountId: balanceSnapshots.accountId, day: balanceSnapshots.asOfDate })
      .from(balanceSnapshots)
      .where(and(...statementClosings, gte(balanceSnapshots.asOfDate, since))),
    db
      .select({ accountId: balanceSnapshots.accountId, day: sql<string>`max(${balanceSnapshots.asOfDate})::text` })
      .from(balanceSnapshots)
      .where(and(...statementClosings))
      .groupBy(balanceSnapshots.accountId),
  ]);
  const setBy = new Map(set.map((s) => [s.accountId, s]));
  const daysBy = new Map<string, string[]>();
  for (const d of days) daysBy.set(d.accountId, [...(daysBy.get(d.accountId) ?? []), d.day]);
  const lastBy = new Map(latest.map((l) => [l.accountId, l.day]));
  const out: MissingStatement[] = [];
  for (const a of accts) {
    const row = setBy.get(a.id);
    const schedule: StatementSchedule = row
      ? { cadence: row.cadence as StatementCadence, lagDays: row.lagDays, dueHour: row.dueHour, source: "set" }
      : learnSchedule(daysBy.get(a.id) ?? []);
    const last = lastBy.get(a.id) ?? null;
    // Without any statement there is nothing to follow from (a set schedule starts from its last statement too).
    if (schedule.cadence === "none" || last === null) continue;
    const overdue = expectedDays(schedule.cadence, last, today)
      .map((day) => ({ day, due: dueAt(day, schedule) }))
      .filter((e) => e.due < now.toISOString())
      .slice(-MAX_LISTED);
    for (const e of overdue)
      out.push({
        account_id: a.id,
        company_id: a.companyId,
        account_name: a.name,
        expected_date: e.day,
        due_at: e.due,
        last_statement_date: last,
        cadence: schedule.cadence,
        schedule_source: schedule.source,
      });
  }
  return out;
}

/**
 * Records every overdue statement not yet noticed and emits one `statement.missing` event for each (once: the
 * notice row's unique key is account + statement day). Run by the statement watch worker.
 * @returns the number of new notices
 */
export async function noticeMissingStatements(db: Db, now: Date = new Date()): Promise<number> {
  const missing = await listMissingStatements(db, null, now);
  if (missing.length === 0) return 0;
  return db.transaction(async (tx) => {
    const tenants = new Map(
      (
        await tx
          .select({ id: accounts.id, tenantId: accounts.tenantId })
          .from(accounts)
          .where(inArray(accounts.id, [...new Set(missing.map((m) => m.account_id))]))
      ).map((r) => [r.id, r.tenantId]),
    );
    let n = 0;
    for (const m of missing) {
      const tenantId = tenants.get(m.account_id);
      if (!tenantId) continue;
      const inserted = await tx
        .insert(statementMissingNotices)
        .values({
          id: newId(),
          tenantId,
          companyId: m.company_id,
          accountId: m.account_id,
          expectedDate: m.expected_date,
          dueAt: m.due_at,
        })
        .onConflictDoNothing()
        .returning({ id: statementMissingNotices.id });
      if (inserted.length === 0) continue;
      n += 1;
      await enqueueEvents(tx, [
        { tenantId, companyId: m.company_id, type: "statement.missing", data: { ...m } as Record<string, unknown> },
      ]);
    }
    return n;
  });
}

/**
 * Sets an account's schedule (PUT /statements/schedules/{account_id}).
 * @throws nothing itself; the route checks the account is in scope first
 */
export async function setStatementSchedule(
  db: DbOrTx,
  account: { id: string; tenantId: string; companyId: string },
  s: { cadence: StatementCadence; lag_days: number; due_hour: number },
): Promise<void> {
  const values = { cadence: s.cadence, lagDays: s.lag_days, dueHour: s.due_hour, updatedAt: new Date().toISOString() };
  await db
    .insert(statementSchedules)
    .values({ accountId: account.id, tenantId: account.tenantId, companyId: account.companyId, ...values })
    .onConflictDoUpdate({ target: statementSchedules.accountId, set: values });
}
