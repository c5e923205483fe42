/**
 * ISO 20022 bank-to-customer message parser: camt.052 (BankToCustomerAccountReport),
 * camt.053 (BankToCustomerStatement) and camt.054 (BankToCustomerDebitCreditNotification).
 *
 * `parseStatementFile(xml, fileName)` detects the message and its version
 * (001.02–001.12) from the root element and namespace and turns the file into
 * plain objects the importer stores: accounts, balances and entries, one
 * `ParsedStatement` per `Stmt` / `Rpt` / `Ntfctn`. It is pure (no I/O, no
 * database). The element names the importer needs are the same across
 * versions; where they differ — `BIC`/`BICFI`, `Dbtr/Nm`/`Dbtr/Pty/Nm`,
 * `Sts`/`Sts/Cd` — both are read.
 *
 * It accepts what the schemas accept (dates with or without a time-zone
 * offset, entries without details or without a booking date, no `Acct/Ccy`,
 * proprietary codes, statements without entries) and is lenient where banks
 * break the schema harmlessly (long texts, element order): only what the
 * import cannot read is refused.
 *
 * Money never becomes a number: amounts are the decimal strings of the file.
 * Malformed input throws `CamtImportError` naming the file and the element
 * path, e.g. `statement.xml: Document/BkToCstmrStmt/Stmt[0]/Ntry[3]/Amt is missing`.
 */
import { Decimal } from "decimal.js";
import { isValid, parseISO } from "date-fns";
import { electronicFormatIBAN } from "ibantools";
import type { BalanceType } from "@treasury/contract/ledger";
import { previousDay } from "../lib/dates";
import { ApiError } from "../lib/errors";
import { checkIsoNamespace, documentNamespace, guardXml } from "./xml-guard";
import { at, attrOf, child, children, readXml, textAt, textOf, type XmlNode } from "./xml-tree";

/**
 * A statement file that cannot be imported. A 400 `validation_error` when it
 * reaches the HTTP layer; `details` carry the file and the element path.
 */
export class CamtImportError extends ApiError {
  readonly fileName: string;
  readonly elementPath: string | null;

  constructor(fileName: string, elementPath: string | null, problem: string) {
    super("validation_error", `${fileName}: ${elementPath ? `${elementPath} ` : ""}${problem}`, {
      file: fileName,
      path: elementPath,
    });
    this.name = "CamtImportError";
    this.fileName = fileName;
    this.elementPath = elementPath;
  }
}

/** A point in time from a `Dt` (date only) or `DtTm` (date-time) choice. */
export interface ParsedInstant {
  /** `YYYY-MM-DD`: the date as written (for a DtTm, its local date part). */
  date: string;
  /** ISO 8601 with offset: a Dt is that date at 00:00:00Z; a DtTm as given (UTC when it has no offset). */
  at: string;
  /** True when the file gave only a date. */
  dateOnly: boolean;
}

/** One `Bal` element. */
export interface ParsedBalance {
  /** ISO code from `Tp/CdOrPrtry/Cd` (or the proprietary code), e.g. CLBD. */
  code: string;
  /** Signed decimal string: negative when `CdtDbtInd` is DBIT. */
  amount: string;
  currency: string;
  date: string;
  /** The instant of the balance: a DtTm as given, a Dt at 00:00:00Z (see `dateOnly`). */
  at: string;
  dateOnly: boolean;
}

/** One `Ntry`: a booking as the bank made it (a batch stays one entry). */
export interface ParsedEntry {
  /** Position of the entry within its statement (0-based). */
  index: number;
  /** Absolute amount exactly as written in `Ntry/Amt`. */
  amount: string;
  currency: string;
  direction: "credit" | "debit";
  /** `Sts` / `Sts/Cd` (BOOK, PDNG, INFO), null when absent. */
  status: string | null;
  /** `BookgDt`; null when the entry has none (then it is pending). */
  booked: ParsedInstant | null;
  /** `ValDt`, else the booking date, else the statement's date. */
  value: ParsedInstant;
  /** Not booked yet: status PDNG, or no booking date (and not INFO). */
  pending: boolean;
  accountServicerRef: string | null;
  entryRef: string | null;
  counterpartyName: string;
  remittance: string;
  endToEndId: string | null;
  /** Number of underlying transactions (TxDtls, or Btch/NbOfTxs when no details are given). */
  txCount: number;
  additionalInfo: string | null;
  /**
   * Re-import identity computed by the format's parser (MT940, BAI2: docs/bank-files.md "Re-import identity");
   * absent for camt, whose key the importer derives.
   */
  dedupeKey?: string;
}

/** The three message types and their root / repeated element names. */
export const MESSAGE_ROOTS = {
  "camt.052": { root: "BkToCstmrAcctRpt", item: "Rpt" },
  "camt.053": { root: "BkToCstmrStmt", item: "Stmt" },
  "camt.054": { root: "BkToCstmrDbtCdtNtfctn", item: "Ntfctn" },
} as const;
export type MessageType = keyof typeof MESSAGE_ROOTS;

/** One `Stmt` / `Rpt` / `Ntfctn` with its account. */
export interface ParsedStatement {
  fileName: string;
  messageType: MessageType;
  /** `camt.05N.001.NN` from the namespace, null when the file has none. */
  version: string | null;
  /** `CreDtTm` of the statement (else of the group header); null when neither is given. */
  createdAt: ParsedInstant | null;
  /** Position of the statement in the file (0-based). */
  index: number;
  /** `Stmt/Id`. */
  id: string;
  account: {
    /** IBAN in electronic format, or the `Othr/Id` (MT940 / BAI2: the account number as the file carries it). */
    ref: string;
    refType: "IBAN" | "BBAN" | "OTHER";
    /**
     * The bank code that qualifies a BBAN / OTHER account number (BLZ, ABA routing number, BIC): part of the
     * account's identity (bank_id, external_ref, external_ref_type). Absent for camt.
     */
    bankId?: string | null;
    /** The account as the file writes it (MT940 `:25:`, BAI2 `03` account number); absent for camt. */
    asInFile?: string;
    /** `Acct/Ccy`, else the currency of the first balance or entry; null when none is known. */
    currency: string | null;
    servicerBic: string | null;
    servicerName: string | null;
    name: string | null;
  };
  /** `FrToDt` as inclusive dates; null when the statement has none. */
  period: { from: string; to: string } | null;
  balances: ParsedBalance[];
  entries: ParsedEntry[];
  /** Source stored on transactions and pending entries (MT940 / BAI2: "mt940", "mt942", "bai2"); else messageType. */
  source?: string;
  /** Coverage source of the days a statement covers ("mt940", "bai2"); else "camt.053". */
  coverageSource?: string;
  /** Why the balances do not add up, when the operator accepted the file anyway; its days are flagged partial. */
  inconsistency?: string | null;
}

/** The ISO balance codes that map onto the API's balance types (docs/architecture.md#enumerations). */
export const BALANCE_CODE_TYPES: Readonly<Record<string, BalanceType>> = {
  CLBD: "closing_booked",
  CLAV: "closing_available",
  ITBD: "interim_booked",
  ITAV: "interim_available",
};

const AMOUNT_RE = /^\d+(\.\d*)?$/;
// xs:date may carry a time-zone offset (<Dt>2017-04-01+02:00</Dt>); the date part is the bank's day.
const DATE_RE = /^(\d{4}-\d{2}-\d{2})(Z|[+-]\d{2}:\d{2})?$/;
const DATETIME_RE = /^(\d{4}-\d{2}-\d{2})T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})?$/;
const NAMESPACE_RE = /urn:iso:std:iso:20022:tech:xsd:(camt\.05[234])\.001\.(\d{2})/;
const MIN_VERSION = 2;
const MAX_VERSION = 12;

/** A parsed file: its message type, version and statements (reports, notifications). */
export interface ParsedFile {
  fileName: string;
  messageType: MessageType;
  version: string | null;
  statements: ParsedStatement[];
  /** The detected format when it is not camt: "mt940", "mt942", "bai2" (docs/bank-files.md). */
  format?: string;
  /** The character set the file was read in. */
  charset?: string;
}

/**
 * Parses one camt.053 file (any of the three messages is read; this returns its statements).
 * @throws CamtImportError as `parseStatementFile`
 */
export function parseCamt053(xml: string, fileName: string): ParsedStatement[] {
  return parseStatementFile(xml, fileName).statements;
}

/**
 * Parses one camt.052 / camt.053 / camt.054 file.
 * @param xml the file's text
 * @param fileName used in every error message
 * @returns the message type, version and one `ParsedStatement` per `Rpt` / `Stmt` / `Ntfctn`, in file order
 * @throws CamtImportError when the file is not well-formed XML, is none of the
 *   three messages, has a namespace version outside 001.02–001.12 or of
 *   another message, or an element the import needs is missing or invalid
 *   (amount, currency, credit/debit indicator, date, account id).
 */
export function parseStatementFile(xml: string, fileName: string): ParsedFile {
  // Hostile files are refused before any parser sees them (docs/bank-files.md "Hostile files").
  guardXml(xml, fileName);
  const ctx: Ctx = { fileName, instants: new Map() };
  const { tree, buckets } = readStreamingEntries(ctx, xml);
  const doc = child(tree, "Document");
  const type = messageTypeOf(tree, doc, fileName);
  const { root, item } = MESSAGE_ROOTS[type];
  const rootPath = `Document/${root}`;
  const version = versionOf(xml, doc, type, fileName);
  const rootNode = child(doc, root);
  const headerCreated = instantAt(ctx, child(rootNode, "GrpHdr") ?? {}, "CreDtTm", `${rootPath}/GrpHdr`);
  const items = children(rootNode, item);
  if (items.length === 0) throw new CamtImportError(fileName, `${rootPath}/${item}`, "is missing");
  const streamed = buckets.get(root) ?? [];
  const statements = items.map((stmt, i) =>
    parseStatement(ctx, stmt, `${rootPath}/${item}[${i}]`, i, type, version, headerCreated, streamed[i]),
  );
  return { fileName, messageType: type, version, statements };
}

/**
 * Reads the XML streaming: each Ntry is mapped as soon as it closes and its subtree dropped (docs/bank-files.md
 * "Speed and memory"). The tree keeps the header, statements and balances; the entries are only held as
 * ParsedEntry objects, per message root one bucket per statement (an entry's error is kept for the statement's turn).
 * @throws CamtImportError when the file is not well-formed XML (line and column)
 */
function readStreamingEntries(
  ctx: Ctx,
  xml: string,
): { tree: Record<string, unknown>; buckets: Map<string, EntryBucket[]> } {
  const buckets = new Map<string, EntryBucket[]>();
  const rootsClosed = new Set<string>();
  const read = readXml(xml, {
    detach: (names) => {
      if (names[0] !== "Document" || names.length < 3) return false;
      const root = names[1] as string;
      const item = ITEM_OF_ROOT.get(root);
      if (item === undefined || names[2] !== item) return false;
      if (names.length === 3) {
        // Only the first element of a message root is read (`child(doc, root)`); a repeated one gets no buckets.
        if (!buckets.has(root)) buckets.set(root, []);
        if (!rootsClosed.has(root)) buckets.get(root)?.push({ entries: [], closed: 0, error: null });
        return false;
      }
      return names.length === 4 && names[3] === "Ntry" && !rootsClosed.has(root);
    },
    onDetached: (ntry, names) => {
      const root = names[1] as string;
      const list = buckets.get(root) ?? [];
      const bucket = list[list.length - 1];
      if (bucket === undefined) return;
      const index = bucket.closed;
      bucket.closed += 1;
      if (bucket.error !== null) return;
      const path = `Document/${root}/${ITEM_OF_ROOT.get(root) ?? ""}[${list.length - 1}]/Ntry[${index}]`;
      try {
        bucket.entries.push(parseEntry(ctx, ntry, path, index));
      } catch (e) {
        bucket.error = e;
      }
    },
    onClose: (names) => {
      if (names.length === 2 && names[0] === "Document") rootsClosed.add(names[1] as string);
    },
  });
  if (!read.ok)
    throw new CamtImportError(
      ctx.fileName,
      null,
      `is not well-formed XML (line ${read.line}, column ${read.column}: ${read.message})`,
    );
  return { tree: read.tree, buckets };
}

/**
 * Which of camt.052 / camt.053 / camt.054 the document is, by its message root.
 * @throws CamtImportError naming the root found when it is none of the three
 */
function messageTypeOf(tree: Record<string, unknown>, doc: XmlNode | undefined, fileName: string): MessageType {
  const type = (Object.keys(MESSAGE_ROOTS) as MessageType[]).find(
    (t) => child(doc, MESSAGE_ROOTS[t].root) !== undefined,
  );
  if (type !== undefined) return type;
  const found = Object.keys(tree).filter((k) => !k.startsWith("#"))[0] ?? "nothing";
  const inner =
    doc !== undefined && typeof doc !== "string"
      ? Object.keys(doc).find((k) => !k.startsWith("@_") && k !== "#text")
      : undefined;
  throw new CamtImportError(
    fileName,
    "Document/BkToCstmrStmt",
    `is missing: not a camt.052, camt.053 or camt.054 message (root is ${found}${inner ? `/${inner}` : ""})`,
  );
}

/**
 * The message version from the document's namespace (e.g. camt.053.001.08); null without a namespace.
 * @throws CamtImportError for another message's namespace, a version outside 001.02–001.12, or any other
 *   namespace, naming it (docs/bank-files.md "Hostile files")
 */
function versionOf(xml: string, doc: XmlNode | undefined, type: MessageType, fileName: string): string | null {
  const { root } = MESSAGE_ROOTS[type];
  const ns = NAMESPACE_RE.exec(attrOf(doc, "xmlns") ?? xml.slice(0, 2000));
  if (ns) {
    const n = Number(ns[2]);
    if (ns[1] !== type)
      throw new CamtImportError(
        fileName,
        "Document/@xmlns",
        `is the namespace of ${ns[1]} but the message is ${type} (${root})`,
      );
    if (n < MIN_VERSION || n > MAX_VERSION)
      throw new CamtImportError(
        fileName,
        "Document/@xmlns",
        `has version ${type}.001.${ns[2]}; supported are 001.02 to 001.12`,
      );
    return `${type}.001.${ns[2]}`;
  }
  // Any other namespace is refused, naming it (docs/bank-files.md "Hostile files").
  const other = checkIsoNamespace(documentNamespace(xml), fileName);
  if (other !== null)
    throw new CamtImportError(fileName, "Document/@xmlns", `is the namespace of ${other} but the message is ${type}`);
  return null;
}

interface Ctx {
  fileName: string;
  /**
   * Dates already read in this file, by their text: entries share one ParsedInstant per distinct date (never
   * modified), which keeps a large file's entries smaller and skips re-checking the same date (docs/bank-files.md
   * "Speed and memory").
   */
  instants?: Map<string, ParsedInstant>;
}

/** The item element (statement, report, notification) of each message root. */
const ITEM_OF_ROOT = new Map<string, string>(Object.values(MESSAGE_ROOTS).map((r) => [r.root, r.item]));

/** An entry as mapped when its Ntry closed: its value date is null when only the statement's day can give it. */
type DraftEntry = Omit<ParsedEntry, "value"> & { value: ParsedInstant | null };

/**
 * The entries of one statement, mapped while the file streamed: those before the first entry that failed, and
 * that failure (thrown in the statement's turn, after its own checks, as when the whole tree was read first).
 */
interface EntryBucket {
  entries: DraftEntry[];
  /** Ntry elements closed so far. */
  closed: number;
  error: unknown;
}

function fail(ctx: Ctx, path: string, problem: string): never {
  throw new CamtImportError(ctx.fileName, path, problem);
}

function required(ctx: Ctx, node: unknown, rel: string, path: string): string {
  const value = textAt(node, rel);
  if (value === null) fail(ctx, `${path}/${rel}`, "is missing");
  return value;
}

function parseStatement(
  ctx: Ctx,
  stmt: XmlNode,
  path: string,
  index: number,
  messageType: MessageType,
  version: string | null,
  headerCreated: ParsedInstant | null,
  streamed?: EntryBucket,
): ParsedStatement {
  const id = required(ctx, stmt, "Id", path);
  const createdAt = instantAt(ctx, stmt, "CreDtTm", path) ?? headerCreated;
  const period = parsePeriod(ctx, child(stmt, "FrToDt"), `${path}/FrToDt`);
  // The day an entry without booking and value date is expected: the statement's own day.
  const statementDate = period?.from ?? createdAt?.date ?? null;
  const acct = child(stmt, "Acct");
  if (acct === undefined) fail(ctx, `${path}/Acct`, "is missing");
  const iban = textAt(acct, "Id/IBAN");
  const other = textAt(acct, "Id/Othr/Id");
  if (iban === null && other === null) fail(ctx, `${path}/Acct/Id`, "has neither IBAN nor Othr/Id");
  const acctCcy = textAt(acct, "Ccy");
  if (acctCcy !== null) checkCurrency(ctx, acctCcy, `${path}/Acct/Ccy`);

  const balances = children(stmt, "Bal").map((bal, i) => parseBalance(ctx, bal, `${path}/Bal[${i}]`));
  const bucket: EntryBucket = streamed ?? mapEntries(ctx, children(stmt, "Ntry"), path);
  const entries = finishEntries(ctx, bucket, path, statementDate);
  const bic = textAt(acct, "Svcr/FinInstnId/BICFI") ?? textAt(acct, "Svcr/FinInstnId/BIC");

  return {
    fileName: ctx.fileName,
    messageType,
    version,
    createdAt,
    index,
    id,
    account: {
      ref: iban !== null ? (electronicFormatIBAN(iban) ?? iban) : (other ?? ""),
      refType: iban !== null ? "IBAN" : "OTHER",
      currency: acctCcy ?? balances[0]?.currency ?? entries[0]?.currency ?? null,
      servicerBic: bic ? bic.toUpperCase() : null,
      servicerName: textAt(acct, "Svcr/FinInstnId/Nm"),
      name: textAt(acct, "Nm"),
    },
    period,
    balances,
    entries,
  };
}

function parsePeriod(ctx: Ctx, node: XmlNode | undefined, path: string): { from: string; to: string } | null {
  if (node === undefined) return null;
  const from = instantAt(ctx, node, "FrDtTm", path) ?? instantAt(ctx, node, "FrDt", path);
  const to = instantAt(ctx, node, "ToDtTm", path) ?? instantAt(ctx, node, "ToDt", path);
  if (from === null) fail(ctx, `${path}/FrDtTm`, "is missing");
  if (to === null) fail(ctx, `${path}/ToDtTm`, "is missing");
  // A period written as [D 00:00, D+1 00:00) ends before the day of its end.
  let toDate = to.date;
  if (!to.dateOnly && /T00:00:00(\.0+)?/.test(to.at) && to.date > from.date) toDate = previousDay(to.date);
  if (toDate < from.date) fail(ctx, path, `ends (${to.date}) before it starts (${from.date})`);
  return { from: from.date, to: toDate };
}

function parseBalance(ctx: Ctx, bal: XmlNode, path: string): ParsedBalance {
  const code = textAt(bal, "Tp/CdOrPrtry/Cd") ?? textAt(bal, "Tp/CdOrPrtry/Prtry");
  if (code === null) fail(ctx, `${path}/Tp/CdOrPrtry/Cd`, "is missing");
  const { amount, currency } = readAmount(ctx, bal, path);
  const sign = readCreditDebit(ctx, bal, path);
  const date = readDateChoice(ctx, bal, "Dt", path);
  if (date === null) fail(ctx, `${path}/Dt`, "is missing");
  const negative = sign === "debit" && !new Decimal(amount).isZero();
  return {
    code: code.toUpperCase(),
    amount: negative ? `-${amount}` : amount,
    currency,
    date: date.date,
    at: date.at,
    dateOnly: date.dateOnly,
  };
}

/** Maps Ntry elements already in the tree (a caller that did not stream them) into a bucket. */
function mapEntries(ctx: Ctx, nodes: XmlNode[], path: string): EntryBucket {
  const bucket: EntryBucket = { entries: [], closed: nodes.length, error: null };
  for (const [i, ntry] of nodes.entries()) {
    try {
      bucket.entries.push(parseEntry(ctx, ntry, `${path}/Ntry[${i}]`, i));
    } catch (e) {
      bucket.error = e;
      break;
    }
  }
  return bucket;
}

/**
 * The statement's entries with the statement's day as the value date of those that give neither BookgDt nor ValDt;
 * throws the first entry's problem in entry order (a missing date, or what `parseEntry` refused).
 */
function finishEntries(ctx: Ctx, bucket: EntryBucket, path: string, statementDate: string | null): ParsedEntry[] {
  const fallback =
    statementDate === null ? null : { date: statementDate, at: `${statementDate}T00:00:00Z`, dateOnly: true };
  const entries: ParsedEntry[] = [];
  for (const draft of bucket.entries) {
    const value = draft.value ?? fallback;
    if (value === null)
      fail(
        ctx,
        `${path}/Ntry[${draft.index}]/BookgDt`,
        "is missing, and neither ValDt nor the statement's FrToDt or CreDtTm gives a date",
      );
    draft.value = value;
    entries.push(draft as ParsedEntry);
  }
  if (bucket.error !== null) throw bucket.error;
  return entries;
}

/** Maps one Ntry element; its value date is left null when neither ValDt nor BookgDt gives one (`finishEntries`). */
function parseEntry(ctx: Ctx, ntry: XmlNode, path: string, index: number): DraftEntry {
  const { amount, currency } = readAmount(ctx, ntry, path);
  const direction = readCreditDebit(ctx, ntry, path);
  const booked = readDateChoice(ctx, ntry, "BookgDt", path);
  const valueChoice = readDateChoice(ctx, ntry, "ValDt", path);
  const status = (textAt(ntry, "Sts/Cd") ?? textAt(ntry, "Sts/Prtry") ?? textAt(ntry, "Sts"))?.toUpperCase() ?? null;
  const value = valueChoice ?? booked;
  const details = children(ntry, "NtryDtls");
  const txs = details.flatMap((d) => children(d, "TxDtls"));
  const batchCount = details
    .flatMap((d) => children(d, "Btch"))
    .reduce((n, b) => n + Number(textAt(b, "NbOfTxs") ?? "0"), 0);
  const additionalInfo = clean(textAt(ntry, "AddtlNtryInf"));

  let counterpartyName = "";
  let remittance = "";
  let endToEndId: string | null = null;
  const txCount = Math.max(txs.length, batchCount, 1);
  const single = txs.length === 1 ? txs[0] : undefined;
  if (single !== undefined) {
    counterpartyName = counterparty(single, direction);
    remittance = remittanceOf(single) || textAt(single, "AddtlTxInf") || additionalInfo || "";
    endToEndId = endToEnd(single);
  } else if (txCount > 1) {
    // A batch booking: the bank booked one amount, so it stays one transaction.
    const names = new Set(txs.map((t) => counterparty(t, direction)));
    const only = names.size === 1 ? [...names][0] : undefined;
    counterpartyName = only ?? "";
    remittance = `Batch of ${txCount}${additionalInfo ? `: ${additionalInfo}` : ""}`;
  } else {
    remittance = additionalInfo ?? "";
  }

  return {
    index,
    amount,
    currency,
    direction,
    status,
    booked,
    value,
    pending: status !== "INFO" && (status === "PDNG" || booked === null),
    accountServicerRef: textAt(ntry, "AcctSvcrRef"),
    entryRef: textAt(ntry, "NtryRef"),
    counterpartyName: clean(counterpartyName) ?? "",
    remittance: clean(remittance) ?? "",
    endToEndId,
    txCount,
    additionalInfo,
  };
}

function counterparty(tx: XmlNode, direction: "credit" | "debit"): string {
  // Money came in: the other side is the debtor; money went out: the creditor.
  const role = direction === "credit" ? "Dbtr" : "Cdtr";
  return textAt(tx, `RltdPties/${role}/Nm`) ?? textAt(tx, `RltdPties/${role}/Pty/Nm`) ?? "";
}

function remittanceOf(tx: XmlNode): string {
  const infos = children(tx, "RmtInf");
  const unstructured = infos
    .flatMap((r) => children(r, "Ustrd"))
    .map(textOf)
    .filter(nonEmpty);
  if (unstructured.length > 0) return unstructured.join(" ");
  const strd = infos.flatMap((r) => children(r, "Strd"));
  const refs = strd
    .flatMap((s) => children(s, "CdtrRefInf"))
    .map((c) => textAt(c, "Ref"))
    .filter(nonEmpty);
  if (refs.length > 0) return refs.join(" ");
  return strd
    .flatMap((s) => children(s, "AddtlRmtInf"))
    .map(textOf)
    .filter(nonEmpty)
    .join(" ");
}

function endToEnd(tx: XmlNode): string | null {
  const id = textAt(tx, "Refs/EndToEndId");
  return id === null || id.toUpperCase() === "NOTPROVIDED" ? null : id;
}

/** Collapses the line breaks and indentation that banks leave inside free text. */
function clean(text: string | null): string | null {
  return text === null ? null : text.replace(/\s+/g, " ").trim();
}

function nonEmpty(s: string | null): s is string {
  return s !== null && s !== "";
}

function readAmount(ctx: Ctx, node: XmlNode, path: string): { amount: string; currency: string } {
  const amt = child(node, "Amt");
  const amount = textOf(amt);
  if (amount === null || amount === "") fail(ctx, `${path}/Amt`, "is missing");
  if (!AMOUNT_RE.test(amount)) fail(ctx, `${path}/Amt`, `is not a decimal amount: "${amount}"`);
  const currency = attrOf(amt, "Ccy");
  if (currency === null) fail(ctx, `${path}/Amt/@Ccy`, "is missing");
  checkCurrency(ctx, currency, `${path}/Amt/@Ccy`);
  return { amount, currency };
}

function checkCurrency(ctx: Ctx, code: string, path: string): void {
  if (!/^[A-Z]{3}$/.test(code)) fail(ctx, path, `is not a currency code: "${code}"`);
}

function readCreditDebit(ctx: Ctx, node: XmlNode, path: string): "credit" | "debit" {
  const ind = textAt(node, "CdtDbtInd");
  if (ind === null) fail(ctx, `${path}/CdtDbtInd`, "is missing");
  if (ind === "CRDT") return "credit";
  if (ind === "DBIT") return "debit";
  return fail(ctx, `${path}/CdtDbtInd`, `must be CRDT or DBIT, got "${ind}"`);
}

/** Reads a `<X><Dt>` / `<X><DtTm>` choice; null when `<X>` is absent. */
function readDateChoice(ctx: Ctx, node: XmlNode, name: string, path: string): ParsedInstant | null {
  const choice = child(node, name);
  if (choice === undefined) return null;
  const instant = instantAt(ctx, choice, "Dt", `${path}/${name}`) ?? instantAt(ctx, choice, "DtTm", `${path}/${name}`);
  if (instant === null) fail(ctx, `${path}/${name}`, "has neither Dt nor DtTm");
  return instant;
}

function instantAt(ctx: Ctx, node: XmlNode, name: string, path: string): ParsedInstant | null {
  const raw = textOf(at(node, name));
  if (raw === null) return null;
  const known = ctx.instants?.get(raw);
  if (known !== undefined) return known;
  const instant = readInstant(ctx, raw, name, path);
  ctx.instants?.set(raw, instant);
  return instant;
}

/** `raw` as a date or date-time; fails naming `path/name` when it is neither. */
function readInstant(ctx: Ctx, raw: string, name: string, path: string): ParsedInstant {
  const where = `${path}/${name}`;
  const dateTime = DATETIME_RE.exec(raw);
  // Dt may carry a time in some bank files, and DtTm must: read whichever form is written.
  if (dateTime) {
    const datePart = dateTime[1] ?? "";
    const iso = dateTime[3] ? raw : `${raw}Z`; // ISO 20022 local time without offset: taken as UTC
    if (!isValid(parseISO(datePart)) || !isValid(parseISO(iso))) fail(ctx, where, `is not a valid date-time: "${raw}"`);
    return { date: datePart, at: iso, dateOnly: false };
  }
  const dateOnly = DATE_RE.exec(raw);
  const day = dateOnly?.[1];
  if (day !== undefined && isValid(parseISO(day))) return { date: day, at: `${day}T00:00:00Z`, dateOnly: true };
  return fail(ctx, where, `is not a valid ${name.endsWith("Tm") ? "date-time" : "date"}: "${raw}"`);
}
