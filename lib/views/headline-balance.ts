/**
 * The one rule for the balance a headline shows — the group overview, the
 * accounts list and the account header all use it, so the same account shows
 * the same figure with the same label everywhere:
 *
 * - today's interim figure (`interim_booked`, or `interim_available` for the
 *   available balance) when the bank has reported one for `today`;
 * - else the latest closing figure (`closing_booked` / `closing_available`)
 *   of a day that has ended, i.e. dated before `today`. A closing dated today
 *   or later is ignored: the day is not over, so it is no closing yet.
 * - An interim of an earlier day is never a headline (that day's closing, or
 *   the day before's, is the settled figure).
 *
 * `today` is the business date `YYYY-MM-DD` (UTC, lib/dates `todayUtc`).
 * Pure and shared with the browser.
 */
import type { BalanceSnapshot } from "@treasury/contract";

/** Which side of the balance: booked or available. */
export type HeadlineSide = "booked" | "available";

/** The headline figure: the snapshot's amount, currency, date and type (`closing_*` or `interim_*`). */
export interface HeadlineBalance {
  balance: string;
  currency: string;
  as_of_date: string;
  balance_type: string;
}

/**
 * The headline `side` balance of one account's snapshots (any order, any
 * types; other accounts' snapshots must not be mixed in); null when the
 * account has neither today's interim nor an ended day's closing.
 */
export function headlineBalance(
  snaps: readonly Pick<BalanceSnapshot, "balance_type" | "as_of_date" | "balance" | "currency">[],
  today: string,
  side: HeadlineSide = "booked",
): HeadlineBalance | null {
  const interimType = `interim_${side}`;
  const closingType = `closing_${side}`;
  let interim: (typeof snaps)[number] | null = null;
  let closing: (typeof snaps)[number] | null = null;
  for (const s of snaps) {
    if (s.balance_type === interimType && s.as_of_date === today) interim = s;
    else if (s.balance_type === closingType && s.as_of_date < today && (!closing || s.as_of_date > closing.as_of_date))
      closing = s;
  }
  const pick = interim ?? closing;
  return pick
    ? { balance: pick.balance, currency: pick.currency, as_of_date: pick.as_of_date, balance_type: pick.balance_type }
    : null;
}

/** True when the headline is today's interim figure rather than a closing one. */
export function isInterim(b: Pick<HeadlineBalance, "balance_type">): boolean {
  return b.balance_type.startsWith("interim");
}

/** The label of a headline's basis, the same on every page: "Interim today", "Closing booked", "Closing available". */
export function headlineBasisLabel(b: Pick<HeadlineBalance, "balance_type">): string {
  if (isInterim(b)) return "Interim today";
  return b.balance_type === "closing_available" ? "Closing available" : "Closing booked";
}

/**
 * Which balance a sum of accounts is (a company's, a bank's row of the group overview): "Closing booked <day>" when
 * every account gave its closing booked balance (the latest day, formatted by `formatDay`), "Interim today" when
 * every one gave today's interim, else "Closing booked <day> · <n> interim today"; "No balance" when none reported.
 */
export function rowBasisLabel(
  accounts: readonly { basis: string | null; asOfDate: string | null }[],
  formatDay: (date: string) => string,
): string {
  const interim = accounts.filter((a) => a.basis !== null && isInterim({ balance_type: a.basis })).length;
  const latest = accounts
    .flatMap((a) => (a.basis === "closing_booked" && a.asOfDate ? [a.asOfDate] : []))
    .sort()
    .at(-1);
  const closing = latest ? `Closing booked ${formatDay(latest)}` : null;
  if (interim === 0) return closing ?? "No balance";
  if (!closing) return "Interim today";
  return `${closing} · ${interim} interim today`;
}
