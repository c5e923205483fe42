import { withUser } from "@/lib/bff/route";
import {
  CounterpartyListQuery,
  JsonObject,
  createCounterpartyView,
  listCounterpartyViews,
} from "@/lib/bff/queries/counterparties";

/**
 * GET /api/counterparties — the selected company's counterparties (payees), by name.
 * Query: `search` (part of the name or IBAN), `status`, `limit` (1..500, default 200).
 */
export const GET = withUser({ permission: "counterparties.read", query: CounterpartyListQuery }, (ctx) =>
  listCounterpartyViews(ctx, ctx.query),
);

/**
 * POST /api/counterparties — 201: a new counterparty in `pending_verification`
 * (name, iban, bic?, country?, lei?, orgnr?, defaultRemittance?). A second
 * person verifies it. 400 naming the field, 409 when the IBAN is live already.
 * The audit entry is written with the row (same transaction).
 */
export const POST = withUser({ permission: "counterparties.manage", body: JsonObject, status: 201 }, (ctx) =>
  createCounterpartyView(ctx, ctx.body, { requestId: ctx.requestId, idempotencyKey: ctx.write.idempotencyKey }),
);
