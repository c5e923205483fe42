/**
 * One call for every bank file in (docs/bank-files.md "Command line" and "pain.002 status reports"): statements
 * (camt.052/053/054, MT940, MT942, BAI2) and pain.002 status reports, detected per file by content. `POST /statements`
 * and `import-statements` both use it, so the two answer the same way.
 *
 * Files are taken one at a time (docs/bank-files.md "Speed and memory"): a first pass decodes each file only to
 * learn its kind and its place in the order (status reports, then camt.052 / MT942, camt.054, statements) and keeps
 * nothing of it; then, in ONE database transaction, each file in turn is read, parsed, stored and dropped. A
 * malformed or refused file throws inside that transaction, which rolls back: nothing of any file is stored. A dry
 * run does all of that and rolls back.
 */
import type { Db, DbOrTx } from "../db/client";
import { looksLikeBai2 } from "./bai2";
import { parseBankFile } from "./bank-files";
import {
  importFile,
  importingCompany,
  inRolledBackTransaction,
  messageOrder,
  type AccountCache,
  type ImportFileSummary,
  type ImportingCompany,
} from "./camt053-import";
import type { MessageType } from "./camt053-parse";
import { decodeBankFile, looksLikeXml } from "./charset";
import { applyPain002, isPain002, parsePain002, type Pain002Result } from "./pain002";

/** What one file did: a statement file's summary, or a status report's changes. */
export type BankFileResult =
  { kind: "statements"; summary: ImportFileSummary } | { kind: "pain.002"; report: Pain002Result };

/**
 * One file of a call: its bytes, its text, or a function that reads its bytes when the file's turn comes (so that
 * only the file in turn is in memory; it may be called more than once).
 */
export type BankFileContent = string | Uint8Array | (() => Promise<Uint8Array>);

export interface BankFileImportOptions {
  companyId: string;
  /** Each file's bytes (or text, or a reader of its bytes); the format and character set are detected per file. */
  files: { name: string; content: BankFileContent }[];
  /** Import statements whose balances do not add up, flagged partial on coverage, instead of refusing the file. */
  acceptInconsistent?: boolean;
  /** Parse, check and apply in a transaction that is rolled back: nothing is stored, the changes are reported. */
  dryRun?: boolean;
}

/** A file's place in the call: its index in the request, whether it is a status report, its order. */
interface Turn {
  index: number;
  report: boolean;
  order: number;
}

const readContent = async (content: BankFileContent): Promise<string | Uint8Array> =>
  typeof content === "function" ? content() : content;

/** The root elements of the camt messages, as the camt reader maps them (camt053-parse.ts `MESSAGE_ROOTS`). */
const CAMT_ROOT = /<(?:[\w.-]+:)?(BkToCstmrAcctRpt|BkToCstmrDbtCdtNtfctn|BkToCstmrStmt)[\s>/]/;
const CAMT_TYPES: Record<string, MessageType> = {
  BkToCstmrAcctRpt: "camt.052",
  BkToCstmrDbtCdtNtfctn: "camt.054",
  BkToCstmrStmt: "camt.053",
};

/**
 * The message type a file's text will parse as, without keeping its entries: camt by its root element (read in the
 * head), BAI2 always a statement, MT940 / MT942 by parsing it (the MT942 rule looks at every statement of the file)
 * and dropping the result. A file that will not parse sorts with the statements; its error comes in its turn.
 */
function sniffMessageType(text: string, name: string): MessageType {
  if (/^\s*</.test(text)) {
    const root = CAMT_ROOT.exec(text.slice(0, 65_536))?.[1];
    return (root !== undefined ? CAMT_TYPES[root] : undefined) ?? "camt.053";
  }
  if (looksLikeBai2(text)) return "camt.053";
  try {
    return parseBankFile(text, name, { acceptInconsistent: true }).messageType;
  } catch {
    return "camt.053";
  }
}

/**
 * The order the files of a call are applied in: status reports first, then camt.052 / MT942, camt.054, statements,
 * each group in request order. Only one file's text is held at a time; a file that cannot be decoded (not text in its
 * encoding) is refused here, before the transaction, as before.
 */
async function planTurns(files: BankFileImportOptions["files"]): Promise<Turn[]> {
  const turns: Turn[] = [];
  for (const [index, f] of files.entries()) {
    const content = await readContent(f.content);
    const xml = typeof content === "string" || looksLikeXml(content);
    // One file alone needs no order: a statement file is decoded once, in its turn.
    if (files.length === 1 && !xml) return [{ index, report: false, order: 0 }];
    const { text } = decodeBankFile(content, f.name);
    const report = xml && isPain002(text);
    turns.push({
      index,
      report,
      order: report ? -1 : files.length === 1 ? 0 : messageOrder(sniffMessageType(text, f.name)),
    });
  }
  return turns.sort((a, b) => a.order - b.order || a.index - b.index);
}

/**
 * Reads, parses and applies one file in the caller's transaction, then lets go of it: a status report to its batch,
 * a statement file through `importFile`. @throws CamtImportError / HostileXmlError (400) for a malformed, hostile or
 * refused file; ApiError not_found for an unknown company
 */
async function applyTurn(
  tx: DbOrTx,
  opts: BankFileImportOptions,
  turn: Turn,
  state: CallState,
): Promise<BankFileResult> {
  const f = opts.files[turn.index] as BankFileImportOptions["files"][number];
  const content = await readContent(f.content);
  if (turn.report) {
    const report = parsePain002(decodeBankFile(content, f.name).text, f.name);
    return { kind: "pain.002", report: await applyPain002(tx, opts.companyId, report) };
  }
  const parsed = parseBankFile(content, f.name, { acceptInconsistent: opts.acceptInconsistent === true });
  state.company ??= await importingCompany(tx, opts.companyId);
  return { kind: "statements", summary: await importFile(tx, state.company, parsed, state.accounts) };
}

/** What the files of one call share: the company (read at the first statement file) and the accounts resolved. */
interface CallState {
  company?: ImportingCompany;
  accounts: AccountCache;
}

/**
 * Imports statement files and pain.002 status reports for one company, one file at a time in one transaction.
 * @returns one result per file, in the order given; in a dry run, statement `newEntries` are 0 and the pain.002
 *   `changes` are those the report would make
 * @throws CamtImportError / HostileXmlError (400) for a malformed, hostile or refused file (nothing stored);
 *   ApiError not_found for an unknown company
 */
export async function importBankFiles(db: Db, opts: BankFileImportOptions): Promise<BankFileResult[]> {
  const turns = await planTurns(opts.files);
  const apply = async (tx: DbOrTx): Promise<BankFileResult[]> => {
    const results: BankFileResult[] = [];
    const state: CallState = { accounts: new Map() };
    for (const turn of turns) results[turn.index] = await applyTurn(tx, opts, turn, state);
    return results;
  };
  if (opts.dryRun !== true) return db.transaction((tx) => apply(tx));
  const results = await inRolledBackTransaction(db, apply);
  // Everything was checked against the database, then rolled back: nothing is new.
  for (const r of results) if (r.kind === "statements") for (const s of r.summary.statementFigures) s.newEntries = 0;
  return results;
}
