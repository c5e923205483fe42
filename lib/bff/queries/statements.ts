/**
 * Statement upload through the API's extension `POST /statements`
 * (packages/contract/src/statements.ts): the browser's multipart upload is checked
 * (at least one file, none over the size limit) and forwarded as a new
 * multipart body with the company header and the derived Idempotency-Key.
 * The API stores all files in one transaction or nothing; its 400 names the
 * file and the element (`details.file`, `details.path`) and reaches the page.
 */
import "server-only";
import { STATEMENT_MAX_FILE_BYTES, STATEMENT_UPLOAD_FIELD, type StatementImportResult } from "@treasury/contract";
import { capabilities } from "../capabilities";
import type { WriteScope } from "../context";
import { BffError } from "../errors";
import { treasury } from "../../server/treasury";

/** Whether the configured API accepts statement uploads (its OpenAPI document lists POST /statements). */
export async function statementUploadAvailable(): Promise<boolean> {
  return (await capabilities()).has("statements.upload");
}

/**
 * Forwards the files of `request` (multipart, parts named `files`).
 * @throws BffError 404 when the API has no upload, 400 without files or with
 *   a body that is not multipart, 413 over the size limit.
 */
export async function uploadStatements(
  ctx: WriteScope & { audit: { details?: Record<string, unknown> } },
  request: Request,
): Promise<StatementImportResult> {
  if (!(await statementUploadAvailable()))
    throw new BffError(
      "not_found",
      "The Treasury API does not accept statement uploads; statements arrive from the bank.",
    );
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw new BffError("validation_error", "The upload must be multipart/form-data with one or more files", {
      errors: { files: ["must be a multipart upload"] },
    });
  }
  const files = form.getAll(STATEMENT_UPLOAD_FIELD).filter((f): f is File => typeof f !== "string");
  if (files.length === 0)
    throw new BffError("validation_error", "files must hold at least one file", {
      errors: { files: ["must hold at least one file"] },
    });
  const big = files.find((f) => f.size > STATEMENT_MAX_FILE_BYTES);
  if (big)
    throw new BffError("payload_too_large", `${big.name} is larger than ${STATEMENT_MAX_FILE_BYTES / 1024 / 1024} MB`, {
      file: big.name,
    });
  const upstream = new FormData();
  for (const f of files) upstream.append(STATEMENT_UPLOAD_FIELD, f, f.name);
  ctx.audit.details = { files: files.map((f) => ({ name: f.name, bytes: f.size })) };
  const result = await treasury().uploadStatements(ctx.write, upstream);
  ctx.audit.details = {
    files: result.files.map((f) => ({
      name: f.file,
      type: f.message_type,
      version: f.version,
      entries: f.entries,
      inserted: f.transactions_inserted,
      duplicates: f.duplicates,
    })),
  };
  return result;
}
