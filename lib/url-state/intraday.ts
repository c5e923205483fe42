/**
 * URL state of the account detail's intraday chart: the day
 * (`day`, a business date), how many days up to it (`span`: 1, 3 or 7) and
 * the balance type (`btype`). Separate keys from the transactions filters
 * below it on the same page.
 */
import { createLoader, parseAsStringLiteral } from "nuqs/server";
import { BALANCE_TYPES } from "@treasury/contract/enums";
import { addDaysIso } from "../dates";
import { parseAsBusinessDate } from "./parsers";

export const INTRADAY_SPANS = ["1", "3", "7"] as const;

export const intradayParsers = {
  day: parseAsBusinessDate,
  span: parseAsStringLiteral(INTRADAY_SPANS),
  btype: parseAsStringLiteral(BALANCE_TYPES),
};
export const loadIntradayState = createLoader(intradayParsers);

/**
 * The API query for the state: one `date`, or `from_date` / `to_date` for more than one day. Days after `today` are
 * clamped to it.
 */
export function intradayQuery(
  s: { day: string | null; span: (typeof INTRADAY_SPANS)[number] | null; btype: (typeof BALANCE_TYPES)[number] | null },
  today: string,
) {
  const day = s.day && s.day <= today ? s.day : today;
  const span = Number(s.span ?? "1");
  const balance_type = s.btype ?? "interim_booked";
  return span === 1
    ? { day, span, balance_type, date: day }
    : { day, span, balance_type, from_date: addDaysIso(day, -(span - 1)), to_date: day };
}
