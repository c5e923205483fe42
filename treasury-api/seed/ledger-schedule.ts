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

/** Appends the scheduled bookings of `ctx.date` on `ctx.account` to `out`. */
export function scheduledDrafts(ctx: ScheduleContext, out: Draft[]): void {
  const { account, company, seed } = ctx;
  const w = WORDS[company.country];
  const push = (d: Omit<Draft, "valueOffsetDays">) => out.push({ ...d, valueOffsetDays: 0 });
  const hasTaxAccount = company.key === "nordlys-norge";

  if (account.role === "operating" || (account.role === "holding" && account.currency === "NOK")) {
    const payMonth = payday(ctx);
    if (payMonth && company.employees > 0) {
      const p = payrollFor(seed, company, payMonth);
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
      } else {
        const december = company.country === "NO" && payMonth.endsWith("-12") ? " (halv skatt)" : "";
        push({
          seconds: 6 * 3600 + 1800,
          amountMinor: p.netMinor,
          direction: "debit",
          counterparty: "Lønnsutbetaling ansatte",
          remittance: `${w.salary} ${monthName(company, payMonth)}${december}`,
          endToEndId: e2e(ctx, "PAYROLL"),
        });
        if (hasTaxAccount) {
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
    }

    const taxSeconds = 7 * 3600 + 600;
    const authority = TAX_AUTHORITY[company.country];
    if (company.country === "NO" && company.employees > 0) {
      const taxMonth = occursOn(ctx, (m) => (norwegianTaxTerm(m) ? `${m}-15` : null), "after");
      const term = taxMonth ? norwegianTaxTerm(taxMonth) : null;
      if (taxMonth && term) {
        const a = payrollFor(seed, company, prevMonth(taxMonth, 1));
        const b = payrollFor(seed, company, prevMonth(taxMonth, 2));
        const gross = a.grossMinor + b.grossMinor;
        push({
          seconds: taxSeconds,
          amountMinor: Math.round((gross * 0.141) / 100) * 100,
          direction: "debit",
          counterparty: authority,
          remittance: `Arbeidsgiveravgift termin ${term} ${kid(ctx, "aga")}`,
          endToEndId: e2e(ctx, "AGA"),
        });
        if (!hasTaxAccount) {
          push({
            seconds: taxSeconds + 60,
            amountMinor: a.withholdingMinor + b.withholdingMinor,
            direction: "debit",
            counterparty: authority,
            remittance: `Forskuddstrekk termin ${term} ${kid(ctx, "trekk")}`,
            endToEndId: e2e(ctx, "TREKK"),
          });
        }
      }
    }
    if (account.role === "operating") {
      if (company.country === "NO") {
        const vatMonth = occursOn(ctx, (m) => norwegianVatDue(m)?.due ?? null, "after");
        const vat = vatMonth ? norwegianVatDue(vatMonth) : null;
        if (vat)
          push({
            seconds: taxSeconds + 120,
            amountMinor: scaledRandom(ctx, `vat:${vatMonth}`, 8_000 * company.employees),
            direction: "debit",
            counterparty: authority,
            remittance: `${w.vat} termin ${vat.term} ${kid(ctx, "mva")}`,
            endToEndId: e2e(ctx, "MVA"),
          });
      } else {
        const taxDay = company.country === "DK" ? 10 : 12;
        const taxMonth = occursOn(ctx, day(taxDay), "after");
        if (taxMonth) {
          const p = payrollFor(seed, company, prevMonth(taxMonth));
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
            seconds: taxSeconds,
            amountMinor: Math.round((p.grossMinor * rate) / 100) * 100 + vatPart,
            direction: "debit",
            counterparty: authority,
            remittance: `${text} ${monthName(company, prevMonth(taxMonth))} ${kid(ctx, "tax")}`,
            endToEndId: e2e(ctx, "TAX"),
          });
        }
        if (company.country === "DK") {
          const momsMonth = occursOn(
            ctx,
            (m) => (["03", "06", "09", "12"].includes(m.slice(5, 7)) ? `${m}-01` : null),
            "after",
          );
          if (momsMonth)
            push({
              seconds: taxSeconds + 120,
              amountMinor: scaledRandom(ctx, `moms:${momsMonth}`, 14_000 * company.employees),
              direction: "debit",
              counterparty: authority,
              remittance: `Moms ${kid(ctx, "moms")}`,
              endToEndId: e2e(ctx, "MOMS"),
            });
        }
      }

      const rentMonth = occursOn(ctx, day(1), "after");
      if (rentMonth) {
        const landlord = company.key === "nordlys-norge" ? "Polarlys Eiendom AS" : LANDLORD[company.country];
        push({
          seconds: 6 * 3600 + 2700,
          amountMinor:
            Math.round((rentFor(seed, company.key, rentMonth) * CURRENCY_FACTOR[account.currency]) / 100) * 100,
          direction: "debit",
          counterparty: landlord,
          remittance: `${w.rent} ${monthName(company, rentMonth)}`,
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

  if (account.role === "payroll") {
    const payMonth = payday(ctx);
    if (payMonth) {
      const p = payrollFor(seed, company, payMonth);
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
        remittance: `${w.salary} ${monthName(company, payMonth)}`,
        endToEndId: e2e(ctx, "PAYROLL"),
      });
    }
  }

  if (account.role === "tax") {
    const payMonth = payday(ctx);
    if (payMonth) {
      const p = payrollFor(seed, company, payMonth);
      push({
        seconds: 6 * 3600 + 1960,
        amountMinor: p.withholdingMinor,
        direction: "credit",
        counterparty: company.name,
        remittance: `Skattetrekk ${monthName(company, payMonth)}`,
        endToEndId: `NORGE--${ctx.date.replaceAll("-", "")}-TREKK`,
      });
    }
    const taxMonth = occursOn(ctx, (m) => (norwegianTaxTerm(m) ? `${m}-15` : null), "after");
    const term = taxMonth ? norwegianTaxTerm(taxMonth) : null;
    if (taxMonth && term) {
      const amount =
        payrollFor(seed, company, prevMonth(taxMonth, 1)).withholdingMinor +
        payrollFor(seed, company, prevMonth(taxMonth, 2)).withholdingMinor;
      push({
        seconds: 7 * 3600 + 660,
        amountMinor: amount,
        direction: "debit",
        counterparty: TAX_AUTHORITY.NO,
        remittance: `Forskuddstrekk termin ${term} ${kid(ctx, "trekk")}`,
        endToEndId: e2e(ctx, "TREKK"),
      });
    }
  }

  if (account.role === "property") {
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
    const feeMonth = occursOn(
      ctx,
      (m) => (["01", "04", "07", "10"].includes(m.slice(5, 7)) ? `${m}-20` : null),
      "after",
    );
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

  // Month end: account fees and interest, on every account.
  if (occursOn(ctx, lastDay, "before")) {
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
}

/** Monthly rent a company pays (same amount all year, indexed each January). */
export function rentFor(seed: number, payerKey: string, month: string): number {
  const base = createRng(seed, `rent:${payerKey}`);
  const yearly = 80_000 + base.int(0, 40) * 5_000;
  const index = 1 + 0.035 * (Number(month.slice(0, 4)) - 2024);
  return Math.round(yearly * index) * 100;
}
