/**
 * Writes BAI2 files for tests: `buildBai2(doc)` turns groups of accounts with
 * summaries and transaction details into the file text, with the control
 * totals and record counts of the `49` / `98` / `99` trailers computed as the
 * specification defines them (or overridden to test the check). Long texts go
 * on `88` continuation records; amounts are decimal strings and are written
 * with the currency's implied decimals (USD 2, JPY 0).
 */

export interface BaiDetail {
  /** BAI2 type code: 100–399 credit, 400–699 debit, others informational. */
  type: string;
  amount: string;
  /** Funds type: Z (default), 0, 1, 2, V (with valueDate), S (three amounts). */
  funds?: "Z" | "0" | "1" | "2" | "V" | "S";
  valueDate?: string;
  bankRef?: string;
  customerRef?: string;
  text?: string;
  /** Put the text on an 88 continuation record. */
  textOnContinuation?: boolean;
}

export interface BaiAccount {
  number: string;
  currency?: string;
  /** Summary items: type code → decimal amount (balances may be negative), in order. */
  summary?: [code: string, amount: string][];
  details: BaiDetail[];
  /** Override the 49 control total (minor units) to test the check. */
  controlOverride?: string;
}

export interface BaiGroup {
  /** Originator: the bank's id (e.g. an ABA routing number). */
  bank: string;
  receiver?: string;
  /** As-of date YYYY-MM-DD. */
  date: string;
  currency?: string;
  accounts: BaiAccount[];
}

export interface BaiDocument {
  sender?: string;
  receiver?: string;
  groups: BaiGroup[];
  lineEnd?: "\r\n" | "\n";
}

const MINOR: Record<string, number> = { JPY: 0, KWD: 3, BHD: 3 };

function minor(amount: string, currency: string): bigint {
  const digits = MINOR[currency] ?? 2;
  const negative = amount.startsWith("-");
  const [whole = "0", frac = ""] = amount.replace("-", "").split(".");
  const v = BigInt(whole + frac.padEnd(digits, "0").slice(0, digits));
  return negative ? -v : v;
}

const yymmdd = (d: string) => d.slice(2, 4) + d.slice(5, 7) + d.slice(8, 10);

/** The file text of the document. */
export function buildBai2(doc: BaiDocument): string {
  const lines: string[] = [];
  let fileTotal = 0n;
  let fileRecords = 1;
  lines.push(`01,${doc.sender ?? "BANK"},${doc.receiver ?? "CUSTOMER"},260302,0800,1,80,,2/`);
  for (const g of doc.groups) {
    const groupCcy = g.currency ?? "USD";
    const groupLines: string[] = [`02,${g.receiver ?? "CUSTOMER"},${g.bank},1,${yymmdd(g.date)},2400,${groupCcy},2/`];
    let groupTotal = 0n;
    for (const a of g.accounts) {
      const ccy = a.currency ?? groupCcy;
      let total = 0n;
      const acctLines: string[] = [];
      const summary = (a.summary ?? []).map(([code, amount]) => {
        const v = minor(amount, ccy);
        total += v;
        return `${code},${v < 0n ? v.toString() : `+${v.toString()}`},,`;
      });
      acctLines.push(`03,${a.number},${a.currency ?? ""},${summary.join(",")}/`);
      for (const d of a.details) {
        const v = minor(d.amount, ccy);
        total += v;
        const funds = d.funds ?? "Z";
        const extra = funds === "V" ? `,${yymmdd(d.valueDate ?? g.date)},` : funds === "S" ? `,${v},0,0` : "";
        const head = `16,${d.type},${v},${funds}${extra},${d.bankRef ?? ""},${d.customerRef ?? ""}`;
        if (d.textOnContinuation && d.text) acctLines.push(`${head},/`, `88,${d.text}/`);
        else acctLines.push(`${head},${d.text ?? ""}/`);
      }
      const control = a.controlOverride ?? total.toString();
      acctLines.push(`49,${control},${acctLines.length + 1}/`);
      groupTotal += BigInt(control);
      groupLines.push(...acctLines);
    }
    groupLines.push(`98,${groupTotal},${g.accounts.length},${groupLines.length + 1}/`);
    fileTotal += groupTotal;
    fileRecords += groupLines.length;
    lines.push(...groupLines);
  }
  lines.push(`99,${fileTotal},${doc.groups.length},${fileRecords + 1}/`);
  return lines.join(doc.lineEnd ?? "\n") + (doc.lineEnd ?? "\n");
}

/** A document of one group from the test bank (routing number 021000021) as of `date`, holding `account` alone. */
export function oneAccountBai2(account: BaiAccount, date = "2026-03-02"): BaiDocument {
  return { groups: [{ bank: "021000021", date, accounts: [account] }] };
}
