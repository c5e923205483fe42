import { z } from "zod";
import { TransactionsQuery } from "@/lib/bff/inputs";
import { withUser } from "@/lib/bff/route";
import { exportTransactions } from "@/lib/bff/queries/exports";

/** The transactions filter plus the view's text search and category (applied here to the streamed rows). */
const ExportQuery = TransactionsQuery.extend({
  q: z.string().trim().min(1).max(100).optional(),
  category: z.string().trim().min(1).max(60, "must be at most 60 characters").optional(),
});

/** GET /transactions as a streamed CSV of the current filter (every page). */
export const GET = withUser({ permission: "ledger.read", query: ExportQuery }, (ctx) =>
  exportTransactions(ctx, ctx.query),
);
