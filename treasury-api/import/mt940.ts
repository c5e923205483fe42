/**
 * SWIFT MT940 (customer statement) and MT942 (interim transaction report)
 * parser (docs/bank-files.md "MT940 / MT942").
 *
 * `parseMt940(text, fileName)` reads a file of one or more messages — with or
 * without the SWIFT envelope (`{1:…}{2:…}{4:` … `-}`), bank preambles such as
 * ABN AMRO's `ABNANL2A / 940` lines or Rabobank's `:940:`, CRLF or LF, blank
 * lines and blanks inside `:61:` — into the `ParsedFile` shape the statement
 * importer stores (`format` "mt940" or "mt942"):
 *
 * - `:20:` starts a statement; `:25:` is the account (an IBAN, optionally
 *   followed by its currency; `BANKCODE/ACCOUNT` such as BLZ/Konto or
 *   BIC/account is a BBAN with that bank code; anything else OTHER, with the
 *   BIC of the SWIFT envelope as bank code when there is one).
 * - `:60F:`/`:60M:` opening, `:62F:`/`:62M:` closing (final / intermediate),
 *   `:64:` closing available, `:65:` forward available balances.
 * - `:61:` entries: value date, optional booking date (MMDD), mark C / D / RC
 *   (reversal of a credit: a debit) / RD (reversal of a debit: a credit),
 *   amount with a decimal comma, transaction type, customer reference, `//`
 *   bank reference, supplementary details on the next line.
 * - `:86:` after an entry: German structured details (`GVC?00…?20…?63`, SEPA
 *   keys EREF+/SVWZ+…), the Dutch `/EREF/…/NAME/…/REMI/…` style, or free text.
 * - MT942: `:13D:` creation date-time, `:34F:` floor limits, `:90D:`/`:90C:`
 *   number and sum of debits / credits (checked against the entries). Its
 *   entries are pending (like camt.052); `:62M:`/`:64:` become intraday points.
 *
 * Amounts stay decimal strings; a malformed file throws `CamtImportError`
 * naming the file and line, e.g. `bank.sta: line 7 (:61:) has no amount`.
 */
import { Decimal } from "decimal.js";
import { electronicFormatIBAN, isValidIBAN } from "ibantools";
import {
  CamtImportError,
  type ParsedBalance,
  type ParsedEntry,
  type ParsedFile,
  type ParsedStatement,
} from "./camt053-parse";
import { assignEntryKeys, moneyText, realRef, squash, yymmdd } from "./bank-text";

interface Field {
  tag: string;
  line: number;
  lines: string[];
}

interface RawStatement {
  fields: Field[];
  bic: string | null;
  messageType: string | null;
}

const TAG_RE = /^:(\d{2}[A-Z]?):(.*)$/;

/** True when the text looks like an MT940 / MT942 file (a `:20:` and a `:25:` tag, or a SWIFT envelope). */
export function looksLikeMt940(text: string): boolean {
  const head = text.slice(0, 4000);
  return (/(^|\n)\s*:20:/.test(head) && /(^|\n):25[A-Z]?:/.test(text)) || /\{2:[IO]94[02]/.test(head);
}

/** Splits the text into messages' fields, dropping envelopes and preambles. */
function tokenize(text: string): RawStatement[] {
  const lines = text.replace(/\r\n?/g, "\n").replaceAll("\u0001", "").replaceAll("\u0003", "").split("\n");
  const statements: RawStatement[] = [];
  let bic: string | null = null;
  let messageType: string | null = null;
  let current: RawStatement | null = null;
  let field: Field | null = null;
  lines.forEach((raw, i) => {
    let line = raw.replace(/\s+$/, "");
    const envelope = /\{1:F\d\d([A-Z0-9]{12})\d*\}/.exec(line);
    if (envelope) {
      const lt = envelope[1] ?? "";
      const branch = lt.slice(9, 12);
      bic = lt.slice(0, 8) + (branch === "XXX" ? "" : branch);
    }
    const type = /\{2:[IO](94[02])/.exec(line);
    if (type) messageType = type[1] ?? null;
    const block4 = line.indexOf("{4:");
    if (block4 >= 0) line = line.slice(block4 + 3);
    if (/^-\}?/.test(line) && line.length <= 2) {
      field = null;
      current = null;
      return;
    }
    if (line.startsWith("{5:") || line.startsWith("-}{5:")) return;
    if (line.trim() === "") return;
    const tag = TAG_RE.exec(line);
    if (tag) {
      const name = tag[1] ?? "";
      if (name === "20" || current === null) {
        current = { fields: [], bic, messageType };
        statements.push(current);
      }
      field = { tag: name, line: i + 1, lines: [tag[2] ?? ""] };
      current.fields.push(field);
    } else if (field !== null) {
      field.lines.push(line);
    }
  });
  return statements.filter((s) => s.fields.some((f) => f.tag === "20" || f.tag === "25"));
}

interface Ctx {
  fileName: string;
}

function fail(ctx: Ctx, f: Field | null, problem: string): never {
  throw new CamtImportError(ctx.fileName, f ? `line ${f.line} (:${f.tag}:)` : null, problem);
}

function amountOf(ctx: Ctx, f: Field, raw: string, currency: string): string {
  const t = raw.trim();
  if (!/^\d+(,\d*)?$/.test(t)) fail(ctx, f, `has no valid amount: "${raw}" (digits with a decimal comma)`);
  return moneyText(new Decimal(t.replace(",", ".").replace(/\.$/, "")), currency);
}

const BAL_RE = /^\s*([CD])\s*(\d{6})\s*([A-Z]{3})\s*([\d,]+)\s*$/;

function balanceOf(ctx: Ctx, f: Field, code: string): ParsedBalance {
  const m = BAL_RE.exec(f.lines[0] ?? "");
  if (!m) fail(ctx, f, `is not a balance (mark C or D, date YYMMDD, currency, amount): "${f.lines[0]}"`);
  const date = yymmdd(m[2] ?? "");
  if (date === null) fail(ctx, f, `has an invalid date "${m[2]}"`);
  const currency = m[3] ?? "";
  const amount = amountOf(ctx, f, m[4] ?? "", currency);
  const negative = m[1] === "D" && !new Decimal(amount).isZero();
  return {
    code,
    amount: negative ? `-${amount}` : amount,
    currency,
    date,
    at: `${date}T00:00:00Z`,
    dateOnly: true,
  };
}

/** `:25:` → the account's identity (docs/bank-files.md "Accounts without IBAN"). */
function accountOf(
  raw: string,
  bic: string | null,
): { ref: string; refType: "IBAN" | "BBAN" | "OTHER"; bankId: string | null } {
  const text = raw.replace(/\s+/g, "");
  const slash = text.indexOf("/");
  if (slash > 0) {
    const bank = text.slice(0, slash).toUpperCase();
    const number = text.slice(slash + 1);
    const iban = electronicFormatIBAN(number) ?? number;
    if (isValidIBAN(iban)) return { ref: iban, refType: "IBAN", bankId: bank };
    const withoutCcy = number.replace(/[A-Z]{3}$/, "");
    if (isValidIBAN(withoutCcy)) return { ref: withoutCcy, refType: "IBAN", bankId: bank };
    return { ref: withoutCcy || number, refType: "BBAN", bankId: bank };
  }
  const upper = text.toUpperCase();
  if (isValidIBAN(upper)) return { ref: upper, refType: "IBAN", bankId: bic };
  const withoutCcy = upper.replace(/[A-Z]{3}$/, "");
  if (withoutCcy !== upper && isValidIBAN(withoutCcy)) return { ref: withoutCcy, refType: "IBAN", bankId: bic };
  return { ref: text, refType: "OTHER", bankId: bic };
}

const ENTRY_RE = /^(\d{6})(\d{4})?\s*(RC|RD|EC|ED|C|D)([A-Z])?\s*(\d[\d,]*)\s*([SNF][A-Z0-9]{2,3})(.*)$/;

interface Mt940Entry extends ParsedEntry {
  customerRef: string | null;
}

/** The booking date from the entry date `MMDD` next to the value date (the year may roll over). */
function bookingDate(value: string, mmdd: string): string | null {
  let year = Number(value.slice(0, 4));
  const valueMonth = Number(value.slice(5, 7));
  const month = Number(mmdd.slice(0, 2));
  if (valueMonth === 12 && month === 1) year += 1;
  if (valueMonth === 1 && month === 12) year -= 1;
  return yymmdd(`${String(year % 100).padStart(2, "0")}${mmdd}`);
}

function entryOf(ctx: Ctx, f: Field, index: number, currency: string): Mt940Entry {
  const first = f.lines[0] ?? "";
  const m = ENTRY_RE.exec(first);
  if (!m) fail(ctx, f, `is not a statement line (value date, mark C/D/RC/RD, amount, type): "${first}"`);
  const value = yymmdd(m[1] ?? "");
  if (value === null) fail(ctx, f, `has an invalid value date "${m[1]}"`);
  const booked = m[2] ? bookingDate(value, m[2]) : value;
  if (booked === null) fail(ctx, f, `has an invalid booking date "${m[2]}"`);
  const mark = m[3] ?? "";
  // RC reverses a credit (money goes out), RD reverses a debit (money comes back).
  const direction = mark === "C" || mark === "EC" || mark === "RD" ? "credit" : "debit";
  const amount = amountOf(ctx, f, m[5] ?? "", currency);
  const rest = m[7] ?? "";
  const split = rest.indexOf("//");
  const customerRef = realRef(split >= 0 ? rest.slice(0, split) : rest);
  const bankRef = split >= 0 ? realRef(rest.slice(split + 2)) : null;
  const supplementary = f.lines.slice(1).join(" ").trim();
  return {
    index,
    amount,
    currency,
    direction,
    status: null,
    booked: { date: booked, at: `${booked}T00:00:00Z`, dateOnly: true },
    value: { date: value, at: `${value}T00:00:00Z`, dateOnly: true },
    pending: false,
    accountServicerRef: bankRef,
    entryRef: customerRef,
    counterpartyName: "",
    remittance: supplementary,
    endToEndId: null,
    txCount: 1,
    additionalInfo: supplementary || null,
    customerRef,
  };
}

/** Joins the lines of a `:86:` field: a full SWIFT line (65 characters) continues its word on the next. */
function joinInfo(f: Field): string {
  let out = f.lines[0] ?? "";
  let prev = `:${f.tag}:${out}`;
  for (const line of f.lines.slice(1)) {
    out += prev.length >= 60 || /^\d{3}\?/.test(f.lines[0] ?? "") ? line : ` ${line}`;
    prev = line;
  }
  return out;
}

const SEPA_KEYS = /(EREF|KREF|MREF|CRED|DEBT|SVWZ|ABWA|ABWE|COAM|OAMT|IBAN|BIC)\+/g;
const DUTCH_KEYS = new Set([
  "EREF", "MARF", "CSID", "CNTP", "REMI", "PURP", "ULTC", "ULTD", "ULTB", "BENM", "ORDP", "NAME", "ISDT", "IBAN",
  "BIC", "ADDR", "RTRN", "CPRP", "TRTP", "PREF", "OCMT", "CHGS", "EXCH", "SWOC", "ATTN", "IREF", "ACCW", "BUSP",
]); // prettier-ignore

/** Reads the details of a `:86:` field into the entry (counterparty, remittance, end-to-end id). */
function applyInfo(entry: Mt940Entry, info: string): void {
  const german = /^(\d{3})([^A-Za-z0-9\s])(\d{2})/.exec(info);
  if (german) {
    const sep = german[2] ?? "?";
    const sub = new Map<number, string>();
    for (const part of info.slice(3).split(sep)) {
      if (!/^\d{2}/.test(part)) continue;
      const code = Number(part.slice(0, 2));
      sub.set(code, (sub.get(code) ?? "") + part.slice(2));
    }
    const purposeCodes = [...sub.keys()]
      .filter((c) => (c >= 20 && c <= 29) || (c >= 60 && c <= 63))
      .sort((a, b) => a - b);
    const parts = purposeCodes.map((c) => sub.get(c) ?? "");
    const joined = parts.join("");
    const keyed = new Map<string, string>();
    const hits = [...joined.matchAll(SEPA_KEYS)];
    hits.forEach((h, i) => {
      const start = (h.index ?? 0) + h[0].length;
      const end = hits[i + 1]?.index ?? joined.length;
      keyed.set(h[1] ?? "", joined.slice(start, end).trim());
    });
    const name = `${sub.get(32) ?? ""}${sub.get(33) ?? ""}`;
    entry.counterpartyName = squash(name);
    entry.remittance = squash(keyed.size > 0 ? (keyed.get("SVWZ") ?? "") : parts.join(" ")) || squash(sub.get(0) ?? "");
    entry.endToEndId = realRef(keyed.get("EREF"));
    entry.additionalInfo = squash(sub.get(0) ?? "") || entry.additionalInfo;
    return;
  }
  if (/^\/[A-Z]{2,5}\//.test(info)) {
    const values = new Map<string, string[]>();
    let key: string | null = null;
    for (const token of info.split("/").slice(1)) {
      if (DUTCH_KEYS.has(token) && !(key === "CNTP" && (values.get("CNTP")?.length ?? 0) < 4 && token !== "REMI")) {
        key = token;
        if (!values.has(key)) values.set(key, []);
      } else if (key !== null) values.get(key)?.push(token);
    }
    const text = (k: string) => (values.get(k) ?? []).filter((t) => t !== "").join("/");
    const remi = (values.get("REMI") ?? []).filter((t) => t !== "" && t !== "USTD" && t !== "STRD");
    entry.counterpartyName = squash(text("NAME") || (values.get("CNTP")?.[2] ?? ""));
    entry.remittance = squash(remi.join(" ")) || entry.remittance;
    entry.endToEndId = realRef(text("EREF"));
    return;
  }
  entry.remittance = squash(info);
}

interface Summary90 {
  count: number;
  currency: string;
  amount: string;
}

function sum90(ctx: Ctx, f: Field): Summary90 {
  const m = /^\s*(\d{1,5})\s*([A-Z]{3})\s*([\d,]+)\s*$/.exec(f.lines[0] ?? "");
  if (!m) fail(ctx, f, `is not a number and sum of entries (count, currency, amount): "${f.lines[0]}"`);
  const currency = m[2] ?? "";
  return { count: Number(m[1]), currency, amount: amountOf(ctx, f, m[3] ?? "", currency) };
}

/** `:13D:` YYMMDDHHMM±HHMM → ISO 8601 with offset. */
function dateTime13D(ctx: Ctx, f: Field): { date: string; at: string } {
  const m = /^\s*(\d{6})(\d{2})(\d{2})([+-])(\d{2})(\d{2})\s*$/.exec(f.lines[0] ?? "");
  const date = m ? yymmdd(m[1] ?? "") : null;
  if (!m || date === null) fail(ctx, f, `is not a date-time YYMMDDHHMM±HHMM: "${f.lines[0]}"`);
  return { date, at: `${date}T${m[2]}:${m[3]}:00${m[4]}${m[5]}:${m[6]}` };
}

/**
 * Parses an MT940 / MT942 file.
 * @param text the decoded file (see charset.ts)
 * @param fileName used in every error message
 * @returns format "mt940" (statements: booked entries, balances, coverage) or "mt942" (interim reports: every entry
 *   pending); `messageType` is the camt message with the same meaning (camt.053 / camt.052), `version` null
 * @throws CamtImportError naming the line when a statement lacks `:25:`, an MT940 statement lacks `:60F:`/`:60M:`
 *   or `:62F:`/`:62M:`, or a balance, date or `:61:` line cannot be read
 */
export function parseMt940(text: string, fileName: string): ParsedFile {
  const ctx: Ctx = { fileName };
  const raws = tokenize(text);
  if (raws.length === 0) fail(ctx, null, "holds no MT940 / MT942 statement (no :20: and :25: tags)");
  const has = (r: RawStatement, t: string) => r.fields.some((f) => f.tag === t);
  const interim =
    raws.some((r) => r.messageType === "942") ||
    (raws.every((r) => r.messageType !== "940" && !has(r, "62F") && !has(r, "60F")) &&
      raws.some((r) => has(r, "13D") || has(r, "34F") || has(r, "90D") || has(r, "90C")));
  const format = interim ? "mt942" : "mt940";
  const statements = raws.map((r, i) => statementOf(ctx, r, i, format));
  assignEntryKeys(format, statements, (e) => (e as Mt940Entry).customerRef);
  return {
    fileName,
    messageType: interim ? "camt.052" : "camt.053",
    version: null,
    statements,
    format,
  };
}

/** What the tags of one statement say, read in file order by `readTags`. */
interface StatementTags {
  balances: ParsedBalance[];
  entries: Mt940Entry[];
  opening: ParsedBalance | null;
  closing: ParsedBalance | null;
  createdAt: { date: string; at: string } | null;
  sums: { D?: Summary90; C?: Summary90 };
  currency: string | null;
}

function statementOf(ctx: Ctx, raw: RawStatement, index: number, format: "mt940" | "mt942"): ParsedStatement {
  const get = (t: string) => raw.fields.find((f) => f.tag === t);
  const ref = get("20");
  const acct = get("25") ?? get("25P");
  if (acct === undefined)
    fail(ctx, ref ?? raw.fields[0] ?? null, `starts statement ${index + 1} without a :25: account`);
  const seq = get("28C") ?? get("28");
  const id = `${(ref?.lines[0] ?? "").trim()}/${(seq?.lines[0] ?? "").trim()}`;
  const tags = readTags(ctx, raw, format, firstCurrency(get));
  const { balances, entries, opening, closing, createdAt, currency } = tags;
  if (format === "mt940") {
    if (opening === null) fail(ctx, ref ?? acct, `statement ${id} has no opening balance :60F: / :60M:`);
    if (closing === null) fail(ctx, ref ?? acct, `statement ${id} has no closing balance :62F: / :62M:`);
  }
  const account = accountOf(acct.lines.join(""), raw.bic);
  const ccy = currency ?? entries[0]?.currency ?? null;
  const bookedDays = entries.map((e) => (e.booked ?? e.value).date).sort();
  const to = closing?.date ?? createdAt?.date ?? bookedDays[bookedDays.length - 1] ?? null;
  const from = [bookedDays[0], to].filter((d): d is string => d !== undefined && d !== null).sort()[0] ?? null;
  if (format === "mt942") for (const e of entries) e.pending = true;
  return {
    fileName: ctx.fileName,
    messageType: format === "mt942" ? "camt.052" : "camt.053",
    version: null,
    createdAt: createdAt === null ? null : { ...createdAt, dateOnly: false },
    index,
    id,
    account: {
      ...account,
      asInFile: acct.lines.join("").trim(),
      currency: ccy,
      servicerBic: raw.bic,
      servicerName: null,
      name: null,
    },
    period: from !== null && to !== null ? { from, to } : null,
    balances,
    entries,
    source: format,
    coverageSource: "mt940",
    inconsistency: inconsistencyOf(tags, format, id, ref?.line ?? acct.line),
  };
}

/** The statement's currency before any entry is read: from `:60F:`/`:60M:`, else `:34F:`, else `:90C:`/`:90D:`. */
function firstCurrency(get: (tag: string) => Field | undefined): string | null {
  return (
    /^\s*[CD]?\s*\d{6}\s*([A-Z]{3})/.exec(get("60F")?.lines[0] ?? get("60M")?.lines[0] ?? "")?.[1] ??
    /^\s*([A-Z]{3})/.exec(get("34F")?.lines[0] ?? "")?.[1] ??
    /^\s*\d+\s*([A-Z]{3})/.exec(get("90C")?.lines[0] ?? get("90D")?.lines[0] ?? "")?.[1] ??
    null
  );
}

/** Reads the statement's tags in order: balances, `:13D:`, `:90C:`/`:90D:`, and each `:61:` with its `:86:`. */
function readTags(ctx: Ctx, raw: RawStatement, format: "mt940" | "mt942", currency: string | null): StatementTags {
  const t: StatementTags = {
    balances: [],
    entries: [],
    opening: null,
    closing: null,
    createdAt: null,
    sums: {},
    currency,
  };
  let last: Mt940Entry | null = null;
  for (const f of raw.fields) {
    // A :86: belongs to the :61: right before it; after any other tag it is the statement's own information.
    if (f.tag !== "86" && f.tag !== "61") last = null;
    switch (f.tag) {
      case "60F":
      case "60M": {
        const b = balanceOf(ctx, f, f.tag === "60F" ? "OPBD" : "60M");
        t.opening = b;
        t.currency ??= b.currency;
        t.balances.push(b);
        break;
      }
      case "62F":
      case "62M": {
        const b = balanceOf(ctx, f, format === "mt942" ? "ITBD" : f.tag === "62F" ? "CLBD" : "62M");
        t.closing = b;
        t.balances.push(b);
        break;
      }
      case "64":
        t.balances.push(balanceOf(ctx, f, format === "mt942" ? "ITAV" : "CLAV"));
        break;
      case "65":
        t.balances.push(balanceOf(ctx, f, "FWAV"));
        break;
      case "13D":
      case "13":
        t.createdAt = dateTime13D(ctx, f);
        break;
      case "90D":
      case "90C":
        t.sums = { ...t.sums, [f.tag === "90D" ? "D" : "C"]: sum90(ctx, f) };
        break;
      case "61": {
        if (t.currency === null) fail(ctx, f, "comes before any balance or :34F: that gives the currency");
        last = entryOf(ctx, f, t.entries.length, t.currency);
        t.entries.push(last);
        break;
      }
      case "86":
        if (last !== null) applyInfo(last, joinInfo(f));
        last = null;
        break;
      default:
        break;
    }
  }
  return t;
}

/**
 * Why the statement does not add up, or null: an MT940's opening + entries ≠ closing; an MT942's `:90C:`/`:90D:`
 * count or sum ≠ its entries (docs/bank-files.md "Balances must add up"). `line` is the statement's first line.
 */
function inconsistencyOf(t: StatementTags, format: "mt940" | "mt942", id: string, line: number): string | null {
  const { entries, opening, closing } = t;
  let inconsistency: string | null = null;
  if (format === "mt940" && opening !== null && closing !== null) {
    const net = entries.reduce(
      (s, e) => (e.direction === "credit" ? s.plus(e.amount) : s.minus(e.amount)),
      new Decimal(0),
    );
    const expected = new Decimal(opening.amount).plus(net);
    if (!expected.eq(closing.amount))
      inconsistency =
        `statement ${id} (line ${line}) does not add up: opening ${opening.amount} + entries ` +
        `${net.toFixed()} = ${expected.toFixed()}, but the closing balance is ${closing.amount}`;
  }
  if (format === "mt942") {
    for (const [mark, s] of Object.entries(t.sums)) {
      const side = entries.filter((e) => (mark === "C" ? e.direction === "credit" : e.direction === "debit"));
      const total = side.reduce((sum, e) => sum.plus(e.amount), new Decimal(0));
      if (side.length !== s.count || !total.eq(s.amount))
        inconsistency =
          `report ${id} does not add up: :90${mark}: gives ${s.count} entries for ${s.amount}, the report has ` +
          `${side.length} for ${moneyText(total, s.currency)}`;
    }
  }
  return inconsistency;
}
