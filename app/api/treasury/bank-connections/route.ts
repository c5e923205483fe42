import { withUser } from "@/lib/bff/route";
import { listBankConnectionHealth } from "@/lib/bff/queries/bank-connections";

/**
 * GET /api/treasury/bank-connections — the selected company's bank connections with their health (treasurers,
 * admins; read-only). 404 when the API has no bank connections extension (docs/bank-channels.md#operations).
 */
export const GET = withUser({ permission: "bank_connections.read" }, async (ctx) => ({
  data: await listBankConnectionHealth(ctx),
}));
