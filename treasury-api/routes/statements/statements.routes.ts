/**
 * Statement import route (extension of the local Treasury API; not in the
 * public spec): `POST /statements`, a multipart upload of camt.052 / camt.053 /
 * camt.054 files for the company of X-Company-ID. Shapes in packages/contract/src/statements.ts.
 */
import { z } from "zod";
import { StatementImportResult, STATEMENT_UPLOAD_FIELD } from "@treasury/contract/statements";
import { defineRoute } from "../define-route";

const FileField = z
  .custom<File | File[]>((v) => v instanceof File || (Array.isArray(v) && v.every((f) => f instanceof File)), {
    message: "must be one or more files",
  })
  .openapi({
    type: "array",
    items: { type: "string", format: "binary" },
    description: "One or more camt.052 / camt.053 / camt.054, MT940 / MT942, BAI2 or pain.002 files (repeat the part)",
  });

export const StatementUpload = z.object({ [STATEMENT_UPLOAD_FIELD]: FileField }).openapi("StatementUpload");

export const importStatementsRoute = defineRoute({
  method: "post",
  path: "/statements",
  tags: ["Statements (extension)"],
  summary:
    "Import bank files (extension): camt.052 / camt.053 / camt.054, MT940 / MT942 and BAI2 statements, pain.002 status reports",
  description:
    "Extension of the local implementation. A multipart upload of one or more files in the part `files`; the " +
    "format (camt.052/053/054 001.02-001.12, MT940, MT942, BAI2) and character set " +
    "are detected per file by content. A statement whose balances do not add up is refused (400) unless " +
    "accept_inconsistent=true. All files are stored in one transaction: booked entries as transactions (idempotent: a " +
    "file imported again adds nothing), " +
    "entries without a booking date as pending (not booked), balances, coverage days, camt.052 intraday points. 200 " +
    "with one summary per file. " +
    "400 validation_error naming the file and element (details.file, details.path) when a file cannot be read; " +
    "nothing is stored then. " +
    "pain.002 payment status reports (001.03-001.12, detected by content) are applied to the batch whose pain.001 " +
    "they answer: ACSC/ACCC settle, ACCP/ACTC/ACSP/ACWC/PDNG accept, RJCT rejects with the ISO reason code; each " +
    "change is a payment status event and a payment.status.updated webhook; the file's summary carries " +
    "status_report (the changes). Importing a report again changes nothing. camt.054 debits settle the instruction " +
    "with their end-to-end id. Hostile XML (DOCTYPE, entities, nesting over 64, over 4,000,000 elements) and a " +
    "namespace that is not a supported ISO 20022 message are 400 before parsing. " +
    "Form A callers must send X-Company-ID too. Files up to 25 MB, bodies up to 100 MB.",
  scope: "write:ledger",
  company: "required",
  multipart: true,
  request: {
    query: z
      .object({
        accept_inconsistent: z
          .enum(["true", "false"], { message: "must be true or false" })
          .optional()
          .meta({
            description:
              "true: import statements whose balances do not add up (opening + entries ≠ closing, BAI2 trailer " +
              "totals ≠ records) and flag their days partial on coverage, instead of refusing the file (400)",
          }),
      })
      .strict(),
    body: { required: true, content: { "multipart/form-data": { schema: StatementUpload } } },
  },
  responses: {
    200: { description: "Per-file summary", content: { "application/json": { schema: StatementImportResult } } },
  },
});
