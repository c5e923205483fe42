/**
 * Scheduled bookings of the demo ledger: payroll, taxes and
 * VAT, rent, management fees, month-end fees and interest, on the dates a
 * Nordic finance department sees them (payroll on the 25th — in Denmark the
 * last banking day —, Norwegian withholding tax and employer's contribution
 * bi-monthly on the 15th, Norwegian VAT terms, Swedish and Finnish monthly
 * tax on the 12th, Danish A-skat on the 10th and quarterly moms).
 *
 * The two sides of an internal transfer (e.g. rent from Nordlys Norge AS to
 * Polarlys Eiendom AS) draw their amount from the same keyed stream, so both
 * accounts book the same amount on the same day without knowing each other.
 * Scheduled amounts do not grow with the seed scale (only the volume does).
 */
import type { SeedAccount, SeedCompany } from "./organization";
import { bankingDayOnOrAfter, bankingDayOnOrBefore, daysInMonth, dayOfMonth } from "./calendar";
import {
  MONTHS,
  TAX_AUTHORITY,
  LANDLORD,
  WORDS,
  luhnReference,
  finnishReference,
  CUSTOMERS,
  SUPPLIERS,
} from "./ledger-text";
import { createRng } from "./prng";

/** A booking before ids and timestamps are given to it. */
export interface Draft {
  /** Seconds after 00:00 UTC of the booking date; always before 23:45 so the last intraday point equals the closing. */
  seconds: number;
  /** Positive amount in minor units (öre, øre, cent). */
  amountMinor: number;
  direction: "credit" | "debit";
  counterparty: string;
  remittance: string;
  endToEndId: string | null;
  /** Value date minus booking date, in days. */
  valueOffsetDays: number;
}

export interface ScheduleContext {
  seed: number;
  account: SeedAccount;
  company: SeedCompany;
  date: string;
}

/** Rough value of one unit of each currency in NOK, to keep amounts believable across currencies. */
export const CURRENCY_FACTOR: Record<SeedAccount["currency"], number> = {
  NOK: 1,
  SEK: 1,
  DKK: 0.68,
  EUR: 0.087,
  USD: 0.095,
};

/** Average monthly net salary per employee in the account currency's major unit. */
const NET_SALARY: Record<string, number> = { NO: 38_000, SE: 30_000, DK: 29_000, FI: 2_900 };

interface Payroll {
  netMinor: number;
  grossMinor: number;
  withholdingMinor: number;
}

/** The payroll of `company` for `month` (`YYYY-MM`), identical for every account that books part of it. */
export function payrollFor(seed: number, company: SeedCompany, month: string): Payroll {
  const rng = createRng(seed, `payroll:${company.key}:${month}`);
  const perHead = (NET_SALARY[company.country] ?? 30_000) * (0.97 + 0.07 * rng.next());
  const netMinor = Math.round(company.employees * perHead) * 100;
  const grossMinor = Math.round(netMinor / 0.66 / 100) * 100;
  return { netMinor, grossMinor, withholdingMinor: grossMinor - netMinor };
}

function prevMonth(month: string, back = 1): string {
  const y = Number(month.slice(0, 4));
  const m = Number(month.slice(5, 7)) - back;
  const d = new Date(Date.UTC(y, m - 1, 1));
  return d.toISOString().slice(0, 7);
}

function monthName(company: SeedCompany, month: string): string {
  return `${MONTHS[company.country][Number(month.slice(5, 7)) - 1] ?? ""} ${month.slice(0, 4)}`;
}

/**
 * True when the event with nominal day `nominal(month)` (null: not in that
 * month) falls on `date` after moving it off non-banking days. Looks at the
 * date's month and the one before, because moving forward can cross a month.
 */
function occursOn(
  ctx: ScheduleContext,
  nominal: (month: string) => string | null,
  move: "before" | "after",
): string | null {
  const month = ctx.date.slice(0, 7);
  for (const m of [month, prevMonth(month)]) {
    const n = nominal(m);
    if (!n) continue;
    const actual =
      move === "before" ? bankingDayOnOrBefore(ctx.company.country, n) : bankingDayOnOrAfter(ctx.company.country, n);
    if (actual === ctx.date) return m;
  }
  return null;
}

const day = (d: number) => (m: string) => `${m}-${String(d).padStart(2, "0")}`;
const lastDay = (m: string) => dayOfMonth(`${m}-01`, daysInMonth(`${m}-01`));

function payday(ctx: ScheduleContext): string | null {
  return ctx.company.country === "DK" ? occursOn(ctx, lastDay, "before") : occursOn(ctx, day(25), "before");
}

function e2e(ctx: ScheduleContext, kind: string): string {
  return `${ctx.account.key.slice(0, 6).toUpperCase()}-${ctx.date.replaceAll("-", "")}-${kind}`;
}

function kid(ctx: ScheduleContext, key: string): string {
  const rng = createRng(ctx.seed, `ref:${ctx.account.key}:${ctx.date}:${key}`);
  switch (ctx.company.country) {
    case "NO":
      return `KID ${luhnReference(rng, 15)}`;
    case "SE":
      return `OCR ${luhnReference(rng, 16)}`;
    case "DK":
      return `FIK +71<${rng.digits(15)}+${rng.digits(8)}<`;
    case "FI":
      return `Viite ${finnishReference(rng)}`;
  }
}

/** Bi-monthly term (1–6) whose payment of withholding tax falls in `month` on the 15th, Norwegian rules. */
function norwegianTaxTerm(month: string): number | null {
  const m = Number(month.slice(5, 7));
  return m % 2 === 1 ? (m === 1 ? 6 : (m - 1) / 2) : null;
}

/** Norwegian VAT term (1–6) due in `month` and its nominal due day. */
function norwegianVatDue(month: string): { term: number; due: string } | null {
  const byMonth: Record<number, [number, number]> = {
    2: [6, 10],
    4: [1, 10],
    6: [2, 10],
    8: [3, 31],
    10: [4, 10],
    12: [5, 10],
  };
  const hit = byMonth[Number(month.slice(5, 7))];
  return hit ? { term: hit[0], due: `${month}-${String(hit[1]).padStart(2, "0")}` } : null;
}

function scaledRandom(ctx: ScheduleContext, key: string, median: number): number {
  const rng = createRng(ctx.seed, `amount:${ctx.company.key}:${key}`);
  return Math.round(median * Math.exp(0.25 * rng.normal())) * 100;
}

/** Appends one scheduled booking (value date = booking date) to the day's list. */
type Push = (d: Omit<Draft, "valueOffsetDays">) => void;

/** Seconds after midnight at which the tax authority's debits are booked. */
const TAX_SECONDS = 7 * 3600 + 600;

/**
 * Payday debits of an operating (or NOK holding) account: the net salaries — in Sweden the transfer that funds
 * the separate payroll account —, the Norwegian withholding moved to the tax account, and June's holiday pay.
 * Nothing on other days or for a company without employees.
 */
function payrollDebits(ctx: ScheduleContext, push: Push): void {
  const { company } = ctx;
  const payMonth = payday(ctx);
  if (!payMonth || company.employees <= 0) return;
  const p = payrollFor(ctx.seed, company, payMonth);
  if (company.country === "SE") {
    // Swedish salaries go out from the separate payroll account, funded the same day.
    push({
      seconds: 6 * 3600,
      amountMinor: p.netMinor,
      direction: "debit",
      counterparty: `${company.name} Lönekonto`,
      remittance: `Överföring lön ${monthName(company, payMonth)}`,
      endToEndId: e2e(ctx, "LONFUND"),
    });
    return;
  }
  const december = company.country === "NO" && payMonth.endsWith("-12") ? " (halv skatt)" : "";
  push({
    seconds: 6 * 3600 + 1800,
    amountMinor: p.netMinor,
    direction: "debit",
    counterparty: "Lønnsutbetaling ansatte",
    remittance: `${WORDS[company.country].salary} ${monthName(company, payMonth)}${december}`,
    endToEndId: e2e(ctx, "PAYROLL"),
  });
  if (hasTaxAccount(company)) {
    push({
      seconds: 6 * 3600 + 1900,
      amountMinor: p.withholdingMinor,
      direction: "debit",
      counterparty: `${company.name} skattetrekkskonto`,
      remittance: `Skattetrekk ${monthName(company, payMonth)}`,
      endToEndId: e2e(ctx, "TREKK"),
    });
  }
  if (company.country === "NO" && payMonth.endsWith("-06")) {
    push({
      seconds: 6 * 3600 + 2000,
      amountMinor: Math.round((p.grossMinor * 1.22) / 100) * 100,
      direction: "debit",
      counterparty: "Lønnsutbetaling ansatte",
      remittance: `Feriepenger ${payMonth.slice(0, 4)}`,
      endToEndId: e2e(ctx, "FERIE"),
    });
  }
}

/** True for the company whose withholding tax goes through its own tax account (Nordlys Norge AS). */
function hasTaxAccount(company: SeedCompany): boolean {
  return company.key === "nordlys-norge";
}

/**
 * The Norwegian bi-monthly tax term paid on `ctx.date` (on or after the 15th of an odd month), with the payroll of
 * the two months it covers; null on any other day.
 */
function norwegianTermOn(ctx: ScheduleContext): { term: number; a: Payroll; b: Payroll } | null {
  const taxMonth = occursOn(ctx, (m) => (norwegianTaxTerm(m) ? `${m}-15` : null), "after");
  const term = taxMonth ? norwegianTaxTerm(taxMonth) : null;
  if (!taxMonth || !term) return null;
  return {
    term,
    a: payrollFor(ctx.seed, ctx.company, prevMonth(taxMonth, 1)),
    b: payrollFor(ctx.seed, ctx.company, prevMonth(taxMonth, 2)),
  };
}

/**
 * Norwegian employer's contribution (14.1 % of two months' gross) and, for a company without a tax account, the
 * withholding tax of the term, on the term's due day. Nothing outside Norway or without employees.
 */
function norwegianEmployerTaxes(ctx: ScheduleContext, push: Push): void {
  const { company } = ctx;
  if (company.country !== "NO" || company.employees <= 0) return;
  const due = norwegianTermOn(ctx);
  if (!due) return;
  const authority = TAX_AUTHORITY[company.country];
  push({
    seconds: TAX_SECONDS,
    amountMinor: Math.round(((due.a.grossMinor + due.b.grossMinor) * 0.141) / 100) * 100,
    direction: "debit",
    counterparty: authority,
    remittance: `Arbeidsgiveravgift termin ${due.term} ${kid(ctx, "aga")}`,
    endToEndId: e2e(ctx, "AGA"),
  });
  if (!hasTaxAccount(company)) {
    push({
      seconds: TAX_SECONDS + 60,
      amountMinor: due.a.withholdingMinor + due.b.withholdingMinor,
      direction: "debit",
      counterparty: authority,
      remittance: `Forskuddstrekk termin ${due.term} ${kid(ctx, "trekk")}`,
      endToEndId: e2e(ctx, "TREKK"),
    });
  }
}

/** Norwegian VAT (mva) of an operating account, on the term's due day. */
function norwegianVat(ctx: ScheduleContext, push: Push): void {
  const { company } = ctx;
  const vatMonth = occursOn(ctx, (m) => norwegianVatDue(m)?.due ?? null, "after");
  const vat = vatMonth ? norwegianVatDue(vatMonth) : null;
  if (vat)
    push({
      seconds: TAX_SECONDS + 120,
      amountMinor: scaledRandom(ctx, `vat:${vatMonth}`, 8_000 * company.employees),
      direction: "debit",
      counterparty: TAX_AUTHORITY[company.country],
      remittance: `${WORDS[company.country].vat} termin ${vat.term} ${kid(ctx, "mva")}`,
      endToEndId: e2e(ctx, "MVA"),
    });
}

/**
 * Swedish, Danish and Finnish monthly tax of an operating account (payroll taxes of last month plus, outside
 * Denmark, VAT) on the 12th (DK: the 10th), and Danish quarterly moms.
 */
function monthlyTaxes(ctx: ScheduleContext, push: Push): void {
  const { company } = ctx;
  const authority = TAX_AUTHORITY[company.country];
  const taxMonth = occursOn(ctx, day(company.country === "DK" ? 10 : 12), "after");
  if (taxMonth) {
    const p = payrollFor(ctx.seed, company, prevMonth(taxMonth));
    const rate = company.country === "SE" ? 0.6142 : company.country === "DK" ? 0.38 : 0.45;
    const text =
      company.country === "SE"
        ? "Skatt och avgifter"
        : company.country === "DK"
          ? "A-skat og AM-bidrag"
          : "Oma-aloitteiset verot";
    const vatPart =
      company.country === "DK"
        ? 0
        : scaledRandom(ctx, `vat:${taxMonth}`, 4_000 * company.employees * (company.country === "FI" ? 0.09 : 1));
    push({
      seconds: TAX_SECONDS,
      amountMinor: Math.round((p.grossMinor * rate) / 100) * 100 + vatPart,
      direction: "debit",
      counterparty: authority,
      remittance: `${text} ${monthName(company, prevMonth(taxMonth))} ${kid(ctx, "tax")}`,
      endToEndId: e2e(ctx, "TAX"),
    });
  }
  if (company.country !== "DK") return;
  const momsMonth = occursOn(
    ctx,
    (m) => (["03", "06", "09", "12"].includes(m.slice(5, 7)) ? `${m}-01` : null),
    "after",
  );
  if (momsMonth)
    push({
      seconds: TAX_SECONDS + 120,
      amountMinor: scaledRandom(ctx, `moms:${momsMonth}`, 14_000 * company.employees),
      direction: "debit",
      counterparty: authority,
      remittance: `Moms ${kid(ctx, "moms")}`,
      endToEndId: e2e(ctx, "MOMS"),
    });
}

/**
 * Rent of an operating account on the first banking day of the month (Nordlys Norge AS pays its sister Polarlys
 * Eiendom AS), and Nordlys Norge AS's management fee to the holding on the 20th.
 */
function rentAndManagementFee(ctx: ScheduleContext, push: Push): void {
  const { account, company } = ctx;
  const rentMonth = occursOn(ctx, day(1), "after");
  if (rentMonth) {
    const landlord = company.key === "nordlys-norge" ? "Polarlys Eiendom AS" : LANDLORD[company.country];
    push({
      seconds: 6 * 3600 + 2700,
      amountMinor:
        Math.round((rentFor(ctx.seed, company.key, rentMonth) * CURRENCY_FACTOR[account.currency]) / 100) * 100,
      direction: "debit",
      counterparty: landlord,
      remittance: `${WORDS[company.country].rent} ${monthName(company, rentMonth)}`,
      endToEndId: e2e(ctx, "RENT"),
    });
  }
  if (company.key === "nordlys-norge" && occursOn(ctx, day(20), "after")) {
    push({
      seconds: 8 * 3600,
      amountMinor: 45_000_000,
      direction: "debit",
      counterparty: "Nordlys Holding AS",
      remittance: `Management fee ${monthName(company, ctx.date.slice(0, 7))}`,
      endToEndId: e2e(ctx, "MGMT"),
    });
  }
}

/**
 * Bookings of an operating account, or of a holding's NOK account: payroll, taxes, VAT, rent and the management
 * fee (paid by the operating account of Nordlys Norge AS, received by the holding).
 */
function operatingDrafts(ctx: ScheduleContext, push: Push): void {
  const { account, company } = ctx;
  payrollDebits(ctx, push);
  norwegianEmployerTaxes(ctx, push);
  if (account.role === "operating") {
    if (company.country === "NO") norwegianVat(ctx, push);
    else monthlyTaxes(ctx, push);
    rentAndManagementFee(ctx, push);
  }
  if (account.role === "holding" && occursOn(ctx, day(20), "after")) {
    push({
      seconds: 8 * 3600 + 30,
      amountMinor: 45_000_000,
      direction: "credit",
      counterparty: "Nordlys Norge AS",
      remittance: `Management fee ${monthName(company, ctx.date.slice(0, 7))}`,
      endToEndId: `NORGE--${ctx.date.replaceAll("-", "")}-MGMT`,
    });
  }
}

/** A Swedish payroll account on payday: funded from the operating account, then the net salaries go out. */
function payrollAccountDrafts(ctx: ScheduleContext, push: Push): void {
  const { company } = ctx;
  const payMonth = payday(ctx);
  if (!payMonth) return;
  const p = payrollFor(ctx.seed, company, payMonth);
  push({
    seconds: 6 * 3600 + 60,
    amountMinor: p.netMinor,
    direction: "credit",
    counterparty: company.name,
    remittance: `Överföring lön ${monthName(company, payMonth)}`,
    endToEndId: `SVERIG-${ctx.date.replaceAll("-", "")}-LONFUND`,
  });
  push({
    seconds: 6 * 3600 + 1800,
    amountMinor: p.netMinor,
    direction: "debit",
    counterparty: "Löneutbetalning anställda",
    remittance: `${WORDS[company.country].salary} ${monthName(company, payMonth)}`,
    endToEndId: e2e(ctx, "PAYROLL"),
  });
}

/** The Norwegian tax account: the withholding comes in on payday and goes to the tax authority each term. */
function taxAccountDrafts(ctx: ScheduleContext, push: Push): void {
  const { company } = ctx;
  const payMonth = payday(ctx);
  if (payMonth) {
    const p = payrollFor(ctx.seed, company, payMonth);
    push({
      seconds: 6 * 3600 + 1960,
      amountMinor: p.withholdingMinor,
      direction: "credit",
      counterparty: company.name,
      remittance: `Skattetrekk ${monthName(company, payMonth)}`,
      endToEndId: `NORGE--${ctx.date.replaceAll("-", "")}-TREKK`,
    });
  }
  const due = norwegianTermOn(ctx);
  if (due) {
    push({
      seconds: 7 * 3600 + 660,
      amountMinor: due.a.withholdingMinor + due.b.withholdingMinor,
      direction: "debit",
      counterparty: TAX_AUTHORITY.NO,
      remittance: `Forskuddstrekk termin ${due.term} ${kid(ctx, "trekk")}`,
      endToEndId: e2e(ctx, "TREKK"),
    });
  }
}

/**
 * The property company's account: rent from Nordlys Norge AS and three tenants on the first banking day,
 * quarterly municipal fees on the 20th, shared costs on the 5th.
 */
function propertyDrafts(ctx: ScheduleContext, push: Push): void {
  const { company, seed } = ctx;
  const w = WORDS[company.country];
  const rentMonth = occursOn(ctx, day(1), "after");
  if (rentMonth) {
    push({
      seconds: 7 * 3600,
      amountMinor: rentFor(seed, "nordlys-norge", rentMonth),
      direction: "credit",
      counterparty: "Nordlys Norge AS",
      remittance: `${w.rent} ${monthName(company, rentMonth)}`,
      endToEndId: `NORGE--${ctx.date.replaceAll("-", "")}-RENT`,
    });
    for (const tenant of CUSTOMERS.NO.slice(0, 3)) {
      push({
        seconds: 7 * 3600 + 300,
        amountMinor: rentFor(seed, tenant, rentMonth),
        direction: "credit",
        counterparty: tenant,
        remittance: `${w.rent} ${monthName(company, rentMonth)} ${kid(ctx, tenant)}`,
        endToEndId: null,
      });
    }
  }
  const feeMonth = occursOn(ctx, (m) => (["01", "04", "07", "10"].includes(m.slice(5, 7)) ? `${m}-20` : null), "after");
  if (feeMonth)
    push({
      seconds: 9 * 3600,
      amountMinor: scaledRandom(ctx, `kommunale:${feeMonth}`, 85_000),
      direction: "debit",
      counterparty: "Oslo kommune",
      remittance: `Kommunale avgifter ${kid(ctx, "komm")}`,
      endToEndId: e2e(ctx, "KOMM"),
    });
  if (occursOn(ctx, day(5), "after")) {
    push({
      seconds: 9 * 3600 + 300,
      amountMinor: scaledRandom(ctx, `felles:${ctx.date.slice(0, 7)}`, 120_000),
      direction: "debit",
      counterparty: SUPPLIERS.NO[9] ?? "Innlandet Trelast AS",
      remittance: `Felleskostnader ${monthName(company, ctx.date.slice(0, 7))}`,
      endToEndId: e2e(ctx, "FELLES"),
    });
  }
}

/** Month end, on every account: the bank's account fee and the month's interest, on the last banking day. */
function monthEndDrafts(ctx: ScheduleContext, push: Push): void {
  const { account, company, seed } = ctx;
  if (!occursOn(ctx, lastDay, "before")) return;
  const w = WORDS[company.country];
  const fee =
    (account.currency === "EUR" || account.currency === "USD" ? 35 : 350) * 100 +
    createRng(seed, `fee:${account.key}:${ctx.date}`).int(0, 99) * 100;
  push({
    seconds: 18 * 3600,
    amountMinor: fee,
    direction: "debit",
    counterparty: account.bank.name,
    remittance: `${w.fee} ${monthName(company, ctx.date.slice(0, 7))}`,
    endToEndId: null,
  });
  const interest =
    Math.round(account.level * 0.0025) * 100 + createRng(seed, `interest:${account.key}:${ctx.date}`).int(0, 9_999);
  push({
    seconds: 18 * 3600 + 60,
    amountMinor: interest,
    direction: "credit",
    counterparty: account.bank.name,
    remittance: `${w.interest} ${monthName(company, ctx.date.slice(0, 7))}`,
    endToEndId: null,
  });
}

/**
 * Appends the scheduled bookings of `ctx.date` on `ctx.account` to `out`, in a fixed order: the account role's
 * bookings (operating and NOK holding, payroll, tax, property), then the month-end fee and interest every account
 * books. Amounts are positive minor units; every draft has value date = booking date. Pure: no errors.
 */
export function scheduledDrafts(ctx: ScheduleContext, out: Draft[]): void {
  const push: Push = (d) => out.push({ ...d, valueOffsetDays: 0 });
  const { account } = ctx;
  if (account.role === "operating" || (account.role === "holding" && account.currency === "NOK"))
    operatingDrafts(ctx, push);
  if (account.role === "payroll") payrollAccountDrafts(ctx, push);
  if (account.role === "tax") taxAccountDrafts(ctx, push);
  if (account.role === "property") propertyDrafts(ctx, push);
  monthEndDrafts(ctx, push);
}

/** Monthly rent a company pays (same amount all year, indexed each January). */
export function rentFor(seed: number, payerKey: string, month: string): number {
  const base = createRng(seed, `rent:${payerKey}`);
  const yearly = 80_000 + base.int(0, 40) * 5_000;
  const index = 1 + 0.035 * (Number(month.slice(0, 4)) - 2024);
  return Math.round(yearly * index) * 100;
}
