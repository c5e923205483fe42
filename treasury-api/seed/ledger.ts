/**
 * The demo ledger generator: per account and day, the
 * transactions, the closing booked / available balances, the coverage day and
 * (for the last 30 days and today) the 15-minute intraday points. Pure and
 * streaming: `generateAccountLedger` yields one day at a time, so a million
 * transactions are never held in memory at once, and the test suite can
 * regenerate what the seeder wrote without a database.
 *
 * Consistency rules (checked by demo.test.ts):
 * - closing_booked(d) = closing_booked(d − 1) + credits(d) − debits(d);
 * - closing_available(d) = closing_booked(d) − a reservation (0 on most days);
 * - intraday point at 00:00 + 15k min = previous closing + bookings up to then,
 *   so the day's last point (23:45) equals the day's closing;
 * - today has no closing: `interim_booked` / `interim_available` instead, and
 *   today's bookings all fall before 08:00 UTC (the "morning so far") and
 *   never after `now` when given, nor do today's intraday points.
 *
 * Amounts are integer minor units throughout; {@link formatMinor} turns them
 * into decimal strings. Volume: about 4.5 random bookings per weekday per unit
 * of account intensity at scale 1, times `scale`; scheduled bookings
 * (payroll, tax, rent) do not scale.
 */
import { addDays, dateRange, isNonBankingDay, subMonthsUtc, weekday, daysInMonth } from "./calendar";
import { CUSTOMERS, FOREIGN_PARTNERS, SUPPLIERS, CARD_ACQUIRER, WORDS, customerReference } from "./ledger-text";
import { CURRENCY_FACTOR, scheduledDrafts, type Draft } from "./ledger-schedule";
import type { SeedAccount, SeedCompany, SeedOrganization } from "./organization";
import { createRng, type Rng } from "./prng";

export interface LedgerOptions {
  seed: number;
  /** Multiplies the volume of random bookings (1 ≈ 23 000 transactions in all; 50 ≈ 1.15 million). */
  scale: number;
  /** The anchor date `YYYY-MM-DD` (UTC): history covers 13 months up to it. */
  today: string;
  /**
   * The current time. When it falls on `today` before 08:00 UTC, today's
   * bookings and intraday points stop at it (nothing is generated in the
   * future); otherwise today runs to 08:00. Omitted (tests pinning `today`):
   * 08:00.
   */
  now?: Date;
}

/**
 * Seconds after 00:00 UTC of `today` up to which today's bookings and
 * intraday points are generated: 08:00, or `now` when that is earlier on the
 * same day.
 */
export function todayCutoffSeconds(today: string, now?: Date): number {
  if (!now) return TODAY_CUTOFF_SECONDS;
  const sinceMidnight = Math.floor((now.getTime() - Date.parse(`${today}T00:00:00Z`)) / 1000);
  return sinceMidnight >= 0 ? Math.min(TODAY_CUTOFF_SECONDS, sinceMidnight) : TODAY_CUTOFF_SECONDS;
}

export interface GeneratedTransaction {
  id: string;
  amountMinor: number;
  direction: "credit" | "debit";
  bookedDate: string;
  /** ISO 8601 UTC, e.g. `2026-01-10T09:15:02Z`. */
  bookedAt: string;
  valueDate: string;
  valueAt: string;
  counterpartyName: string;
  remittance: string;
  endToEndId: string | null;
}

export interface GeneratedIntradayPoint {
  id: string;
  timestamp: string;
  balanceMinor: number;
}

export interface GeneratedDay {
  date: string;
  isToday: boolean;
  /** Sorted by booking time. */
  transactions: GeneratedTransaction[];
  /** Closing booked balance (for today: interim booked), minor units. */
  bookedMinor: number;
  /** Closing available balance (for today: interim available), minor units. */
  availableMinor: number;
  bookedBalanceId: string;
  availableBalanceId: string;
  coverage: { id: string; source: "camt.053" | "api"; completeness: "complete" | "partial" | "missing" };
  intraday: GeneratedIntradayPoint[];
}

/** Random bookings per weekday per unit of account intensity at scale 1. */
export const BASE_RATE = 4.5;
/** Days of 15-minute intraday points before today (today has points up to 08:00). */
export const INTRADAY_DAYS = 30;
const TODAY_CUTOFF_SECONDS = 8 * 3600;
const QUARTER = 900;

/** The first date of the 13 months of history ending at `today`. */
export function ledgerStartDate(today: string): string {
  return addDays(subMonthsUtc(today, 13), 1);
}

/** An integer amount of minor units as a decimal string with two decimals, e.g. -12345 → "-123.45". */
export function formatMinor(minor: number): string {
  const abs = Math.abs(minor);
  const cents = abs % 100;
  return `${minor < 0 ? "-" : ""}${(abs - cents) / 100}.${cents < 10 ? "0" : ""}${cents}`;
}

/** Relative booking volume of a day: weekdays, weekends, holidays, month ends, the summer holiday. */
function dayFactor(account: SeedAccount, date: string): number {
  const wd = weekday(date);
  let f = wd === 0 ? 0.05 : wd === 6 ? 0.1 : wd === 1 ? 1.1 : wd === 5 ? 1.15 : 1;
  if (wd !== 0 && wd !== 6 && isNonBankingDay(account.country, date)) f = 0.08;
  const dom = Number(date.slice(8, 10));
  const dim = daysInMonth(date);
  if (dom >= dim - 1 || dom <= 2) f *= 1.4;
  const month = date.slice(5, 7);
  if (month === "07") f *= 0.55;
  if (month === "12" && dom <= 20) f *= 1.15;
  return f;
}

function amount(rng: Rng, account: SeedAccount, median: number, sigma: number): number {
  const major = median * CURRENCY_FACTOR[account.currency] * Math.exp(sigma * rng.normal());
  // Invoices are often whole amounts; card settlements and fees never are.
  return rng.chance(0.45) ? Math.max(1, Math.round(major)) * 100 : Math.max(1, Math.round(major * 100));
}

function timeOfDay(rng: Rng, from: number, to: number): number {
  return from + Math.floor(rng.next() * (to - from));
}

function endToEnd(rng: Rng, prefix: string, date: string): string {
  return `${prefix}${date.replaceAll("-", "")}${rng.nextUint32().toString(16).toUpperCase().padStart(8, "0")}`;
}

/**
 * What every random booking of a day draws first, in this order (the draws fix the generated data): the time of
 * day, an invoice number, a value-date offset and the roll `r` in [0, 1) that picks the kind of booking.
 */
interface RandomBooking {
  rng: Rng;
  account: SeedAccount;
  company: SeedCompany;
  date: string;
  weekend: boolean;
  /** Earliest second of the day for ordinary bookings. */
  from: number;
  seconds: number;
  invoiceNo: number;
  valueOffsetDays: number;
  r: number;
}

/**
 * A random booking of an operating, property or foreign-currency account: card settlements (weekends and 12 %
 * of operating days), customer payments, supplier invoices, refunds and bank fees.
 */
function operatingDraft(b: RandomBooking): Draft {
  const { rng, account, date, seconds, invoiceNo, valueOffsetDays, r } = b;
  const c = account.country;
  const w = WORDS[c];
  const foreign = account.role === "fx";
  const ownPrefix = b.company.key.slice(0, 4).toUpperCase();
  const customers = foreign ? FOREIGN_PARTNERS : CUSTOMERS[c];
  const suppliers = foreign ? FOREIGN_PARTNERS : SUPPLIERS[c];
  if (!foreign && account.role === "operating" && (b.weekend || r < 0.12)) {
    return {
      seconds: timeOfDay(rng, 4 * 3600, b.from + 3600),
      amountMinor: amount(rng, account, 9_000, 0.5),
      direction: "credit",
      counterparty: CARD_ACQUIRER[c],
      remittance: `${w.card} ${addDays(date, -1)}`,
      endToEndId: null,
      valueOffsetDays: 0,
    };
  }
  if (r < 0.56) {
    const ref = foreign ? `Invoice ${invoiceNo}` : customerReference(rng, c, invoiceNo);
    return {
      seconds,
      amountMinor: amount(rng, account, account.role === "property" ? 6_000 : 21_000, 1.0),
      direction: "credit",
      counterparty: rng.pick(customers),
      remittance: ref,
      endToEndId: rng.chance(0.6) ? endToEnd(rng, "E2E", date) : null,
      valueOffsetDays,
    };
  }
  if (r < 0.93) {
    return {
      seconds,
      amountMinor: amount(rng, account, account.role === "property" ? 25_000 : 17_000, 1.1),
      direction: "debit",
      counterparty: rng.pick(suppliers),
      remittance: `${foreign ? "Invoice" : w.invoice} ${rng.int(1000, 999_999)}`,
      endToEndId: endToEnd(rng, ownPrefix, date),
      valueOffsetDays,
    };
  }
  if (r < 0.97) {
    return {
      seconds,
      amountMinor: amount(rng, account, 2_500, 0.8),
      direction: "debit",
      counterparty: rng.pick(customers),
      remittance: `${foreign ? "Credit note" : w.refund} ${invoiceNo}`,
      endToEndId: endToEnd(rng, ownPrefix, date),
      valueOffsetDays: 0,
    };
  }
  return {
    seconds,
    amountMinor: amount(rng, account, 90, 0.6),
    direction: "debit",
    counterparty: account.bank.name,
    remittance: `${w.fee} ${foreign ? "SWIFT" : "betaling"}`,
    endToEndId: null,
    valueOffsetDays: 0,
  };
}

/** A random booking of a holding account: intercompany interest and loans, supplier invoices, bank fees. */
function holdingDraft(b: RandomBooking): Draft {
  const { rng, account, date, seconds, invoiceNo, r } = b;
  const w = WORDS[account.country];
  const ownPrefix = b.company.key.slice(0, 4).toUpperCase();
  if (r < 0.35)
    return {
      seconds,
      amountMinor: amount(rng, account, 250_000, 0.8),
      direction: "credit",
      counterparty: rng.pick(["Nordlys Norge AS", "Nordlys Sverige AB", "Nordlys Danmark A/S", "Nordlys Suomi Oy"]),
      remittance: `${w.interest} konsernlån ${date.slice(0, 7)}`,
      endToEndId: endToEnd(rng, "ICO", date),
      valueOffsetDays: 0,
    };
  if (r < 0.7)
    return {
      seconds,
      amountMinor: amount(rng, account, 60_000, 0.9),
      direction: "debit",
      counterparty: rng.pick(SUPPLIERS[account.country]),
      remittance: `${w.invoice} ${invoiceNo}`,
      endToEndId: endToEnd(rng, ownPrefix, date),
      valueOffsetDays: b.valueOffsetDays,
    };
  if (r < 0.9)
    return {
      seconds,
      amountMinor: amount(rng, account, 300_000, 0.7),
      direction: "debit",
      counterparty: rng.pick(["Nordlys Sverige AB", "Nordlys Danmark A/S", "Nordlys Suomi Oy"]),
      remittance: `Konsernlån ${invoiceNo}`,
      endToEndId: endToEnd(rng, "ICO", date),
      valueOffsetDays: 0,
    };
  return {
    seconds,
    amountMinor: amount(rng, account, 150, 0.5),
    direction: "debit",
    counterparty: account.bank.name,
    remittance: w.fee,
    endToEndId: null,
    valueOffsetDays: 0,
  };
}

/** A random booking of a payroll account (employee expenses) or, for any other role, the tax account's interest. */
function otherDraft(b: RandomBooking): Draft {
  const { rng, account, seconds, invoiceNo } = b;
  if (account.role === "payroll") {
    return {
      seconds,
      amountMinor: amount(rng, account, 1_800, 0.7),
      direction: "debit",
      counterparty: "Anställd utlägg",
      remittance: rng.pick(["Reseräkning", "Utlägg", "Traktamente"]) + ` ${invoiceNo}`,
      endToEndId: endToEnd(rng, "LON", b.date),
      valueOffsetDays: 0,
    };
  }
  // tax account: only interest and occasional corrections besides the schedule.
  return {
    seconds,
    amountMinor: amount(rng, account, 400, 0.6),
    direction: "credit",
    counterparty: account.bank.name,
    remittance: WORDS[account.country].interest,
    endToEndId: null,
    valueOffsetDays: 0,
  };
}

/**
 * One random booking of an account's role on `date` (today: between 05:00 and the 08:00 cutoff, else 06:00 to
 * 18:00), drawn from `rng`. Pure: no errors.
 */
function randomDraft(
  rng: Rng,
  account: SeedAccount,
  company: SeedCompany,
  date: string,
  weekend: boolean,
  today: boolean,
): Draft {
  const from = today ? 5 * 3600 : 6 * 3600;
  const to = today ? TODAY_CUTOFF_SECONDS : 18 * 3600;
  const seconds = timeOfDay(rng, from, to);
  const invoiceNo = rng.int(10_000, 99_999);
  const valueOffsetDays = rng.chance(0.06) ? 1 : 0;
  const r = rng.next();
  const b: RandomBooking = { rng, account, company, date, weekend, from, seconds, invoiceNo, valueOffsetDays, r };
  if (account.role === "operating" || account.role === "property" || account.role === "fx") return operatingDraft(b);
  if (account.role === "holding") return holdingDraft(b);
  return otherDraft(b);
}

function iso(date: string, seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return `${date}T${h < 10 ? "0" : ""}${h}:${m < 10 ? "0" : ""}${m}:${s < 10 ? "0" : ""}${s}Z`;
}

/**
 * The cash-pool booking that keeps a day's balance near the account's level: a top-up when the projected closing
 * (`booked` + the drafts' net, minor units) falls below 40 % of `levelMinor`, a sweep above 220 %, in round
 * amounts of 100 000 major units; null when the balance stays within the band.
 */
function poolDraft(
  account: SeedAccount,
  company: SeedCompany,
  date: string,
  isToday: boolean,
  levelMinor: number,
  booked: number,
  drafts: Draft[],
): Draft | null {
  let net = 0;
  for (const d of drafts) net += d.direction === "credit" ? d.amountMinor : -d.amountMinor;
  const projected = booked + net;
  if (projected >= levelMinor * 0.4 && projected <= levelMinor * 2.2) return null;
  const inKoncern = company.koncernKey !== null && company.key !== "nordlys-holding";
  const w = WORDS[account.country];
  const diff =
    Math.round((levelMinor - projected) / 10_000_000) * 10_000_000 ||
    (projected < levelMinor ? 10_000_000 : -10_000_000);
  return {
    seconds: isToday ? 7 * 3600 + 1800 : 15 * 3600 + 1800,
    amountMinor: Math.abs(diff),
    direction: diff > 0 ? "credit" : "debit",
    counterparty: inKoncern ? "Nordlys Holding AS" : company.name,
    remittance: inKoncern
      ? diff > 0
        ? w.topUp
        : w.sweep
      : diff > 0
        ? "Overføring fra plasseringskonto"
        : "Overføring til plasseringskonto",
    endToEndId: `POOL${date.replaceAll("-", "")}${account.key.toUpperCase().slice(0, 8)}`,
    valueOffsetDays: 0,
  };
}

/** The day's drafts (sorted by time) as transactions booked on `date`, each with an id drawn from `rng`. */
function toTransactions(rng: Rng, date: string, drafts: Draft[]): GeneratedTransaction[] {
  return drafts.map((d) => {
    const valueDate = d.valueOffsetDays ? addDays(date, d.valueOffsetDays) : date;
    return {
      id: rng.uuid(),
      amountMinor: d.amountMinor,
      direction: d.direction,
      bookedDate: date,
      bookedAt: iso(date, d.seconds),
      valueDate,
      valueAt: iso(valueDate, d.seconds),
      counterpartyName: d.counterparty,
      remittance: d.remittance,
      endToEndId: d.endToEndId,
    };
  });
}

/**
 * The first `slots` quarter-hour balance points of `date`: `opening` (minor units) plus the drafts (sorted by
 * time) booked up to each point; ids drawn from `rng`.
 */
function intradayPoints(
  rng: Rng,
  date: string,
  drafts: Draft[],
  opening: number,
  slots: number,
): GeneratedIntradayPoint[] {
  const intraday: GeneratedIntradayPoint[] = [];
  let running = opening;
  let next = 0;
  for (let k = 0; k < slots; k++) {
    const t = k * QUARTER;
    while (next < drafts.length && (drafts[next]?.seconds ?? Infinity) <= t) {
      const d = drafts[next];
      if (d) running += d.direction === "credit" ? d.amountMinor : -d.amountMinor;
      next++;
    }
    intraday.push({ id: rng.uuid(), timestamp: iso(date, t), balanceMinor: running });
  }
  return intraday;
}

/**
 * The demo ledger of one account, one day at a time, from
 * {@link ledgerStartDate}(today) to today. Each day draws from its own keyed stream, in a fixed order (random
 * bookings, transaction ids, intraday ids, reservation, coverage, balance ids), so the output depends only on
 * seed, scale, today and now. Amounts in minor units.
 * @throws Error if the account's company is not in `org`.
 */
export function* generateAccountLedger(
  org: SeedOrganization,
  account: SeedAccount,
  opts: LedgerOptions,
): Generator<GeneratedDay> {
  const company = org.companies.find((c) => c.id === account.companyId);
  if (!company) throw new Error(`generateAccountLedger: no company for account ${account.key}`);
  const { seed, scale, today } = opts;
  const levelMinor = Math.round(account.level * Math.max(1, scale)) * 100;
  let booked =
    Math.round((levelMinor * (0.8 + 0.4 * createRng(seed, `opening:${account.key}`).next())) / 10_000) * 10_000;
  const intradayFrom = addDays(today, -INTRADAY_DAYS);
  const cutoff = todayCutoffSeconds(today, opts.now);

  for (const date of dateRange(ledgerStartDate(today), today)) {
    const isToday = date === today;
    const rng = createRng(seed, `day:${account.key}:${date}`);
    const weekend = isNonBankingDay(account.country, date);
    const drafts: Draft[] = [];
    const n = rng.poisson(BASE_RATE * account.intensity * dayFactor(account, date) * scale * (isToday ? 0.3 : 1));
    for (let i = 0; i < n; i++) drafts.push(randomDraft(rng, account, company, date, weekend, isToday));
    scheduledDrafts({ seed, account, company, date }, drafts);

    // Keep the balance near its level the way a cash pool would.
    const pool = poolDraft(account, company, date, isToday, levelMinor, booked, drafts);
    if (pool) drafts.push(pool);
    drafts.sort((a, b) => a.seconds - b.seconds);
    // Today's bookings after the current time have not happened yet.
    if (isToday) while (drafts.length > 0 && (drafts[drafts.length - 1]?.seconds ?? 0) > cutoff) drafts.pop();

    const transactions = toTransactions(rng, date, drafts);
    const slots = isToday ? Math.floor(cutoff / QUARTER) + 1 : 96;
    const intraday = date >= intradayFrom ? intradayPoints(rng, date, drafts, booked, slots) : [];
    for (const d of drafts) booked += d.direction === "credit" ? d.amountMinor : -d.amountMinor;

    // Card and pending-payment reservations lower the available balance on some days.
    const reservation =
      account.role === "operating" && rng.chance(0.3)
        ? Math.round((Math.abs(booked) * (0.005 + 0.02 * rng.next())) / 100) * 100
        : 0;
    const coverageRoll = rng.next();
    const completeness = isToday
      ? "partial"
      : coverageRoll < 0.006
        ? "missing"
        : coverageRoll < 0.02
          ? "partial"
          : "complete";
    yield {
      date,
      isToday,
      transactions,
      bookedMinor: booked,
      availableMinor: booked - reservation,
      bookedBalanceId: rng.uuid(),
      availableBalanceId: rng.uuid(),
      coverage: { id: rng.uuid(), source: isToday ? "api" : account.coverageSource, completeness },
      intraday,
    };
  }
}
