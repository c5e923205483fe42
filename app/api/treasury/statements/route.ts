import { withUser } from "@/lib/bff/route";
import { STATEMENT_MAX_BODY_BYTES } from "@treasury/contract";
import { uploadStatements } from "@/lib/bff/queries/statements";

/**
 * POST: multipart upload of ISO 20022 statement files (parts `files`), forwarded
 * to the API's POST /statements; one summary per file. Audited.
 */
export const POST = withUser(
  {
    permission: "statements.import",
    maxBody: STATEMENT_MAX_BODY_BYTES,
    audit: { action: "statements.import", objectType: "statement_upload" },
  },
  (ctx) => uploadStatements(ctx, ctx.request),
);
