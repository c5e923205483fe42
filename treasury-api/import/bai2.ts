/**
 * BAI2 (Cash Management Balance Reporting Specification, version 2) parser
 * (docs/bank-files.md "BAI2").
 *
 * `parseBai2(text, fileName)` reads `01` file header, `02` group header
 * (originator = the bank's id, as-of date, group currency), `03` account
 * identifier with its summary (type code, amount, item count, funds type),
 * `16` transaction details, `88` continuations (more summary fields, or more
 * text of a `16`), and the `49` / `98` / `99` trailers. Records end with `/`;
 * several records on one physical line and lines padded with blanks are read.
 *
 * - One `03` account section is one statement for the as-of date of its group.
 *   The account's identity is `(bank_id = group originator, external_ref =
 *   account number, external_ref_type = OTHER)`; currency: the `03`'s, else the
 *   group's, else USD. Amounts have the currency's implied decimals (USD 2, JPY 0).
 * - Balances: 010 opening ledger (OPBD), 015 closing ledger (CLBD), 045 closing
 *   available (CLAV); other balance codes (001–099) are counted as skipped.
 * - Details: type codes 100–399 are credits, 400–699 debits; others (loans
 *   700–799, 890 information…) are informational and not booked. Funds types
 *   Z/0/1/2, V (value date, time), S (three amounts) and D (distribution) are
 *   read; the bank reference is the re-import identity where given.
 * - Checks: each `49` account trailer's control total (the sum of every amount
 *   of the section) and record count, each `98` group trailer, the `99` file
 *   trailer, and opening ledger + entries = closing ledger where both are
 *   given. A mismatch is recorded on the statement (`inconsistency`); the
 *   caller refuses the file unless the operator accepts it.
 *
 * @throws CamtImportError naming the line for a record that cannot be read.
 */
import { Decimal } from "decimal.js";
import {
  CamtImportError,
  type ParsedBalance,
  type ParsedEntry,
  type ParsedFile,
  type ParsedStatement,
} from "./camt053-parse";
import { assignEntryKeys, minorUnits, moneyText, realRef, squash, yymmdd } from "./bank-text";

interface Rec {
  code: string;
  line: number;
  /** Fields after the record code, continuations appended. */
  fields: string[];
  /** Text continuations (88 after a 16). */
  more: string[];
  /** 1 + the number of 88 continuations. */
  records: number;
}

const RECORD_CODES = "01|02|03|16|49|88|98|99";

/** True when the text starts with a BAI2 file header record. */
export function looksLikeBai2(text: string): boolean {
  return /^\s*01,/.test(text);
}

function records(text: string, fileName: string): Rec[] {
  const out: Rec[] = [];
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  lines.forEach((physical, i) => {
    const line = physical.trim();
    if (line === "") return;
    for (const part of line.split(new RegExp(`/\\s+(?=(?:${RECORD_CODES}),)`))) {
      const body = part.trim().replace(/\/$/, "");
      const m = /^(\d{2}),(.*)$/.exec(body);
      const prev = out[out.length - 1];
      if (!m && prev !== undefined) {
        // A physical line break inside a record (seen in bank files): the text goes on, not a new record.
        if (prev.code === "16") prev.more.push(body);
        else {
          const [head = "", ...tail] = body.split(",");
          const lastField = prev.fields.length - 1;
          prev.fields[lastField] = `${prev.fields[lastField] ?? ""}${head}`;
          prev.fields.push(...tail);
        }
        continue;
      }
      if (!m || !new RegExp(`^(?:${RECORD_CODES})$`).test(m[1] ?? ""))
        throw new CamtImportError(fileName, `line ${i + 1}`, `is not a BAI2 record: "${body.slice(0, 40)}"`);
      const code = m[1] ?? "";
      const rest = m[2] ?? "";
      if (code === "88") {
        if (prev === undefined)
          throw new CamtImportError(fileName, `line ${i + 1}`, "is a continuation (88) without a record before it");
        prev.records += 1;
        if (prev.code === "16") prev.more.push(rest);
        else prev.fields.push(...rest.split(","));
        continue;
      }
      out.push({ code, line: i + 1, fields: rest.split(","), more: [], records: 1 });
    }
  });
  return out;
}

function fail(fileName: string, r: Rec | null, problem: string): never {
  throw new CamtImportError(fileName, r ? `line ${r.line} (${r.code})` : null, problem);
}

/** A BAI2 amount (optional sign, digits, implied decimals) as a decimal; null when empty. */
function amount(fileName: string, r: Rec, raw: string | undefined, currency: string): Decimal | null {
  const t = (raw ?? "").trim();
  if (t === "") return null;
  if (!/^[+-]?\d+$/.test(t)) fail(fileName, r, `has an amount that is not digits: "${t}"`);
  return new Decimal(t).div(new Decimal(10).pow(minorUnits(currency)));
}

/** The number of extra fields a funds type carries (after the funds type field itself). */
function fundsExtra(fields: string[], at: number): number {
  const type = (fields[at] ?? "").trim().toUpperCase();
  if (type === "V") return 2;
  if (type === "S") return 3;
  if (type === "D") return 1 + 2 * Number((fields[at + 1] ?? "0").trim() || "0");
  return 0;
}

interface Account {
  rec: Rec;
  stmt: ParsedStatement;
  /** Sum of every amount of the section in minor units, as the 49 trailer counts it. */
  control: Decimal;
  records: number;
}

interface Group {
  bank: string;
  date: string;
  currency: string;
  control: Decimal;
  accounts: number;
  records: number;
}

/** A trailer or ledger mismatch: on one statement, or (`stmt` null) on every statement of the file. */
interface Problem {
  stmt: ParsedStatement | null;
  text: string;
}

/** Where `parseBai2` is in the file: the open group and account section, the file's running totals. */
interface Bai2State {
  fileName: string;
  statements: ParsedStatement[];
  problems: Problem[];
  group: Group | null;
  file: { control: Decimal; groups: number; records: number };
  acct: Account | null;
  sawHeader: boolean;
  sawTrailer: boolean;
}

/** An amount in minor units of the currency, as the trailers' control totals count it. */
const inMinorUnits = (d: Decimal, ccy: string) => d.mul(new Decimal(10).pow(minorUnits(ccy)));

/**
 * Parses a BAI2 file.
 * @param text the decoded file (see charset.ts)
 * @param fileName used in every error message
 * @returns format "bai2", messageType camt.053 (a prior-day statement per account section), version null
 * @throws CamtImportError naming the line for an unknown record, a bad date, amount or type code, a record out of
 *   order, or a missing trailer
 */
export function parseBai2(text: string, fileName: string): ParsedFile {
  const recs = records(text, fileName);
  const s: Bai2State = {
    fileName,
    statements: [],
    problems: [],
    group: null,
    file: { control: new Decimal(0), groups: 0, records: 0 },
    acct: null,
    sawHeader: false,
    sawTrailer: false,
  };
  for (const r of recs) {
    s.file.records += r.records;
    if (s.group !== null) s.group.records += r.records;
    if (s.acct !== null) s.acct.records += r.records;
    RECORD_READERS[r.code]?.(s, r);
  }
  const { statements } = s;
  if (!s.sawHeader) fail(fileName, null, "has no BAI2 file header (01)");
  if (!s.sawTrailer) fail(fileName, recs[recs.length - 1] ?? null, "ends without the file trailer 99");
  if (statements.length === 0) fail(fileName, null, "holds no account (03)");
  for (const p of s.problems) {
    const targets = p.stmt ? [p.stmt] : statements;
    for (const st of targets) st.inconsistency ??= p.text;
  }
  assignEntryKeys("bai2", statements, (e) => (e as ParsedEntry & { customerRef: string | null }).customerRef);
  return { fileName, messageType: "camt.053", version: null, statements, format: "bai2" };
}

/** What each record code does to the parse state (`88` continuations are already folded in by `records`). */
const RECORD_READERS: Record<string, (s: Bai2State, r: Rec) => void> = {
  "01": fileHeader,
  "02": groupHeader,
  "03": accountHeader,
  "16": transactionDetail,
  "49": accountTrailer,
  "98": groupTrailer,
  "99": fileTrailer,
};

/** `01`: the file header, once. */
function fileHeader(s: Bai2State, r: Rec): void {
  if (s.sawHeader) fail(s.fileName, r, "is a second file header");
  s.sawHeader = true;
  s.file = { control: new Decimal(0), groups: 0, records: 1 };
}

/** `02`: a group header (originator = the bank's id, as-of date, currency, USD when empty). */
function groupHeader(s: Bai2State, r: Rec): void {
  const f = r.fields;
  if (!s.sawHeader) fail(s.fileName, r, "comes before the file header 01");
  const date = yymmdd((f[3] ?? "").trim());
  if (date === null) fail(s.fileName, r, `has an invalid as-of date "${f[3]}"`);
  const currency = (f[5] ?? "").trim() || "USD";
  if (!/^[A-Z]{3}$/.test(currency)) fail(s.fileName, r, `has an invalid currency "${currency}"`);
  s.group = { bank: (f[1] ?? "").trim(), date, currency, control: new Decimal(0), accounts: 0, records: 1 };
}

/** `03`: an account section opens; it is one statement for the group's as-of date. */
function accountHeader(s: Bai2State, r: Rec): void {
  const { fileName, statements } = s;
  const group = s.group;
  const f = r.fields;
  if (group === null) fail(fileName, r, "comes before a group header 02");
  const number = (f[0] ?? "").trim();
  if (number === "") fail(fileName, r, "has no account number");
  const currency = (f[1] ?? "").trim() || group.currency;
  if (!/^[A-Z]{3}$/.test(currency)) fail(fileName, r, `has an invalid currency "${currency}"`);
  const { balances, control } = accountSummary(fileName, r, currency, group.date);
  const stmt: ParsedStatement = {
    fileName,
    messageType: "camt.053",
    version: null,
    createdAt: null,
    index: statements.length,
    id: `${group.bank}/${group.date}/${number}#${statements.length}`,
    account: {
      ref: number,
      refType: "OTHER",
      bankId: group.bank || null,
      asInFile: number,
      currency,
      servicerBic: null,
      servicerName: null,
      name: null,
    },
    period: { from: group.date, to: group.date },
    balances,
    entries: [],
    source: "bai2",
    coverageSource: "bai2",
    inconsistency: null,
  };
  statements.push(stmt);
  s.acct = { rec: r, stmt, control, records: r.records };
  group.accounts += 1;
}

/**
 * The summary fields of a `03` (type code, amount, item count, funds type …): the balances the importer maps and
 * the sum of every amount in minor units (the `49` control total counts them).
 */
function accountSummary(
  fileName: string,
  r: Rec,
  currency: string,
  date: string,
): { balances: ParsedBalance[]; control: Decimal } {
  const f = r.fields;
  const balances: ParsedBalance[] = [];
  let control = new Decimal(0);
  for (let i = 2; i < f.length;) {
    const code = (f[i] ?? "").trim();
    if (code === "") {
      i += 1;
      continue;
    }
    if (!/^\d{3}$/.test(code)) fail(fileName, r, `has a type code that is not 3 digits: "${code}"`);
    const value = amount(fileName, r, f[i + 1], currency);
    if (value !== null) control = control.plus(inMinorUnits(value, currency));
    const kind = Number(code) < 100 ? (BALANCE_CODES[code] ?? code) : null;
    if (kind !== null && value !== null) {
      balances.push({
        code: kind,
        amount: moneyText(value, currency),
        currency,
        date,
        at: `${date}T00:00:00Z`,
        dateOnly: true,
      });
    }
    i += 4 + fundsExtra(f, i + 3);
  }
  return { balances, control };
}

/** `16`: a transaction detail of the open account section; 100–399 credit, 400–699 debit, others informational. */
function transactionDetail(s: Bai2State, r: Rec): void {
  const { fileName, acct, group } = s;
  const f = r.fields;
  if (acct === null || group === null) fail(fileName, r, "is a transaction detail outside an account (03)");
  const ccy = acct.stmt.account.currency ?? group.currency;
  const code = (f[0] ?? "").trim();
  if (!/^\d{3}$/.test(code)) fail(fileName, r, `has a type code that is not 3 digits: "${code}"`);
  const value = amount(fileName, r, f[1], ccy);
  if (value === null) fail(fileName, r, "has no amount");
  acct.control = acct.control.plus(inMinorUnits(value, ccy));
  const extra = fundsExtra(f, 2);
  const fundsType = (f[2] ?? "").trim().toUpperCase();
  let valueDate = group.date;
  if (fundsType === "V") {
    const d = yymmdd((f[3] ?? "").trim());
    if (d === null && (f[3] ?? "").trim() !== "") fail(fileName, r, `has an invalid value date "${f[3]}"`);
    valueDate = d ?? group.date;
  }
  const at = 3 + extra;
  const bankRef = realRef(f[at]);
  const customerRef = realRef(f[at + 1]);
  const text = squash([f.slice(at + 2).join(","), ...r.more].join(" "));
  const n = Number(code);
  const direction = n >= 100 && n <= 399 ? "credit" : "debit";
  const info = !(n >= 100 && n <= 699);
  const entry: ParsedEntry & { customerRef: string | null } = {
    index: acct.stmt.entries.length,
    amount: moneyText(value, ccy),
    currency: ccy,
    direction,
    status: info ? "INFO" : null,
    booked: { date: group.date, at: `${group.date}T00:00:00Z`, dateOnly: true },
    value: { date: valueDate, at: `${valueDate}T00:00:00Z`, dateOnly: true },
    pending: false,
    accountServicerRef: bankRef,
    entryRef: customerRef,
    counterpartyName: "",
    remittance: text || (customerRef ?? ""),
    endToEndId: null,
    txCount: 1,
    additionalInfo: `BAI2 type ${code}`,
    customerRef,
  };
  acct.stmt.entries.push(entry);
}

/** `49`: the account trailer, checked against the section's control total and record count; closes the section. */
function accountTrailer(s: Bai2State, r: Rec): void {
  const { fileName, acct, group } = s;
  const f = r.fields;
  if (acct === null || group === null) fail(fileName, r, "is an account trailer without an account (03)");
  const ccy = acct.stmt.account.currency ?? group.currency;
  const total = amount(fileName, r, f[0], "JPY") ?? new Decimal(0);
  const count = Number((f[1] ?? "").trim());
  group.control = group.control.plus(total);
  if (!total.eq(acct.control) || count !== acct.records)
    s.problems.push({
      stmt: acct.stmt,
      text:
        `account ${acct.stmt.account.ref} (line ${acct.rec.line}): the trailer 49 gives control total ` +
        `${moneyText(total.div(new Decimal(10).pow(minorUnits(ccy))), ccy)} and ${count} records, the section ` +
        `has ${moneyText(acct.control.div(new Decimal(10).pow(minorUnits(ccy))), ccy)} and ${acct.records}`,
    });
  ledgerCheck(acct.stmt, s.problems);
  s.acct = null;
}

/** `98`: the group trailer, checked against the group's control total, accounts and records; closes the group. */
function groupTrailer(s: Bai2State, r: Rec): void {
  const { fileName, acct, group, file } = s;
  const f = r.fields;
  if (group === null) fail(fileName, r, "is a group trailer without a group (02)");
  if (acct !== null) fail(fileName, r, `closes the group but account ${acct.stmt.account.ref} has no trailer 49`);
  const total = amount(fileName, r, f[0], "JPY") ?? new Decimal(0);
  const accounts = Number((f[1] ?? "").trim());
  const count = Number((f[2] ?? "").trim());
  file.control = file.control.plus(total);
  file.groups += 1;
  if (!total.eq(group.control) || accounts !== group.accounts || count !== group.records)
    s.problems.push({
      stmt: null,
      text:
        `group of ${group.bank} ${group.date} (line ${r.line}): the trailer 98 gives control total ` +
        `${total.toFixed()}, ${accounts} accounts and ${count} records, the group has ${group.control.toFixed()}, ` +
        `${group.accounts} and ${group.records}`,
    });
  s.group = null;
}

/** `99`: the file trailer, checked against the file's control total, groups and records. */
function fileTrailer(s: Bai2State, r: Rec): void {
  const { fileName, file } = s;
  const f = r.fields;
  if (s.group !== null) fail(fileName, r, "closes the file but the group has no trailer 98");
  s.sawTrailer = true;
  const total = amount(fileName, r, f[0], "JPY") ?? new Decimal(0);
  const groups = Number((f[1] ?? "").trim());
  const count = Number((f[2] ?? "").trim());
  if (!total.eq(file.control) || groups !== file.groups || count !== file.records)
    s.problems.push({
      stmt: null,
      text:
        `file trailer 99 (line ${r.line}) gives control total ${total.toFixed()}, ${groups} groups and ` +
        `${count} records, the file has ${file.control.toFixed()}, ${file.groups} and ${file.records}`,
    });
}

/** BAI2 balance summary codes and the ISO codes the importer maps (others are counted as skipped). */
const BALANCE_CODES: Record<string, string> = { "010": "OPBD", "015": "CLBD", "045": "CLAV" };

/** Opening ledger + credits − debits must equal the closing ledger where the section gives both. */
function ledgerCheck(stmt: ParsedStatement, problems: Problem[]): void {
  const opening = stmt.balances.find((b) => b.code === "OPBD");
  const closing = stmt.balances.find((b) => b.code === "CLBD");
  if (opening === undefined || closing === undefined) return;
  const booked = stmt.entries.filter((e) => e.status !== "INFO");
  const net = booked.reduce(
    (s, e) => (e.direction === "credit" ? s.plus(e.amount) : s.minus(e.amount)),
    new Decimal(0),
  );
  const expected = new Decimal(opening.amount).plus(net);
  if (!expected.eq(closing.amount))
    problems.push({
      stmt,
      text:
        `account ${stmt.account.ref} ${stmt.period?.from ?? ""} does not add up: opening ledger ${opening.amount} + ` +
        `entries ${net.toFixed()} = ${expected.toFixed()}, but the closing ledger is ${closing.amount}`,
    });
}
