/**
 * Writes ISO 20022 bank-to-customer messages for tests: `buildCamt053(doc)`
 * turns plain objects into a camt.053.001.02 or camt.053.001.08 document
 * (BankToCustomerStatement) that validates against the published XSD of that
 * version; with `doc.message` "camt.052" it writes a BankToCustomerAccountReport
 * (`BkToCstmrAcctRpt/Rpt`), with "camt.054" a BankToCustomerDebitCreditNotification
 * (`BkToCstmrDbtCdtNtfctn/Ntfctn`, which has no balances). `buildCamt` is the same function. The XML is written by
 * `isoDocument` (contract/iso-xml.ts: fast-xml-parser's XMLBuilder), which escapes
 * every text and attribute value, and elements come in the order the schema
 * requires.
 *
 * Where the two versions differ, the builder writes each version's form:
 * the servicer's `BIC` (.02) or `BICFI` (.08), a party's `Nm` (.02) or
 * `Pty/Nm` (.08), an entry status as text (.02) or `Sts/Cd` (.08), a
 * transaction amount in `AmtDtls/TxAmt/Amt` (.02) or `Amt` + `CdtDbtInd` (.08).
 *
 * Amounts are decimal strings, written as given; a balance amount may carry a
 * leading minus, which becomes the amount without it and `CdtDbtInd` DBIT.
 * A date `YYYY-MM-DD` is written as `Dt`, anything longer as `DtTm`.
 */
import { isoDocument } from "@treasury/contract/iso-xml";

/** The two versions the builder writes: the oldest common one and the current one. */
export type CamtVersion = "02" | "08";

/** One underlying transaction of an entry (`NtryDtls/TxDtls`). */
export interface CamtTx {
  endToEndId?: string;
  /** The transaction's own amount (in a batch, its share); written in the entry's currency. */
  amount?: string;
  /** The other side: the debtor of a credit, the creditor of a debit. */
  counterparty?: string;
  /** Unstructured remittance lines (`RmtInf/Ustrd`). */
  remittance?: string[];
  /** Structured creditor reference (`RmtInf/Strd/CdtrRefInf/Ref`), e.g. a KID or RF reference. */
  creditorRef?: string;
  additionalInfo?: string;
}

/** One booking (`Ntry`). */
export interface CamtEntry {
  amount: string;
  currency: string;
  direction: "credit" | "debit";
  /** `Sts` (BOOK when omitted). */
  status?: "BOOK" | "PDNG" | "INFO";
  /** `RvslInd` true: the entry reverses an earlier one (its `direction` is the reversal's own). */
  reversal?: boolean;
  /** Booking date `YYYY-MM-DD` or date-time; omitted: no `BookgDt`. */
  booked?: string;
  value?: string;
  entryRef?: string;
  servicerRef?: string;
  /** `NtryDtls/Btch/NbOfTxs`: the number of transactions of a batch booking. */
  batchCount?: number;
  txs?: CamtTx[];
  /** `AddtlNtryInf`. */
  additionalInfo?: string;
}

/** One `Bal`: `amount` is signed (negative = DBIT). */
export interface CamtBalance {
  /** An ISO code, or with `proprietary` a bank's own code (`Tp/CdOrPrtry/Prtry`). */
  code: "OPBD" | "PRCD" | "CLBD" | "CLAV" | "ITBD" | "ITAV" | "FWAV" | "OPAV" | "INFO" | "XPCD" | (string & {});
  proprietary?: boolean;
  amount: string;
  currency: string;
  date: string;
}

/** The account of a statement: an IBAN or another identification. */
export interface CamtAccount {
  iban?: string;
  otherId?: string;
  /** `Acct/Ccy`; omitted, the parser takes the currency of the first balance. */
  currency?: string;
  name?: string;
  servicerBic?: string;
  servicerName?: string;
}

/** One `Stmt`. */
export interface CamtStatement {
  id: string;
  createdAt: string;
  /** `FrToDt`, as two date-times. */
  period?: { from: string; to: string };
  account: CamtAccount;
  /** The schema asks for at least one balance. */
  balances: CamtBalance[];
  entries: CamtEntry[];
}

/** The three messages the builder writes. */
export type CamtMessage = "camt.052" | "camt.053" | "camt.054";

const ROOTS: Record<CamtMessage, { root: string; item: string }> = {
  "camt.052": { root: "BkToCstmrAcctRpt", item: "Rpt" },
  "camt.053": { root: "BkToCstmrStmt", item: "Stmt" },
  "camt.054": { root: "BkToCstmrDbtCdtNtfctn", item: "Ntfctn" },
};

/** One file (`Document/BkToCstmrStmt`, `/BkToCstmrAcctRpt`, `/BkToCstmrDbtCdtNtfctn`). */
export interface CamtDocument {
  /** camt.053 when omitted. */
  message?: CamtMessage;
  version: CamtVersion;
  messageId: string;
  createdAt: string;
  statements: CamtStatement[];
}

type Node = Record<string, unknown>;

/**
 * A document whose statements were all created with the message: `head` (version, message id, `createdAt` as an
 * ISO date-time, the message kind, camt.053 when omitted) and `statements` without their own `createdAt`, each given
 * the message's.
 */
export function camtDocument(
  head: Omit<CamtDocument, "statements">,
  statements: Omit<CamtStatement, "createdAt">[],
): CamtDocument {
  return { ...head, statements: statements.map((s) => ({ ...s, createdAt: head.createdAt })) };
}

/**
 * The camt.053 document for `doc`, as XML text with a declaration.
 * @throws Error when a statement has no account identification or no balance
 *   (the document would not be a camt.053 statement at all)
 */
export function buildCamt053(doc: CamtDocument): string {
  const v = doc.version;
  const message = doc.message ?? "camt.053";
  const { root, item } = ROOTS[message];
  return isoDocument(
    `${message}.001.${v}`,
    root,
    {
      GrpHdr: { MsgId: doc.messageId, CreDtTm: doc.createdAt },
      [item]: doc.statements.map((s) => statement(v, message, s)),
    },
    { "@_xmlns:xsi": "http://www.w3.org/2001/XMLSchema-instance" },
  );
}

/** `buildCamt053` under a name that fits all three messages. */
export const buildCamt = buildCamt053;

function statement(v: CamtVersion, message: CamtMessage, s: CamtStatement): Node {
  if (!s.account.iban && !s.account.otherId)
    throw new Error(`statement ${s.id}: the account needs an IBAN or another id`);
  if (message === "camt.053" && s.balances.length === 0)
    throw new Error(`statement ${s.id}: camt.053 needs at least one balance`);
  if (message === "camt.054" && s.balances.length > 0)
    throw new Error(`notification ${s.id}: camt.054 has no balances`);
  return {
    Id: s.id,
    CreDtTm: s.createdAt,
    FrToDt: s.period ? { FrDtTm: s.period.from, ToDtTm: s.period.to } : undefined,
    Acct: account(v, s.account),
    Bal: s.balances.map(balance),
    Ntry: s.entries.map((e) => entry(v, e)),
  };
}

function account(v: CamtVersion, a: CamtAccount): Node {
  const bic = a.servicerBic ? { [v === "02" ? "BIC" : "BICFI"]: a.servicerBic } : {};
  const servicer = a.servicerBic || a.servicerName ? { FinInstnId: { ...bic, Nm: a.servicerName } } : undefined;
  return {
    Id: a.iban ? { IBAN: a.iban } : { Othr: { Id: a.otherId } },
    Ccy: a.currency,
    Nm: a.name,
    Svcr: servicer,
  };
}

function balance(b: CamtBalance): Node {
  const negative = b.amount.startsWith("-");
  return {
    Tp: { CdOrPrtry: b.proprietary ? { Prtry: b.code } : { Cd: b.code } },
    Amt: amount(negative ? b.amount.slice(1) : b.amount, b.currency),
    CdtDbtInd: negative ? "DBIT" : "CRDT",
    Dt: dateChoice(b.date),
  };
}

function entry(v: CamtVersion, e: CamtEntry): Node {
  const status = e.status ?? "BOOK";
  const txs = e.txs ?? [];
  const details =
    e.batchCount !== undefined || txs.length > 0
      ? {
          Btch: e.batchCount !== undefined ? { NbOfTxs: String(e.batchCount) } : undefined,
          TxDtls: txs.map((t) => tx(v, e, t)),
        }
      : undefined;
  return {
    NtryRef: e.entryRef,
    Amt: amount(e.amount, e.currency),
    CdtDbtInd: indicator(e.direction),
    RvslInd: e.reversal ? "true" : undefined,
    Sts: v === "02" ? status : { Cd: status },
    BookgDt: e.booked ? dateChoice(e.booked) : undefined,
    ValDt: e.value ? dateChoice(e.value) : undefined,
    AcctSvcrRef: e.servicerRef,
    BkTxCd: bankTransactionCode(e),
    NtryDtls: details,
    AddtlNtryInf: e.additionalInfo,
  };
}

function tx(v: CamtVersion, e: CamtEntry, t: CamtTx): Node {
  // The other side is the debtor of money coming in, the creditor of money going out (a reversal included).
  const role = e.direction === "credit" ? "Dbtr" : "Cdtr";
  const party =
    t.counterparty === undefined ? undefined : v === "02" ? { Nm: t.counterparty } : { Pty: { Nm: t.counterparty } };
  const ownAmount =
    t.amount === undefined
      ? {}
      : v === "02"
        ? { AmtDtls: { TxAmt: { Amt: amount(t.amount, e.currency) } } }
        : { Amt: amount(t.amount, e.currency), CdtDbtInd: indicator(e.direction) };
  const remittance =
    t.remittance || t.creditorRef
      ? { Ustrd: t.remittance, Strd: t.creditorRef ? { CdtrRefInf: { Ref: t.creditorRef } } : undefined }
      : undefined;
  return {
    Refs: t.endToEndId ? { EndToEndId: t.endToEndId } : undefined,
    ...ownAmount,
    RltdPties: party ? { [role]: party } : undefined,
    RmtInf: remittance,
    AddtlTxInf: t.additionalInfo,
  };
}

/** ISO bank transaction code: SEPA credit transfer received / issued, or a reversal (return) of one. */
function bankTransactionCode(e: CamtEntry): Node {
  const family = e.direction === "credit" ? "RCDT" : "ICDT";
  return { Domn: { Cd: "PMNT", Fmly: { Cd: family, SubFmlyCd: e.reversal ? "RRTN" : "ESCT" } } };
}

function amount(value: string, currency: string): Node {
  return { "@_Ccy": currency, "#text": value };
}

function indicator(direction: "credit" | "debit"): "CRDT" | "DBIT" {
  return direction === "credit" ? "CRDT" : "DBIT";
}

function dateChoice(value: string): Node {
  return value.length === 10 ? { Dt: value } : { DtTm: value };
}

/**
 * Three daily camt.053 statements (version 08) of `iban` ending on `last` (`YYYY-MM-DD`): each day a closing booked
 * balance 10.00 above its opening one and one 10.00 credit, so that the account's statement schedule is learned as
 * daily (docs/bank-files.md "Missing statements"). Amounts are decimal strings in `currency` (default CHF).
 */
export function buildDailyCamt053(iban: string, last: string, currency = "CHF"): string {
  const day = (n: number) => new Date(Date.parse(`${last}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
  const days = [day(-2), day(-1), last];
  return buildCamt053({
    version: "08",
    messageId: `MISSING-${iban}-${last}`,
    createdAt: `${last}T18:00:00+00:00`,
    statements: days.map((d, i) => ({
      id: `STMT-${iban}-${d}`,
      createdAt: `${d}T18:00:00+00:00`,
      account: { iban, currency, servicerBic: "UBSWCHZH80A" },
      balances: [
        { code: "OPBD", amount: `${1000 + i * 10}.00`, currency, date: d },
        { code: "CLBD", amount: `${1010 + i * 10}.00`, currency, date: d },
      ],
      entries: [
        {
          amount: "10.00",
          currency,
          direction: "credit" as const,
          booked: d,
          value: d,
          servicerRef: `REF-${iban}-${d}`,
        },
      ],
    })),
  });
}
