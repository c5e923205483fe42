/**
 * Independent figures for the group e2e specs: each company's API figures read through the BFF (the session's
 * selected company switched to each in turn) and converted here with the seeded demo rates and decimal.js, not with
 * the dashboard's conversion code. Rules, as the dashboard states them: the rate of the amount's date or the latest
 * ECB publishing day up to 7 days before, cross via EUR (`amount × rate(to) / rate(from)`), rounded half-even to 2
 * decimals per converted amount; beyond 7 days the amount is left out.
 */
import { expect, type APIRequestContext } from "@playwright/test";
import Decimal from "decimal.js";
import Papa from "papaparse";
import { demoRate, isEcbPublishingDay } from "../lib/fx/demo-rates";
import { writeHeaders } from "./fixtures";

export interface Company {
  id: string;
  name: string;
}
interface Account {
  id: string;
  currency: string;
}
interface Balance {
  balance_type: string;
  as_of_date: string;
  balance: string;
  currency: string;
}
interface CashflowDay {
  date: string;
  currency: string;
  inflow: string;
  outflow: string;
}
/** Headers of a BFF write (the dashboard's Origin and an Idempotency-Key). */
export type WriteHeaders = () => Record<string, string>;

/** `date` ± `n` days, `YYYY-MM-DD`. */
export const addDays = (date: string, n: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** Every item of a paged BFF list (page size 500). */
export async function all<T>(request: APIRequestContext, url: string): Promise<T[]> {
  const out: T[] = [];
  for (let page = 1; ; page++) {
    const res = await request.get(`${url}${url.includes("?") ? "&" : "?"}page=${page}&page_size=500`);
    expect(res.status(), await res.text()).toBe(200);
    const body = (await res.json()) as { items: T[]; has_next: boolean };
    out.push(...body.items);
    if (!body.has_next) return out;
  }
}

/** `1 EUR = rate currency` of `date` or the latest publishing day up to 7 days before; null beyond. */
export function eurRate(currency: string, date: string): Decimal | null {
  if (currency === "EUR") return new Decimal(1);
  for (let back = 0; back <= 7; back++) {
    const d = addDays(date, -back);
    if (isEcbPublishingDay(d)) return new Decimal(demoRate(currency, d));
  }
  return null;
}

/** `amount` in `from`, dated `date`, in `to` (2 decimals, half-even); null without a rate within 7 days. */
export function convert(amount: string, from: string, to: string, date: string): Decimal | null {
  if (from === to) return new Decimal(amount);
  const rFrom = eurRate(from, date);
  const rTo = eurRate(to, date);
  if (!rFrom || !rTo) return null;
  return new Decimal(amount).times(rTo).div(rFrom).toDecimalPlaces(2, Decimal.ROUND_HALF_EVEN);
}

/** Selects `companyId` as the session's company. */
export async function selectCompany(request: APIRequestContext, companyId: string, headers: WriteHeaders) {
  const sel = await request.post("/api/session/company", { headers: headers(), data: { company_id: companyId } });
  expect(sel.status(), await sel.text()).toBe(200);
}

/** Sets the session's reporting currency (`PUT /api/session/reporting-currency`); expects 200. */
export async function setReportingCurrency(
  request: APIRequestContext,
  currency: string,
  headers: WriteHeaders = () => writeHeaders(),
) {
  const res = await request.put("/api/session/reporting-currency", { headers: headers(), data: { currency } });
  expect(res.status(), await res.text()).toBe(200);
}

/** The companies the session's user may see (`GET /api/treasury/companies`, one page). */
export async function companiesOf(request: APIRequestContext): Promise<Company[]> {
  return ((await (await request.get("/api/treasury/companies")).json()) as { items: Company[] }).items;
}

/**
 * The set-up of the group report specs: the session reports in EUR and sees a group (more than one company), and the
 * report covers the 30 days up to today (`from`, `to`: `YYYY-MM-DD`, UTC).
 */
export async function eurGroupLast30Days(
  request: APIRequestContext,
  headers: WriteHeaders,
): Promise<{ companies: Company[]; from: string; to: string }> {
  await setReportingCurrency(request, "EUR", headers);
  const companies = await companiesOf(request);
  expect(companies.length).toBeGreaterThan(1);
  const to = new Date().toISOString().slice(0, 10);
  return { companies, from: addDays(to, -29), to };
}

/**
 * Per company: the converted sum of its accounts' headline balances in `to` (today's interim booked, else the latest
 * closing booked of an ended day over the last 7 days; unconvertible lines left out).
 */
export async function expectedPositionByCompany(
  request: APIRequestContext,
  companies: readonly Company[],
  today: string,
  to: string,
  headers: WriteHeaders = () => writeHeaders(),
): Promise<Map<string, Decimal>> {
  const from = addDays(today, -7);
  const sums = new Map<string, Decimal>();
  for (const c of companies) {
    await selectCompany(request, c.id, headers);
    let sum = new Decimal(0);
    for (const a of await all<Account>(request, "/api/treasury/accounts")) {
      const snaps = await all<Balance>(
        request,
        `/api/treasury/accounts/${a.id}/balances?from_date=${from}&to_date=${today}`,
      );
      const interim = snaps.find((s) => s.balance_type === "interim_booked" && s.as_of_date === today);
      const closing = snaps
        .filter((s) => s.balance_type === "closing_booked" && s.as_of_date < today)
        .sort((x, y) => (x.as_of_date < y.as_of_date ? 1 : -1))[0];
      const h = interim ?? closing;
      if (!h) continue;
      const v = convert(h.balance, h.currency, to, h.as_of_date);
      if (v) sum = sum.plus(v);
    }
    sums.set(c.id, sum);
  }
  return sums;
}

/** Per company: the converted cashflow of `from`..`toDate` in `to` (inflow, outflow; unconvertible rows left out). */
export async function expectedCashflowByCompany(
  request: APIRequestContext,
  companies: readonly Company[],
  from: string,
  toDate: string,
  to: string,
  headers: WriteHeaders = () => writeHeaders(),
): Promise<Map<string, { inflow: Decimal; outflow: Decimal }>> {
  const out = new Map<string, { inflow: Decimal; outflow: Decimal }>();
  for (const c of companies) {
    await selectCompany(request, c.id, headers);
    const sum = { inflow: new Decimal(0), outflow: new Decimal(0) };
    const rows = await all<CashflowDay>(
      request,
      `/api/treasury/reporting/cashflow/daily?from_date=${from}&to_date=${toDate}`,
    );
    for (const r of rows) {
      const i = convert(r.inflow, r.currency, to, r.date);
      const o = convert(r.outflow, r.currency, to, r.date);
      if (!i || !o) continue;
      sum.inflow = sum.inflow.plus(i);
      sum.outflow = sum.outflow.plus(o);
    }
    out.set(c.id, sum);
  }
  return out;
}

/**
 * The columns every converted group CSV ends with (docs/guides/fx-and-group-reporting.md, "Group position and reporting currency"): the reporting currency, the rate and its
 * date, whether it is stale, the converted figures, why a line stayed unconverted, and the export time.
 */
export const CONVERTED_CSV_COLUMNS = [
  "reporting_currency",
  "rate",
  "rate_date",
  "rate_stale",
  "inflow_converted",
  "outflow_converted",
  "net_converted",
  "unconverted_reason",
  "exported_at",
] as const;

/** GETs a BFF CSV export, expects 200 and `text/csv`, and parses it with its header line. */
export async function getCsv(request: APIRequestContext, url: string) {
  const res = await request.get(url);
  expect(res.status(), url).toBe(200);
  expect(res.headers()["content-type"]).toContain("text/csv");
  return Papa.parse<Record<string, string>>(await res.text(), { header: true, skipEmptyLines: true });
}

/**
 * Checks the conversion columns of converted CSV lines against the seeded demo rates: an export time with an offset
 * on every line; where there is a rate, a `YYYY-MM-DD` rate date and the rate `1 / eurRate(currency, date)` to 6
 * significant digits; and at least one non-EUR line that carries a rate date.
 */
export function expectConvertedRates(rows: readonly Record<string, string | undefined>[]) {
  for (const r of rows) {
    expect(r.exported_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(Z|[+-]\d{2}:\d{2})$/);
    if (!r.rate) continue;
    expect(r.rate_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const rFrom = eurRate(r.currency ?? "", r.date ?? "");
    expect(new Decimal(r.rate).toSignificantDigits(6).toString()).toBe(
      (rFrom ? new Decimal(1).div(rFrom) : new Decimal(0)).toSignificantDigits(6).toString(),
    );
  }
  expect(rows.some((r) => r.currency !== "EUR" && r.rate_date)).toBe(true);
}
