import { withUser } from "@/lib/bff/route";
import { uploadStatements } from "@/lib/bff/queries/statements";

/**
 * POST: multipart upload of ISO 20022 statement files (parts `files`), forwarded
 * to the API's POST /statements; one summary per file. Audited.
 */
export const POST = withUser(
  { permission: "statements.import", audit: { action: "statements.import", objectType: "statement_upload" } },
  (ctx) => uploadStatements(ctx, ctx.request),
);
