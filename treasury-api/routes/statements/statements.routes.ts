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
    description: "One or more ISO 20022 camt.052 / camt.053 / camt.054 files (repeat the part)",
  });

export const StatementUpload = z.object({ [STATEMENT_UPLOAD_FIELD]: FileField }).openapi("StatementUpload");

export const importStatementsRoute = defineRoute({
  method: "post",
  path: "/statements",
  tags: ["Statements (extension)"],
  summary: "Import bank statements (extension): camt.052 / camt.053 / camt.054 files",
  description:
    "Extension of the local implementation. A multipart upload of one or more files in the part `files`; the " +
    "message and version (001.02-001.12) " +
    "are detected per file. All files are stored in one transaction: booked entries as transactions (idempotent: a " +
    "file imported again adds nothing), " +
    "entries without a booking date as pending (not booked), balances, coverage days, camt.052 intraday points. 200 " +
    "with one summary per file. " +
    "400 validation_error naming the file and element (details.file, details.path) when a file cannot be read; " +
    "nothing is stored then. " +
    "Form A callers must send X-Company-ID too. Files up to 25 MB, bodies up to 100 MB.",
  scope: "write:ledger",
  company: "required",
  multipart: true,
  request: { body: { required: true, content: { "multipart/form-data": { schema: StatementUpload } } } },
  responses: {
    200: { description: "Per-file summary", content: { "application/json": { schema: StatementImportResult } } },
  },
});
