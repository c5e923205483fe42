/**
 * Statement import extension of the local Treasury API (not in the public
 * spec; docs/architecture.md#extensions): `POST /statements` takes a multipart upload of
 * one or more ISO 20022 bank-to-customer files (camt.052 intraday report,
 * camt.053 statement, camt.054 debit/credit notification, versions
 * 001.02–001.12), stores them in one transaction for the company of
 * `X-Company-ID` (scope `write:ledger`) and answers with one summary per file.
 *
 * Request: `multipart/form-data` with one or more parts named `files` (each a
 * file; its filename is echoed as `file`). Errors: 400 `validation_error`
 * whose `details` carry `{ file, path }` (the element path, e.g.
 * `Document/BkToCstmrStmt/Stmt[0]/Ntry[3]/Amt`) — nothing is stored then.
 */
import { z } from "zod";
import { Uuid } from "./common";

/** The message types (formats) the importer reads: statements (camt, MT940 / MT942, BAI2) and pain.002 status reports (docs/bank-files.md). */
export const STATEMENT_MESSAGE_TYPES = [
  "camt.052",
  "camt.053",
  "camt.054",
  "mt940",
  "mt942",
  "bai2",
  "pain.002",
] as const;
export const StatementMessageType = z.enum(STATEMENT_MESSAGE_TYPES);
export type StatementMessageType = z.infer<typeof StatementMessageType>;

const Count = z.number().int().min(0);

const InstructionState = z.enum(["pending", "accepted", "settled", "rejected", "cancelled"]);

/** What a pain.002 status report did (treasury-api/import/pain002.ts). */
export const PaymentStatusReport = z
  .object({
    message_id: z.string().meta({ description: "The report's GrpHdr/MsgId" }),
    original_message_id: z.string().meta({ description: "The pain.001 message id it answers" }),
    batch_id: Uuid,
    batch_status_from: z.string(),
    batch_status_to: z.string(),
    changes: z.array(
      z.object({
        end_to_end_id: z.string(),
        instruction_id: Uuid,
        from: InstructionState,
        to: InstructionState,
        reason_code: z.string().nullable().meta({ description: "ISO 20022 reason code of a rejection, e.g. AC04" }),
        reason_text: z.string().nullable().meta({ description: "The code's text and the bank's own words" }),
      }),
    ),
    ignored: z
      .array(
        z.object({
          end_to_end_id: z.string(),
          instruction_id: Uuid,
          status: InstructionState,
          bank_status: z.string(),
          reason_code: z.string().nullable(),
        }),
      )
      .meta({ description: "Statuses not applied: the instruction is already final the other way" }),
  })
  .meta({ id: "PaymentStatusReport" });
export type PaymentStatusReport = z.infer<typeof PaymentStatusReport>;

/** What one uploaded file did. Counts are rows, days or elements. */
export const StatementFileSummary = z
  .object({
    file: z.string().meta({ description: "The uploaded file's name" }),
    message_type: StatementMessageType,
    version: z
      .string()
      .nullable()
      .meta({ description: "Message version from the namespace, e.g. camt.053.001.08; null when the file has none" }),
    statements: Count.meta({ description: "Stmt / Rpt / Ntfctn elements read" }),
    account_refs: z.array(z.string()).meta({ description: "IBANs or other account ids the file is for" }),
    accounts_matched: Count,
    accounts_created: Count,
    entries: Count.meta({ description: "Ntry elements read" }),
    transactions_inserted: Count.meta({ description: "Booked transactions stored" }),
    pending: Count.meta({
      description: "Entries stored as pending (no booking date, or status PDNG); not in booked sums",
    }),
    pending_replaced: Count.meta({ description: "Earlier pending entries replaced by their booking in this file" }),
    duplicates: Count.meta({
      description: "Entries already stored before (same account and dedupe key, or same booking from another message)",
    }),
    entries_skipped: Count.meta({ description: "Informational entries (status INFO) not stored" }),
    balances: Count.meta({ description: "Balance rows written" }),
    intraday_points: Count.meta({ description: "Intraday balance points written (camt.052 ITBD / ITAV)" }),
    coverage_days: Count.meta({ description: "Days marked completely covered by a statement" }),
    skipped_codes: z
      .record(z.string(), Count)
      .meta({ description: "Balance codes with no API balance type, with their counts, e.g. { FWAV: 5 }" }),
    status_report: PaymentStatusReport.optional().meta({
      description: "pain.002 files only (every count above is 0): the payment status changes the report made",
    }),
  })
  .meta({ id: "StatementFileSummary" });
export type StatementFileSummary = z.infer<typeof StatementFileSummary>;

/** 200 body of `POST /statements`. */
export const StatementImportResult = z
  .object({
    company_id: Uuid,
    files: z.array(StatementFileSummary),
  })
  .meta({ id: "StatementImportResult" });
export type StatementImportResult = z.infer<typeof StatementImportResult>;

/** The multipart field name that carries the files. */
export const STATEMENT_UPLOAD_FIELD = "files";
/** Largest accepted file in bytes (10 MB statements must pass). */
export const STATEMENT_MAX_FILE_BYTES = 25 * 1024 * 1024;
/** Largest accepted request body in bytes (several large files). */
export const STATEMENT_MAX_BODY_BYTES = 100 * 1024 * 1024;

/**
 * One overdue bank statement (extension `GET /statements/missing`, docs/bank-files.md "Missing statements"): the
 * statement of `expected_date` (its last day) was due at `due_at` by the account's schedule and has not arrived.
 */
export const MissingStatement = z
  .object({
    account_id: Uuid,
    company_id: Uuid,
    account_name: z.string(),
    expected_date: z.string().meta({ description: "The missing statement's last day, YYYY-MM-DD" }),
    due_at: z.string().meta({ description: "When it was due (ISO 8601, UTC)" }),
    last_statement_date: z.string().nullable(),
    cadence: z.enum(["daily", "weekly", "monthly", "none"]),
    schedule_source: z.enum(["set", "learned"]),
  })
  .meta({ id: "MissingStatement" });
export type MissingStatement = z.infer<typeof MissingStatement>;

/** 200 body of `GET /statements/missing`: oldest first per account, at most 31 per account. */
export const MissingStatements = z.object({ results: z.array(MissingStatement) });
export type MissingStatements = z.infer<typeof MissingStatements>;
