/**
 * What a statement says, in the shape the `import-statements --json` output
 * gives per statement (docs/bank-files.md "Command line"): the account as the
 * file writes it, currency, period, opening and closing booked balances,
 * entry count and the sums of credits and debits, plus how many entries this
 * run stored. Amounts are decimal strings; debit balances are negative.
 */
import { Decimal } from "decimal.js";
import type { ParsedStatement } from "./camt053-parse";
import { moneyText } from "./bank-text";

/** One statement's figures. */
export interface StatementFigures {
  /** The account as in the file (MT940 `:25:`, BAI2 account number, camt IBAN / Othr/Id). */
  account: string;
  currency: string | null;
  /** YYYY-MM-DD; null when the statement gives no date at all. */
  from: string | null;
  to: string | null;
  /** Signed decimal string: opening booked balance (OPBD / PRCD, MT940 :60F:/:60M:), null when none. */
  openingBooked: string | null;
  /** Signed decimal string: closing booked balance (CLBD, MT940 :62F:/:62M:), null when none (MT942). */
  closingBooked: string | null;
  /** Entries read (informational BAI2 details and camt INFO entries included). */
  entries: number;
  /** Sum of the credit entries (an MT940 RD reversal is a credit), decimal string. */
  credits: string;
  /** Sum of the debit entries (an MT940 RC reversal is a debit), decimal string. */
  debits: string;
  /** Entries stored by this run: 0 in a dry run and when the file was imported before. */
  newEntries: number;
}

const OPENING = new Set(["OPBD", "PRCD", "60M"]);
const CLOSING = new Set(["CLBD", "62M"]);

/**
 * The figures of a parsed statement.
 * @param inserted the entries this run stored for it
 */
export function statementFigures(stmt: ParsedStatement, inserted: number): StatementFigures {
  const currency = stmt.account.currency;
  const booked = stmt.entries.filter((e) => e.status !== "INFO");
  const sum = (dir: "credit" | "debit") => {
    const total = booked.filter((e) => e.direction === dir).reduce((s, e) => s.plus(e.amount), new Decimal(0));
    return currency ? moneyText(total, currency) : total.toFixed();
  };
  const opening = stmt.balances.find((b) => OPENING.has(b.code));
  const closing = [...stmt.balances].reverse().find((b) => CLOSING.has(b.code));
  const dates = stmt.entries.map((e) => (e.booked ?? e.value).date).sort();
  return {
    account: stmt.account.asInFile ?? stmt.account.ref,
    currency,
    from: stmt.period?.from ?? dates[0] ?? null,
    to: stmt.period?.to ?? dates[dates.length - 1] ?? null,
    openingBooked: opening?.amount ?? null,
    closingBooked: closing?.amount ?? null,
    entries: stmt.entries.length,
    credits: sum("credit"),
    debits: sum("debit"),
    newEntries: inserted,
  };
}
