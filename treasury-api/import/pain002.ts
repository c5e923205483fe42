/**
 * pain.002 Customer Payment Status Report (versions 001.03–001.12; 001.03 and 001.10 are the ones banks send):
 * the bank's answer to a pain.001 payment file. Implements docs/bank-files.md "pain.002 status reports".
 *
 * Matching: `OrgnlGrpInfAndSts/OrgnlMsgId` is the pain.001 message id, which names our batch (`TD` + the batch id
 * without dashes, lib/iso20022/pain001.ts); `OrgnlPmtInfAndSts/OrgnlPmtInfId` (`TDP` + the id) names it as well and
 * must agree; `TxInfAndSts/OrgnlEndToEndId` (or `OrgnlInstrId` when it is our instruction id) names the
 * instruction within the batch. A batch of another company reads exactly like an unknown one.
 *
 * Status codes (most specific wins: transaction, then payment information, then group):
 * - ACSC, ACCC: settled (a pending instruction passes through accepted: two status events);
 * - ACCP, ACTC, ACSP, ACWC, ACWP, ACFC, PDNG: intermediate (pending → accepted);
 * - RJCT: rejected, with the ISO reason code (`StsRsnInf/Rsn/Cd`) and its text (lib/contract/status-reasons.ts)
 *   plus the bank's `AddtlInf`; a group or payment-information RJCT rejects every instruction it covers;
 * - RCVD and PART at group / payment-information level say nothing about the instructions they do not list.
 * A settled instruction the bank reports rejected (or the reverse) is not changed: it is listed in `ignored`.
 *
 * Every change is a payment status event and a `payment.status.updated` webhook (applyStatusChanges); the batch
 * follows its instructions (approved → processing at the first change; completed / partially_completed / failed
 * once every instruction is final); proposed reconciliation matches of a rejected instruction are rejected (a
 * rejected payment is never proposed). Importing the same report again changes nothing (each step only moves an
 * instruction forward, under a row lock on the batch; one status event per instruction and status).
 */
import { and, asc, eq, inArray } from "drizzle-orm";
import type { InstructionStatus } from "@treasury/contract/payments";
import { statusReasonText } from "@treasury/contract/status-reasons";
import type { Db, DbOrTx } from "../db/client";
import { applyStatusChanges, type InstructionRow, type StatusChange } from "../db/repos/payments";
import { paymentBatches, paymentInstructions, reconciliationMatches } from "../db/schema";
import { toMatch } from "../domain/matching";
import { BATCH_MACHINE, settledBatchStatus, transition } from "../domain/payment-states";
import { enqueueRowEvents } from "../webhooks/outbox";
import { CamtImportError } from "./camt053-parse";
import { checkIsoNamespace, documentNamespace, guardXml } from "./xml-guard";
import { child, children, readXml, textAt, textOf, type XmlNode } from "./xml-tree";

/** The root element of a pain.002 document (`Document/CstmrPmtStsRpt`). */
export const PAIN002_ROOT = "CstmrPmtStsRpt";

/** What an ISO transaction / group status code does to an instruction. */
export type BankStatusKind = "settle" | "intermediate" | "reject" | "none";

/** ISO 20022 ExternalPaymentTransactionStatus / group status codes the import understands. */
export const PAIN002_STATUS_KINDS: Readonly<Record<string, BankStatusKind>> = {
  ACSC: "settle",
  ACCC: "settle",
  ACCP: "intermediate",
  ACTC: "intermediate",
  ACSP: "intermediate",
  ACWC: "intermediate",
  ACWP: "intermediate",
  ACFC: "intermediate",
  PDNG: "intermediate",
  RJCT: "reject",
  RCVD: "none",
  PART: "none",
};

/** A status with its reason, as one level of the report gives it. */
export interface ParsedBankStatus {
  /** ISO status code, e.g. RJCT. */
  code: string;
  /** ISO reason code (or the proprietary one), null when none. */
  reasonCode: string | null;
  /** The bank's `AddtlInf`, joined; null when none. */
  additionalInfo: string | null;
  /** Element path of the status, for messages. */
  path: string;
}

/** One `TxInfAndSts`. */
export interface ParsedTxStatus {
  endToEndId: string | null;
  instructionId: string | null;
  status: ParsedBankStatus | null;
  path: string;
}

/** One `OrgnlPmtInfAndSts`. */
export interface ParsedPaymentInfoStatus {
  paymentInformationId: string;
  status: ParsedBankStatus | null;
  transactions: ParsedTxStatus[];
  path: string;
}

/** A parsed pain.002 file. Pure data: no database. */
export interface ParsedPain002 {
  fileName: string;
  /** e.g. pain.002.001.10; null when the file has no namespace. */
  version: string | null;
  /** The report's own `GrpHdr/MsgId`. */
  messageId: string;
  /** `OrgnlGrpInfAndSts/OrgnlMsgId`: the pain.001 message id. */
  originalMessageId: string;
  groupStatus: ParsedBankStatus | null;
  payments: ParsedPaymentInfoStatus[];
}

/** One instruction status change made (or, in a dry run, that would be made). */
export interface Pain002Change {
  end_to_end_id: string;
  instruction_id: string;
  from: InstructionStatus;
  to: InstructionStatus;
  /** ISO reason code (RJCT), else null. */
  reason_code: string | null;
  reason_text: string | null;
}

/** A bank status that was not applied because the instruction is already final the other way. */
export interface Pain002Ignored {
  end_to_end_id: string;
  instruction_id: string;
  status: InstructionStatus;
  bank_status: string;
  reason_code: string | null;
}

/** What one pain.002 file did: the shape the command line lists and `POST /statements` returns. */
export interface Pain002Result {
  file: string;
  version: string | null;
  /** The report's own message id. */
  message_id: string;
  /** The pain.001 message id it answers. */
  original_message_id: string;
  batch_id: string;
  /** The batch status before and after. */
  batch_status_from: string;
  batch_status_to: string;
  changes: Pain002Change[];
  ignored: Pain002Ignored[];
}

const GROUP_PATH = `Document/${PAIN002_ROOT}`;

/** True when the text is a pain.002 document (by content: root element or namespace, never by file name). */
export function isPain002(xml: string): boolean {
  const ns = documentNamespace(xml);
  if (ns !== null) return /:pain\.002\.\d{3}\.\d{2}$/.test(ns.trim());
  return /<(?:[\w.-]+:)?CstmrPmtStsRpt[\s>]/.test(xml.slice(0, 65_536));
}

function fail(fileName: string, path: string | null, problem: string): never {
  throw new CamtImportError(fileName, path, problem);
}

function readStatus(
  fileName: string,
  node: XmlNode | undefined,
  statusName: string,
  path: string,
): ParsedBankStatus | null {
  const code = textAt(node, statusName)?.toUpperCase() ?? null;
  if (code === null) return null;
  const at = `${path}/${statusName}`;
  if (!(code in PAIN002_STATUS_KINDS))
    fail(
      fileName,
      at,
      `is "${code}", not a status this import knows (${Object.keys(PAIN002_STATUS_KINDS).join(", ")})`,
    );
  const reasons = children(node, "StsRsnInf");
  const reasonCode = reasons.map((r) => textAt(r, "Rsn/Cd") ?? textAt(r, "Rsn/Prtry")).find((c) => c !== null) ?? null;
  const info = reasons
    .flatMap((r) => children(r, "AddtlInf"))
    .map(textOf)
    .filter((t): t is string => t !== null && t !== "")
    .join(" ");
  return { code, reasonCode: reasonCode?.toUpperCase() ?? null, additionalInfo: info || null, path: at };
}

/**
 * Parses one pain.002 file (hostile-file guard first).
 * @param xml the file's text; @param fileName named in every error
 * @throws HostileXmlError (400) for a DOCTYPE, entity, excessive nesting or element count, or a namespace that is
 *   not a supported ISO 20022 message; CamtImportError (400, `details.path`) when the XML is not well-formed, is
 *   not a pain.002, or lacks `GrpHdr/MsgId`, `OrgnlMsgId`, an `OrgnlPmtInfId`, an `OrgnlEndToEndId`, or carries a
 *   status code outside PAIN002_STATUS_KINDS
 */
export function parsePain002(xml: string, fileName: string): ParsedPain002 {
  guardXml(xml, fileName);
  const version = checkIsoNamespace(documentNamespace(xml), fileName);
  if (version !== null && !version.startsWith("pain.002."))
    fail(fileName, "Document/@xmlns", `is the namespace of ${version}, not of a pain.002 status report`);
  const read = readXml(xml);
  if (!read.ok)
    fail(fileName, null, `is not well-formed XML (line ${read.line}, column ${read.column}: ${read.message})`);
  const root = child(child(read.tree, "Document"), PAIN002_ROOT);
  if (root === undefined) fail(fileName, GROUP_PATH, "is missing: not a pain.002 status report");
  const messageId = textAt(root, "GrpHdr/MsgId");
  if (messageId === null) fail(fileName, `${GROUP_PATH}/GrpHdr/MsgId`, "is missing");
  const group = child(root, "OrgnlGrpInfAndSts");
  const groupPath = `${GROUP_PATH}/OrgnlGrpInfAndSts`;
  if (group === undefined) fail(fileName, groupPath, "is missing");
  const originalMessageId = textAt(group, "OrgnlMsgId");
  if (originalMessageId === null) fail(fileName, `${groupPath}/OrgnlMsgId`, "is missing");
  const groupStatus = readStatus(fileName, group, "GrpSts", groupPath);
  const payments = children(root, "OrgnlPmtInfAndSts").map((p, i): ParsedPaymentInfoStatus => {
    const path = `${GROUP_PATH}/OrgnlPmtInfAndSts[${i}]`;
    const paymentInformationId = textAt(p, "OrgnlPmtInfId");
    if (paymentInformationId === null) fail(fileName, `${path}/OrgnlPmtInfId`, "is missing");
    return {
      paymentInformationId,
      status: readStatus(fileName, p, "PmtInfSts", path),
      path,
      transactions: children(p, "TxInfAndSts").map((t, j): ParsedTxStatus => {
        const txPath = `${path}/TxInfAndSts[${j}]`;
        const endToEndId = textAt(t, "OrgnlEndToEndId");
        const instructionId = textAt(t, "OrgnlInstrId");
        if (endToEndId === null && instructionId === null)
          fail(fileName, `${txPath}/OrgnlEndToEndId`, "is missing (and no OrgnlInstrId names the instruction)");
        return { endToEndId, instructionId, status: readStatus(fileName, t, "TxSts", txPath), path: txPath };
      }),
    };
  });
  if (groupStatus === null && payments.every((p) => p.status === null && p.transactions.every((t) => !t.status)))
    fail(fileName, `${groupPath}/GrpSts`, "is missing and no payment or transaction carries a status");
  return { fileName, version, messageId, originalMessageId, groupStatus, payments };
}

/** The batch id a pain.001 message / payment information id names (`TD…` / `TDP…`), or null. */
export function batchIdFromReference(ref: string, prefix: "TD" | "TDP"): string | null {
  const m = new RegExp(`^${prefix}([0-9a-f]{32})$`, "i").exec(ref.trim());
  if (!m?.[1]) return null;
  const h = m[1].toLowerCase();
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

const FINAL: readonly string[] = ["settled", "rejected", "cancelled"];

/** The steps that take an instruction from `current` towards what the bank said; [] = nothing to do. */
function stepsFor(current: string, kind: BankStatusKind): InstructionStatus[] | "conflict" {
  if (kind === "none" || current === "cancelled") return [];
  if (kind === "intermediate") return current === "pending" ? ["accepted"] : [];
  if (kind === "settle") {
    if (current === "pending") return ["accepted", "settled"];
    if (current === "accepted") return ["settled"];
    return current === "settled" ? [] : "conflict";
  }
  // reject: the bank may refuse before or after accepting (validation or settlement stage).
  if (current === "pending" || current === "accepted") return ["rejected"];
  return current === "rejected" ? [] : "conflict";
}

export interface ApplyPain002Options {
  /** Compute the changes without writing anything. */
  dryRun?: boolean;
  /** The instant of the status events (default now). */
  now?: Date;
}

/**
 * Applies one parsed pain.002 to the company's batch inside `tx` (the caller owns the transaction).
 * @returns the changes made (or that would be made in a dry run) and the statuses ignored
 * @throws CamtImportError (400) naming the element when the original message id / payment information id names no
 *   batch of this company (the same answer for another company's batch as for an unknown one), names two batches,
 *   the batch was never sent (status created / pending_approval / rejected), or an end-to-end id is not in it
 */
export async function applyPain002(
  tx: DbOrTx,
  companyId: string,
  report: ParsedPain002,
  opts: ApplyPain002Options = {},
): Promise<Pain002Result> {
  const batch = await reportedBatch(tx, companyId, report);
  const rows = await tx
    .select()
    .from(paymentInstructions)
    .where(eq(paymentInstructions.batchId, batch.id))
    .orderBy(asc(paymentInstructions.position));
  const plan = planChanges(rows, verdicts(report, rows));
  const { changes, ignored, first, second } = plan;
  const batchStatus = batchStatusAfter(batch.status, rows, changes);
  const result: Pain002Result = {
    file: report.fileName,
    version: report.version,
    message_id: report.messageId,
    original_message_id: report.originalMessageId,
    batch_id: batch.id,
    batch_status_from: batch.status,
    batch_status_to: batchStatus,
    changes,
    ignored,
  };
  if (opts.dryRun || changes.length === 0) return result;

  const now = (opts.now ?? new Date()).getTime();
  // Events of this report come after the batch's earlier ones, and a two-step change reads in order.
  const base = Math.max(now, new Date(batch.updatedAt).getTime() + 1);
  await applyStatusChanges(tx, first, new Date(base).toISOString());
  const at = new Date(base + (second.length > 0 ? 1 : 0)).toISOString();
  if (second.length > 0) await applyStatusChanges(tx, second, at);
  await tx
    .update(paymentBatches)
    .set({
      status: batchStatus,
      updatedAt: at,
      // A batch the bank has finished needs no simulated step.
      ...(BATCH_MACHINE.terminal.includes(batchStatus as never) ? { bankNextStepAt: null } : {}),
    })
    .where(eq(paymentBatches.id, batch.id));
  await rejectProposedMatches(
    tx,
    changes.filter((c) => c.to === "rejected"),
    at,
  );
  return result;
}

/**
 * The company's batch the report names (original message id `TD…`, payment information ids `TDP…`), locked for
 * update. @throws CamtImportError as `applyPain002` (unknown or another company's batch, two batches, never sent)
 */
async function reportedBatch(
  tx: DbOrTx,
  companyId: string,
  report: ParsedPain002,
): Promise<typeof paymentBatches.$inferSelect> {
  const f = report.fileName;
  const refs = [
    { id: batchIdFromReference(report.originalMessageId, "TD"), path: `${GROUP_PATH}/OrgnlGrpInfAndSts/OrgnlMsgId` },
    ...report.payments.map((p) => ({
      id: batchIdFromReference(p.paymentInformationId, "TDP"),
      path: `${p.path}/OrgnlPmtInfId`,
    })),
  ];
  const unknown = (path: string, value: string): never =>
    fail(f, path, `"${value}" is not a payment file of this company (no batch of the company was sent under it)`);
  const found = refs.find((r) => r.id !== null);
  const named = found?.id
    ? { id: found.id, path: found.path }
    : unknown(refs[0]?.path ?? GROUP_PATH, report.originalMessageId);
  for (const r of refs)
    if (r.id !== null && r.id !== named.id)
      fail(f, r.path, "names another batch than the report's original message id");
  const [batch] = await tx
    .select()
    .from(paymentBatches)
    .where(and(eq(paymentBatches.id, named.id), eq(paymentBatches.companyId, companyId)))
    .for("update");
  if (!batch) return unknown(named.path, report.originalMessageId);
  if (["created", "pending_approval", "rejected"].includes(batch.status))
    fail(f, named.path, `names batch ${batch.id}, which is ${batch.status}: it was never sent to the bank`);
  return batch;
}

/**
 * The status that applies to each instruction: its transaction's, else its payment information's, else the group's;
 * a payment information or group status covers the instructions the report does not list.
 * @throws CamtImportError naming the element when an end-to-end / instruction id is not in the batch
 */
function verdicts(report: ParsedPain002, rows: InstructionRow[]): Map<InstructionRow, ParsedBankStatus> {
  const byE2e = new Map(rows.map((r) => [r.endToEndId, r]));
  const byId = new Map(rows.map((r) => [r.id, r]));
  const verdict = new Map<InstructionRow, ParsedBankStatus>();
  for (const p of report.payments) {
    for (const t of p.transactions) {
      const ins = (t.instructionId ? byId.get(t.instructionId) : undefined) ?? byE2e.get(t.endToEndId ?? "");
      if (!ins)
        fail(
          report.fileName,
          `${t.path}/OrgnlEndToEndId`,
          `"${t.endToEndId ?? t.instructionId}" is not an instruction of the batch`,
        );
      const status = t.status ?? p.status ?? report.groupStatus;
      if (status) verdict.set(ins, status);
    }
  }
  const blanket = report.payments.find((p) => p.status !== null)?.status ?? report.groupStatus;
  if (blanket) for (const r of rows) if (!verdict.has(r)) verdict.set(r, blanket);
  return verdict;
}

/** What the verdicts change: the first and second status steps to write, the changes to report, the conflicts. */
interface Pain002Plan {
  first: StatusChange[];
  second: StatusChange[];
  changes: Pain002Change[];
  ignored: Pain002Ignored[];
}

/** Turns each instruction's verdict into status steps (`stepsFor`); a verdict that contradicts a final status is ignored. */
function planChanges(rows: InstructionRow[], verdict: Map<InstructionRow, ParsedBankStatus>): Pain002Plan {
  const plan: Pain002Plan = { first: [], second: [], changes: [], ignored: [] };
  for (const r of rows) {
    const s = verdict.get(r);
    if (!s) continue;
    const kind = PAIN002_STATUS_KINDS[s.code] ?? "none";
    const steps = stepsFor(r.status, kind);
    if (steps === "conflict") {
      plan.ignored.push({
        end_to_end_id: r.endToEndId,
        instruction_id: r.id,
        status: r.status as InstructionStatus,
        bank_status: s.code,
        reason_code: s.reasonCode,
      });
      continue;
    }
    const last = steps[steps.length - 1];
    if (last === undefined) continue;
    const rejected = last === "rejected";
    const reasonCode = rejected ? (s.reasonCode ?? "NARR") : null;
    const reasonText = rejected ? statusReasonText(s.reasonCode, s.additionalInfo) : null;
    steps.forEach((status, k) =>
      (k === 0 ? plan.first : plan.second).push({
        instruction: r,
        status,
        reason: status === "rejected" ? reasonCode : null,
        reasonText: status === "rejected" ? reasonText : null,
      }),
    );
    plan.changes.push({
      end_to_end_id: r.endToEndId,
      instruction_id: r.id,
      from: r.status as InstructionStatus,
      to: last,
      reason_code: reasonCode,
      reason_text: reasonText,
    });
  }
  return plan;
}

/** The batch follows its instructions: an approved batch is taken; a processing one settles once every one is final. */
function batchStatusAfter(current: string, rows: InstructionRow[], changes: Pain002Change[]): string {
  const after = new Map(rows.map((r) => [r.id, r.status]));
  for (const c of changes) after.set(c.instruction_id, c.to);
  const statuses = [...after.values()];
  let batchStatus = current;
  if (changes.length > 0 && batchStatus === "approved") batchStatus = transition(BATCH_MACHINE, batchStatus, "take");
  if (batchStatus === "processing" && statuses.every((s) => FINAL.includes(s)))
    batchStatus = transition(
      BATCH_MACHINE,
      batchStatus,
      "settle",
      settledBatchStatus(statuses.map((s) => s as InstructionStatus)),
    );
  return batchStatus;
}

/** Proposed reconciliation matches of instructions the bank rejected become `rejected` (with a webhook each). */
async function rejectProposedMatches(tx: DbOrTx, rejected: Pain002Change[], at: string): Promise<void> {
  if (rejected.length === 0) return;
  const reasonOf = new Map(rejected.map((c) => [c.instruction_id, c]));
  const updated = await tx
    .update(reconciliationMatches)
    .set({ state: "rejected", decidedAt: at })
    .where(
      and(
        inArray(
          reconciliationMatches.paymentInstructionId,
          rejected.map((c) => c.instruction_id),
        ),
        eq(reconciliationMatches.state, "proposed"),
      ),
    )
    .returning();
  for (const m of updated) {
    const c = reasonOf.get(m.paymentInstructionId);
    const reason = `The bank rejected the payment (${c?.reason_code ?? "RJCT"}${c?.reason_text ? `: ${c.reason_text}` : ""})`;
    await tx.update(reconciliationMatches).set({ decisionReason: reason }).where(eq(reconciliationMatches.id, m.id));
    m.decisionReason = reason;
  }
  await enqueueRowEvents(tx, "reconciliation.match.updated", updated, toMatch);
}

/**
 * Parses and applies pain.002 files for one company in ONE database transaction: a bad file changes nothing.
 * This is the per-format handler the statement upload and the command line call.
 * @param files name and text of each file (already known to be pain.002, see `isPain002`)
 * @returns one `Pain002Result` per file, in order
 * @throws as parsePain002 and applyPain002
 */
export async function importPain002Files(
  db: Db,
  companyId: string,
  files: { name: string; content: string }[],
  opts: ApplyPain002Options = {},
): Promise<Pain002Result[]> {
  const parsed = files.map((file) => parsePain002(file.content, file.name));
  return db.transaction(async (tx) => {
    const out: Pain002Result[] = [];
    for (const p of parsed) out.push(await applyPain002(tx, companyId, p, opts));
    return out;
  });
}
