/**
 * The simulated bank's side of the file exchange (docs/bank-channels.md "The simulated bank behind a channel"): it
 * reads the pain.001 payment files it receives and writes its answers — pain.002 status reports, camt.054 debit
 * notifications and end-of-day camt.053 statements — as ISO 20022 XML. Pure: no I/O, no clock.
 *
 * Reading: the hostile-file guard of the import (`guardXml`: no DOCTYPE or entities, bounded nesting and element
 * count) runs first, then the well-formedness check and the tree reader the bank-file import uses (import/xml-tree.ts).
 * Writing: `isoDocument` (contract/iso-xml.ts, fast-xml-parser, which escapes every text); elements in the order of the schemas
 * (pain.002.001.10, camt.054.001.08, camt.053.001.08). Amounts are decimal strings written as given.
 */
import { isoDocument } from "@treasury/contract/iso-xml";
import { ExactDecimal as Decimal } from "@treasury/contract/exact-decimal";
import { CamtImportError } from "../import/camt053-parse";
import { documentNamespace, guardXml } from "../import/xml-guard";
import { child, children, readXml, textAt, textOf, attrOf, at as nodeAt } from "../import/xml-tree";

/** One credit transfer of a received pain.001. */
export interface ReceivedTransfer {
  endToEndId: string;
  /** Decimal string in the payment information's currency. */
  amount: string;
  creditorName: string;
  creditorIban: string | null;
  /** Unstructured remittance (`RmtInf/Ustrd`, joined), else null. */
  remittance: string | null;
  /** Structured creditor reference (`RmtInf/Strd/CdtrRefInf/Ref`), else null. */
  creditorReference: string | null;
}

/** One payment information block (`PmtInf`): a debtor account, an execution date and its transfers. */
export interface ReceivedPaymentInfo {
  paymentInformationId: string;
  /** `ReqdExctnDt` as YYYY-MM-DD. */
  executionDate: string;
  debtorIban: string;
  currency: string;
  transfers: ReceivedTransfer[];
}

/** A parsed pain.001. */
export interface ReceivedPain001 {
  messageId: string;
  /** e.g. pain.001.001.09; null when the file has no namespace. */
  version: string | null;
  payments: ReceivedPaymentInfo[];
}

const PAIN001_NS = /^urn:iso:std:iso:20022:tech:xsd:(pain\.001\.001\.(\d{2}))$/;
const AMOUNT = /^\d{1,18}(\.\d{1,5})?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function fail(fileName: string, path: string | null, problem: string): never {
  throw new CamtImportError(fileName, path, problem);
}

/**
 * Parses a pain.001 Customer Credit Transfer Initiation (versions 001.03–001.09) as the bank receives it.
 * @param xml the file's text; @param fileName named in every error
 * @returns the message id and, per payment information block, the debtor IBAN, currency, execution date and transfers
 * @throws HostileXmlError (DOCTYPE, entities, nesting, element count); CamtImportError naming the element when the
 *   file is not well-formed, not a pain.001, or lacks a message id, payment information id, execution date, debtor
 *   IBAN, end-to-end id, creditor name or a decimal amount with its currency
 */
export function parsePain001(xml: string, fileName: string): ReceivedPain001 {
  guardXml(xml, fileName);
  const ns = documentNamespace(xml);
  let version: string | null = null;
  if (ns !== null && ns.trim() !== "") {
    const m = PAIN001_NS.exec(ns.trim());
    if (!m?.[1] || Number(m[2]) < 3 || Number(m[2]) > 9)
      fail(fileName, "Document/@xmlns", `"${ns.slice(0, 200)}" is not a pain.001.001.03–09 namespace`);
    version = m[1];
  }
  const read = readXml(xml);
  if (!read.ok)
    fail(fileName, null, `is not well-formed XML (line ${read.line}, column ${read.column}: ${read.message})`);
  const rootPath = "Document/CstmrCdtTrfInitn";
  const root = child(child(read.tree, "Document"), "CstmrCdtTrfInitn");
  if (root === undefined) fail(fileName, rootPath, "is missing: not a pain.001 payment file");
  const messageId = textAt(root, "GrpHdr/MsgId");
  if (messageId === null) fail(fileName, `${rootPath}/GrpHdr/MsgId`, "is missing");
  const payments = children(root, "PmtInf").map((p, i): ReceivedPaymentInfo => {
    const path = `${rootPath}/PmtInf[${i}]`;
    const paymentInformationId = textAt(p, "PmtInfId");
    if (paymentInformationId === null) fail(fileName, `${path}/PmtInfId`, "is missing");
    const executionDate = (
      textAt(p, "ReqdExctnDt/Dt") ??
      textAt(p, "ReqdExctnDt/DtTm") ??
      textAt(p, "ReqdExctnDt")
    )?.slice(0, 10);
    if (!executionDate || !DATE.test(executionDate)) fail(fileName, `${path}/ReqdExctnDt`, "is not a date");
    const debtorIban = textAt(p, "DbtrAcct/Id/IBAN")?.replace(/\s+/g, "").toUpperCase() ?? null;
    if (debtorIban === null) fail(fileName, `${path}/DbtrAcct/Id/IBAN`, "is missing");
    let currency = textAt(p, "DbtrAcct/Ccy");
    const transfers = children(p, "CdtTrfTxInf").map((t, j): ReceivedTransfer => {
      const txPath = `${path}/CdtTrfTxInf[${j}]`;
      const endToEndId = textAt(t, "PmtId/EndToEndId");
      if (endToEndId === null) fail(fileName, `${txPath}/PmtId/EndToEndId`, "is missing");
      const amountNode = nodeAt(t, "Amt/InstdAmt");
      const amount = textOf(amountNode);
      if (amount === null || !AMOUNT.test(amount)) fail(fileName, `${txPath}/Amt/InstdAmt`, "is not a decimal amount");
      const ccy = attrOf(amountNode, "Ccy");
      if (ccy === null) fail(fileName, `${txPath}/Amt/InstdAmt/@Ccy`, "is missing");
      if (currency !== null && ccy !== currency)
        fail(fileName, `${txPath}/Amt/InstdAmt/@Ccy`, `is ${ccy}, not the payment information's ${currency}`);
      currency = ccy;
      const creditorName = textAt(t, "Cdtr/Nm");
      if (creditorName === null) fail(fileName, `${txPath}/Cdtr/Nm`, "is missing");
      const ustrd = children(child(t, "RmtInf"), "Ustrd")
        .map(textOf)
        .filter((s): s is string => s !== null && s !== "");
      return {
        endToEndId,
        amount,
        creditorName,
        creditorIban: textAt(t, "CdtrAcct/Id/IBAN"),
        remittance: ustrd.length > 0 ? ustrd.join(" ") : null,
        creditorReference: textAt(t, "RmtInf/Strd/CdtrRefInf/Ref"),
      };
    });
    if (transfers.length === 0) fail(fileName, `${path}/CdtTrfTxInf`, "is missing: no credit transfer");
    if (currency === null) fail(fileName, `${path}/DbtrAcct/Ccy`, "is missing and no amount gives a currency");
    return { paymentInformationId, executionDate, debtorIban, currency, transfers };
  });
  if (payments.length === 0) fail(fileName, `${rootPath}/PmtInf`, "is missing: no payment information");
  return { messageId, version, payments };
}

type Node = Record<string, unknown>;

/** A transfer's status in a pain.002: ACCP (accepted), ACSC (settled) or RJCT with an ISO reason. */
export interface TransferStatus {
  endToEndId: string;
  code: "ACCP" | "ACSC" | "RJCT";
  reason?: string;
  /** The bank's words (`AddtlInf`). */
  info?: string;
}

/** One status level's code: every transfer the same code gives that code, else PART. */
function summaryCode(statuses: TransferStatus[]): string {
  const codes = new Set(statuses.map((s) => s.code));
  return codes.size === 1 ? ([...codes][0] ?? "PART") : "PART";
}

/**
 * A pain.002.001.10 status report answering `original` with one status per transfer (group and payment information
 * statuses: the transfers' common code, else PART).
 * @param messageId the report's own id (at most 35 characters); @param createdAt ISO 8601 with offset
 */
export function buildStatusReport(
  original: ReceivedPain001,
  messageId: string,
  createdAt: string,
  statusOf: (paymentInformationId: string, t: ReceivedTransfer) => TransferStatus,
): string {
  const all: TransferStatus[] = [];
  const payments = original.payments.map((p) => {
    const statuses = p.transfers.map((t) => statusOf(p.paymentInformationId, t));
    all.push(...statuses);
    return {
      OrgnlPmtInfId: p.paymentInformationId,
      PmtInfSts: summaryCode(statuses),
      TxInfAndSts: statuses.map((s, i) => ({
        StsId: `${i + 1}`,
        OrgnlEndToEndId: s.endToEndId,
        TxSts: s.code,
        StsRsnInf: s.reason ? { Rsn: { Cd: s.reason }, AddtlInf: s.info } : undefined,
      })),
    };
  });
  return isoDocument("pain.002.001.10", "CstmrPmtStsRpt", {
    GrpHdr: { MsgId: messageId, CreDtTm: createdAt },
    OrgnlGrpInfAndSts: {
      OrgnlMsgId: original.messageId,
      OrgnlMsgNmId: original.version ?? "pain.001.001.09",
      GrpSts: summaryCode(all),
    },
    OrgnlPmtInfAndSts: payments,
  });
}

/** One booked debit of the bank's ledger. */
export interface BankBooking {
  /** The bank's reference of the booking (`AcctSvcrRef`, at most 35 characters). */
  reference: string;
  endToEndId: string;
  /** Decimal string. */
  amount: string;
  creditorName: string;
  remittance: string | null;
  creditorReference: string | null;
  /** ISO 8601 with offset. */
  bookedAt: string;
}

function bookingEntry(b: BankBooking, currency: string): Node {
  const amount = { "@_Ccy": currency, "#text": b.amount };
  // The payment's remittance information as the payer gave it; without one, the end-to-end id (as the direct
  // simulator books it).
  const remittance = b.creditorReference
    ? { Strd: { CdtrRefInf: { Tp: { CdOrPrtry: { Cd: "SCOR" }, Issr: "ISO" }, Ref: b.creditorReference } } }
    : { Ustrd: b.remittance ?? b.endToEndId };
  return {
    Amt: amount,
    CdtDbtInd: "DBIT",
    Sts: { Cd: "BOOK" },
    BookgDt: { DtTm: b.bookedAt },
    ValDt: { DtTm: b.bookedAt },
    AcctSvcrRef: b.reference,
    BkTxCd: { Domn: { Cd: "PMNT", Fmly: { Cd: "ICDT", SubFmlyCd: "ESCT" } } },
    NtryDtls: {
      TxDtls: {
        Refs: { AcctSvcrRef: b.reference, EndToEndId: b.endToEndId },
        Amt: amount,
        CdtDbtInd: "DBIT",
        RltdPties: { Cdtr: { Pty: { Nm: b.creditorName } } },
        RmtInf: remittance,
      },
    },
  };
}

/** An account as the bank's messages name it. */
export interface BankAccountRef {
  iban: string;
  currency: string;
}

/**
 * A camt.054.001.08 debit notification: one booked entry per payment (its amount, booking date and time, the
 * bank's reference, the end-to-end id, the creditor and the remittance).
 */
export function buildDebitNotification(
  messageId: string,
  createdAt: string,
  account: BankAccountRef,
  bookings: BankBooking[],
): string {
  return isoDocument("camt.054.001.08", "BkToCstmrDbtCdtNtfctn", {
    GrpHdr: { MsgId: messageId, CreDtTm: createdAt },
    Ntfctn: {
      Id: messageId,
      CreDtTm: createdAt,
      Acct: { Id: { IBAN: account.iban }, Ccy: account.currency },
      Ntry: bookings.map((b) => bookingEntry(b, account.currency)),
    },
  });
}

function balance(code: "OPBD" | "CLBD", amount: string, currency: string, date: string): Node {
  const negative = new Decimal(amount).isNegative() && !new Decimal(amount).isZero();
  return {
    Tp: { CdOrPrtry: { Cd: code } },
    Amt: { "@_Ccy": currency, "#text": negative ? new Decimal(amount).abs().toFixed() : new Decimal(amount).toFixed() },
    CdtDbtInd: negative ? "DBIT" : "CRDT",
    Dt: { Dt: date },
  };
}

/**
 * An end-of-day camt.053.001.08 statement of one account for `date`: the opening booked balance, the day's bookings
 * and the closing booked balance (opening minus the bookings).
 * @param opening decimal string, the booked balance at the start of the day (negative: overdrawn)
 */
export function buildEndOfDayStatement(
  messageId: string,
  createdAt: string,
  account: BankAccountRef,
  date: string,
  opening: string,
  bookings: BankBooking[],
): string {
  const closing = bookings.reduce((sum, b) => sum.minus(b.amount), new Decimal(opening)).toFixed();
  return isoDocument("camt.053.001.08", "BkToCstmrStmt", {
    GrpHdr: { MsgId: messageId, CreDtTm: createdAt },
    Stmt: {
      Id: messageId,
      CreDtTm: createdAt,
      FrToDt: { FrDtTm: `${date}T00:00:00+00:00`, ToDtTm: `${date}T23:59:59+00:00` },
      Acct: { Id: { IBAN: account.iban }, Ccy: account.currency },
      Bal: [balance("OPBD", opening, account.currency, date), balance("CLBD", closing, account.currency, date)],
      Ntry: bookings.map((b) => bookingEntry(b, account.currency)),
    },
  });
}
