/**
 * ISO 20022 Customer Credit Transfer Initiation (pain.001) from a payment
 * batch: one group header, one payment information block (the debtor account
 * and the execution date), one credit transfer per instruction. Versions
 * pain.001.001.09 (default) and pain.001.001.03; the element order and
 * lengths follow the official XSDs (`ISO20022_XSD_DIR`, checked in the tests).
 *
 * Pure: no I/O, no clock unless `createdAt` is left out. The result carries
 * `notes` naming every field that was transliterated to the SEPA Latin set or
 * truncated to its schema length, so that the caller can tell the user.
 */
import anyAscii from "any-ascii";
import { isoDocument } from "./iso-xml";
import { ExactDecimal } from "./exact-decimal";

export const PAIN001_VERSIONS = ["pain.001.001.09", "pain.001.001.03"] as const;
export type Pain001Version = (typeof PAIN001_VERSIONS)[number];

/** The batch fields the file needs (a `PaymentBatch` fits). Dates are `YYYY-MM-DD`. */
export interface Pain001Batch {
  id: string;
  currency: string;
  requested_execution_date: string | null;
  created_at: string;
}

/**
 * One credit transfer. `amount` is a decimal string in the batch currency; `creditor_bic` and `remittance` when
 * known.
 */
export interface Pain001Instruction {
  amount: string;
  creditor_name: string;
  creditor_iban: string;
  end_to_end_id: string;
  creditor_bic?: string | null;
  remittance?: string | null;
  /** An ISO 11649 creditor reference, written as structured remittance (`Strd/CdtrRefInf`, type SCOR). */
  creditor_reference?: string | null;
}

/** The account the batch is paid from. `bic` may be absent: the agent is then sent as `NOTPROVIDED`. */
export interface Pain001Debtor {
  name: string;
  iban: string;
  bic?: string | null;
}

export interface Pain001Options {
  /** Default pain.001.001.09. */
  version?: Pain001Version;
  /** CreDtTm; default now. Written as ISO 8601 with offset (UTC, `Z`). */
  createdAt?: Date;
  /** Execution date when the batch has none (`YYYY-MM-DD`); default the UTC date of `createdAt`. */
  fallbackExecutionDate?: string;
  /**
   * `latin` (default): every text restricted to the SEPA Latin character set
   * (EPC guidance, also what Nordic banks' pain.001 guides ask for); `unicode`
   * keeps the text as is (allowed outside SEPA only, so EUR is always `latin`).
   */
  charset?: "latin" | "unicode";
}

/**
 * One thing the file changed on the way: `field` names the instruction (`instructions[3].creditor_name`) or the
 * debtor.
 */
export interface Pain001Note {
  field: string;
  kind: "transliterated" | "truncated" | "agent_not_provided";
  from: string;
  to: string;
}

export interface Pain001Result {
  xml: string;
  version: Pain001Version;
  messageId: string;
  paymentInformationId: string;
  numberOfTransactions: number;
  controlSum: string;
  fileName: string;
  notes: Pain001Note[];
}

/** An input the schema cannot carry (an amount over 18 digits, an empty name); `field` names it. */
export class Pain001Error extends Error {
  readonly code = "pain001_invalid";
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field} ${message}`);
  }
}

/**
 * The exact sum of decimal strings as a plain decimal string with at least
 * `minFractionDigits` fraction digits (no exponent, no float anywhere):
 * `controlSum(["0.1", "0.2"])` is `"0.3"`, two `999999999999999999.99` give `"1999999999999999999.98"`.
 */
export function controlSum(amounts: Iterable<string>, minFractionDigits = 0): string {
  let sum = new ExactDecimal(0);
  let fraction = minFractionDigits;
  for (const a of amounts) {
    sum = sum.plus(new ExactDecimal(a));
    // The written scale of the inputs, trailing zeros included ("0.10" has two), is the scale of the sum.
    fraction = Math.max(fraction, a.split(".")[1]?.length ?? 0);
  }
  return sum.toFixed(fraction);
}

// SEPA Latin set (EPC217-08): a-z A-Z 0-9 / - ? : ( ) . , ' + and space.
const NOT_SEPA = /[^A-Za-z0-9/\-?:().,'+ ]/g;

/**
 * Text in the SEPA Latin set: any-ascii transliterates (ø→o, æ→ae, å→a, ß→ss, Москва→Moskva),
 * what remains outside
 * the set becomes a space.
 */
export function toSepaLatin(s: string): string {
  return anyAscii(s).replace(NOT_SEPA, " ").replace(/\s+/g, " ").trim();
}

const BIC = /^[A-Z0-9]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/;
const BIC_03 = /^[A-Z]{6}[A-Z2-9][A-NP-Z0-9]([A-Z0-9]{3})?$/;
const AMOUNT_DIGITS = 18;

function totalDigits(d: ExactDecimal): number {
  const [int = "", frac = ""] = d.abs().toFixed().split(".");
  return int.replace(/^0+(?=\d)/, "").length + frac.length;
}

/** A 35-character id derived from the batch id (a UUID): stable across downloads of the same batch. */
function batchRef(prefix: string, batchId: string): string {
  return `${prefix}${batchId.replace(/-/g, "")}`.slice(0, 35);
}

/**
 * How one file writes its fields: the version (`v09`), whether texts are restricted to the SEPA Latin set, and the
 * notes of every change made on the way (appended to as fields are written).
 */
interface Pain001Writer {
  v09: boolean;
  latin: boolean;
  notes: Pain001Note[];
}

/**
 * Text for a schema field of at most `max` characters: trimmed, transliterated to the SEPA Latin set when the
 * writer is `latin`, cut to `max` characters; a note for each change.
 * @throws Pain001Error naming `field` when the text is empty after that.
 */
function schemaText(w: Pain001Writer, field: string, value: string, max: number): string {
  let out = value.trim();
  if (w.latin) {
    const t = toSepaLatin(out);
    if (t !== out) w.notes.push({ field, kind: "transliterated", from: out, to: t });
    out = t;
  }
  const chars = Array.from(out);
  if (chars.length > max) {
    const cut = chars.slice(0, max).join("").trimEnd();
    w.notes.push({ field, kind: "truncated", from: out, to: cut });
    out = cut;
  }
  if (out === "") throw new Pain001Error(field, "is empty once restricted to the SEPA Latin character set");
  return out;
}

/**
 * An instructed amount: a positive decimal of at most 18 digits, 5 of them decimals (the schema's
 * `ActiveOrHistoricCurrencyAndAmount`).
 * @throws Pain001Error naming `field` otherwise.
 */
function schemaAmount(field: string, value: string): ExactDecimal {
  let d: ExactDecimal;
  try {
    d = new ExactDecimal(value);
  } catch {
    throw new Pain001Error(field, "is not a decimal number");
  }
  if (!d.isFinite() || d.lte(0)) throw new Pain001Error(field, "must be a positive amount");
  if (totalDigits(d) > AMOUNT_DIGITS || d.decimalPlaces() > 5)
    throw new Pain001Error(field, "has more digits than pain.001 allows (18, of them 5 decimals)");
  return d;
}

/**
 * A financial institution element for `bic` when it is a valid BIC of the version (`BICFI` in .09, `BIC` in .03).
 * Without one: the debtor's agent (`field` `debtor.bic`) is sent as `NOTPROVIDED` with a note; a creditor's agent
 * is left out (undefined).
 */
function agentOf(w: Pain001Writer, field: string, bic: string | null | undefined) {
  const b = bic?.trim().toUpperCase();
  if (b && (w.v09 ? BIC : BIC_03).test(b)) return { FinInstnId: w.v09 ? { BICFI: b } : { BIC: b } };
  if (field === "debtor.bic") w.notes.push({ field, kind: "agent_not_provided", from: bic ?? "", to: "NOTPROVIDED" });
  return field === "debtor.bic" ? { FinInstnId: { Othr: { Id: "NOTPROVIDED" } } } : undefined;
}

/**
 * The `CdtTrfTxInf` element of instruction `i` in `currency`, in the XSD's element order, and its amount as
 * written (with the scale it came with: "10.50" stays "10.50"). A creditor reference is written as structured
 * remittance (SCOR), else a remittance text as unstructured.
 * @throws Pain001Error naming the instruction's field on a bad amount or an empty required text.
 */
function creditTransfer(w: Pain001Writer, ins: Pain001Instruction, i: number, currency: string) {
  const at = `instructions[${i}]`;
  const amt = schemaAmount(`${at}.amount`, ins.amount);
  // Written with the scale it came with ("10.50" stays "10.50").
  const written = amt.toFixed(ins.amount.trim().split(".")[1]?.length ?? 0);
  const cdtrAgt = agentOf(w, `${at}.creditor_bic`, ins.creditor_bic);
  const remittance = ins.remittance?.trim() ? schemaText(w, `${at}.remittance`, ins.remittance, 140) : undefined;
  const creditorRef = ins.creditor_reference?.trim()
    ? schemaText(w, `${at}.creditor_reference`, ins.creditor_reference.replace(/\s+/g, "").toUpperCase(), 35)
    : undefined;
  const element = {
    PmtId: { EndToEndId: schemaText(w, `${at}.end_to_end_id`, ins.end_to_end_id, 35) },
    Amt: { InstdAmt: { "@_Ccy": currency, "#text": written } },
    ...(cdtrAgt ? { CdtrAgt: cdtrAgt } : {}),
    Cdtr: { Nm: schemaText(w, `${at}.creditor_name`, ins.creditor_name, 140) },
    CdtrAcct: { Id: { IBAN: ins.creditor_iban.replace(/\s+/g, "").toUpperCase() } },
    ...(creditorRef
      ? {
          RmtInf: {
            Strd: { CdtrRefInf: { Tp: { CdOrPrtry: { Cd: "SCOR" }, Issr: "ISO" }, Ref: creditorRef } },
          },
        }
      : remittance
        ? { RmtInf: { Ustrd: remittance } }
        : {}),
  };
  return { element, written };
}

/**
 * Builds the pain.001 document for `batch` paid from `debtor`.
 * @throws Pain001Error when there is no instruction, an amount is not a positive decimal of at most 18 digits
 *   (the schema's `totalDigits`), or a required text is empty after transliteration.
 */
export function buildPain001(
  batch: Pain001Batch,
  instructions: readonly Pain001Instruction[],
  debtor: Pain001Debtor,
  options: Pain001Options = {},
): Pain001Result {
  const version = options.version ?? "pain.001.001.09";
  const v09 = version === "pain.001.001.09";
  const createdAt = options.createdAt ?? new Date();
  const w: Pain001Writer = { v09, latin: options.charset !== "unicode" || batch.currency === "EUR", notes: [] };
  if (instructions.length === 0) throw new Pain001Error("instructions", "must hold at least one instruction");

  const amounts: string[] = [];
  const transactions = instructions.map((ins, i) => {
    const { element, written } = creditTransfer(w, ins, i, batch.currency);
    amounts.push(written);
    return element;
  });

  const sum = controlSum(amounts);
  if (totalDigits(new ExactDecimal(sum)) > AMOUNT_DIGITS)
    throw new Pain001Error("control_sum", "has more than 18 digits; split the batch");
  const count = String(instructions.length);
  const messageId = batchRef("TD", batch.id);
  const paymentInformationId = batchRef("TDP", batch.id);
  const executionDate =
    batch.requested_execution_date ?? options.fallbackExecutionDate ?? createdAt.toISOString().slice(0, 10);
  const debtorName = schemaText(w, "debtor.name", debtor.name, 140);

  const paymentInformation = {
    PmtInfId: paymentInformationId,
    PmtMtd: "TRF",
    BtchBookg: "true",
    NbOfTxs: count,
    CtrlSum: sum,
    // SEPA credit transfer service level where the scheme applies; other currencies go as the bank's default.
    ...(batch.currency === "EUR" ? { PmtTpInf: { SvcLvl: { Cd: "SEPA" } } } : {}),
    ReqdExctnDt: v09 ? { Dt: executionDate } : executionDate,
    Dbtr: { Nm: debtorName },
    DbtrAcct: { Id: { IBAN: debtor.iban.replace(/\s+/g, "").toUpperCase() }, Ccy: batch.currency },
    DbtrAgt: agentOf(w, "debtor.bic", debtor.bic),
    ChrgBr: "SLEV",
    CdtTrfTxInf: transactions,
  };
  const xml = isoDocument(version, "CstmrCdtTrfInitn", {
    GrpHdr: {
      MsgId: messageId,
      CreDtTm: createdAt.toISOString(),
      NbOfTxs: count,
      CtrlSum: sum,
      InitgPty: { Nm: debtorName },
    },
    PmtInf: paymentInformation,
  });
  return {
    xml,
    version,
    messageId,
    paymentInformationId,
    numberOfTransactions: instructions.length,
    controlSum: sum,
    fileName: `${version}_${batch.id}.xml`,
    notes: w.notes,
  };
}
