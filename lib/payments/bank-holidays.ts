/**
 * Bank closing days for the "weekend / holiday execution date" risk signal.
 * Dates are `YYYY-MM-DD` strings, compared as calendar dates (no time zone).
 *
 * The list covers the four Nordic countries the demo companies live in and
 * the TARGET2 calendar of euro payments; other countries get weekends only.
 * It is a documented list, not a complete almanac: each country's public
 * holidays on which banks do not settle domestic payments, including the
 * Easter-based ones (Maundy Thursday, Good Friday, Easter Monday, Ascension,
 * Whit Monday) and bank-only closing days (24 and 31 December, Danish
 * Constitution Day and the Friday after Ascension, Midsummer Eve).
 *
 * - NO: 1 Jan, Maundy Thu, Good Fri, Easter Mon, 1 May, 17 May, Ascension, Whit Mon, 24–26 Dec, 31 Dec.
 * - SE: 1 Jan, 6 Jan, Good Fri, Easter Mon, 1 May, Ascension, 6 Jun, Midsummer Eve, 24–26 Dec, 31 Dec.
 * - DK: 1 Jan, Maundy Thu, Good Fri, Easter Mon, Ascension, Friday after Ascension, 5 Jun, Whit Mon, 24–26 Dec,
 *   31 Dec.
 * - FI: 1 Jan, 6 Jan, Good Fri, Easter Mon, 1 May, Ascension, Midsummer Eve, 6 Dec, 24–26 Dec.
 * - TARGET2 (EUR): 1 Jan, Good Fri, Easter Mon, 1 May, 25–26 Dec.
 */

export const HOLIDAY_CALENDARS = ["NO", "SE", "DK", "FI", "TARGET2"] as const;
export type HolidayCalendar = (typeof HOLIDAY_CALENDARS)[number];

type Rule = { name: string } & ({ fixed: string } | { easter: number } | { midsummerEve: true });

const EASTER_RULES = {
  maundy: { name: "Maundy Thursday", easter: -3 },
  goodFriday: { name: "Good Friday", easter: -2 },
  easterMonday: { name: "Easter Monday", easter: 1 },
  ascension: { name: "Ascension Day", easter: 39 },
  whitMonday: { name: "Whit Monday", easter: 50 },
} as const satisfies Record<string, Rule>;

const NEW_YEAR: Rule = { name: "New Year's Day", fixed: "01-01" };
const EPIPHANY: Rule = { name: "Epiphany", fixed: "01-06" };
const LABOUR: Rule = { name: "Labour Day", fixed: "05-01" };
const XMAS_EVE: Rule = { name: "Christmas Eve", fixed: "12-24" };
const XMAS: Rule = { name: "Christmas Day", fixed: "12-25" };
const BOXING: Rule = { name: "Boxing Day", fixed: "12-26" };
const NYE: Rule = { name: "New Year's Eve", fixed: "12-31" };
const MIDSUMMER: Rule = { name: "Midsummer Eve", midsummerEve: true };
const { maundy, goodFriday, easterMonday, ascension, whitMonday } = EASTER_RULES;

const RULES: Record<HolidayCalendar, readonly Rule[]> = {
  NO: [
    NEW_YEAR,
    maundy,
    goodFriday,
    easterMonday,
    LABOUR,
    { name: "Constitution Day", fixed: "05-17" },
    ascension,
    whitMonday,
    XMAS_EVE,
    XMAS,
    BOXING,
    NYE,
  ],
  SE: [
    NEW_YEAR,
    EPIPHANY,
    goodFriday,
    easterMonday,
    LABOUR,
    ascension,
    { name: "National Day", fixed: "06-06" },
    MIDSUMMER,
    XMAS_EVE,
    XMAS,
    BOXING,
    NYE,
  ],
  DK: [
    NEW_YEAR,
    maundy,
    goodFriday,
    easterMonday,
    ascension,
    { name: "Bank holiday after Ascension", easter: 40 },
    { name: "Constitution Day", fixed: "06-05" },
    whitMonday,
    XMAS_EVE,
    XMAS,
    BOXING,
    NYE,
  ],
  FI: [
    NEW_YEAR,
    EPIPHANY,
    goodFriday,
    easterMonday,
    LABOUR,
    ascension,
    MIDSUMMER,
    { name: "Independence Day", fixed: "12-06" },
    XMAS_EVE,
    XMAS,
    BOXING,
  ],
  TARGET2: [NEW_YEAR, goodFriday, easterMonday, LABOUR, XMAS, BOXING],
};

function utcDate(year: number, month: number, day: number): string {
  return new Date(Date.UTC(year, month - 1, day)).toISOString().slice(0, 10);
}

/** Easter Sunday of `year` (Gregorian; the anonymous "Meeus/Jones/Butcher" computus). */
export function easterSunday(year: number): string {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return utcDate(year, month, day);
}

function ruleDate(rule: Rule, year: number): string {
  if ("fixed" in rule) return `${year}-${rule.fixed}`;
  if ("easter" in rule) {
    const e = easterSunday(year);
    return utcDate(year, Number(e.slice(5, 7)), Number(e.slice(8, 10)) + rule.easter);
  }
  // Midsummer Eve: the Friday from 19 to 25 June.
  for (let day = 19; day <= 25; day++)
    if (new Date(Date.UTC(year, 5, day)).getUTCDay() === 5) return utcDate(year, 6, day);
  throw new Error("no Friday between 19 and 25 June");
}

/** The closing days of `calendar` in `year`, by date. */
export function holidaysOf(calendar: HolidayCalendar, year: number): Map<string, string> {
  return new Map(RULES[calendar].map((r) => [ruleDate(r, year), r.name]));
}

/** The calendars that apply to a payment from an account in `country` (ISO 3166) in `currency`. */
export function calendarsFor(country: string | null, currency: string): HolidayCalendar[] {
  const out: HolidayCalendar[] = [];
  if (country && (HOLIDAY_CALENDARS as readonly string[]).includes(country)) out.push(country as HolidayCalendar);
  if (currency === "EUR") out.push("TARGET2");
  return out;
}

/** Why banks do not execute on `date`: `weekend`, or the holiday's name and calendar; null on a banking day. */
export function closingReason(
  date: string,
  calendars: readonly HolidayCalendar[],
):
  | { kind: "weekend"; weekday: "Saturday" | "Sunday" }
  | { kind: "holiday"; name: string; calendar: HolidayCalendar }
  | null {
  const wd = new Date(`${date}T00:00:00Z`).getUTCDay();
  if (wd === 6 || wd === 0) return { kind: "weekend", weekday: wd === 6 ? "Saturday" : "Sunday" };
  const year = Number(date.slice(0, 4));
  for (const c of calendars) {
    const name = holidaysOf(c, year).get(date);
    if (name) return { kind: "holiday", name, calendar: c };
  }
  return null;
}
