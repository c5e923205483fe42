/** Reconciliation handlers: the match list, one match, confirm and reject. */
import { requireCaller, type AppRouteHandler, type RouteContext } from "../../lib/context";
import { listHandler } from "../../lib/lists";
import * as repo from "../../db/repos/reconciliation";
import * as r from "./reconciliation.routes";

/** The reviewer's decision; reviewer and reason come from the optional body, for the audit trail. */
function decision(
  c: RouteContext<typeof r.confirmMatchRoute> | RouteContext<typeof r.rejectMatchRoute>,
  kind: "confirm" | "reject",
): repo.Decision {
  const body = c.req.valid("json");
  return { kind, clientId: requireCaller(c).clientId, reviewer: body?.reviewer, reason: body?.reason };
}

export const listMatches = listHandler(r.listMatchesRoute, {
  load: (c, q, paging) =>
    repo.listMatches(
      c.get("db"),
      c.get("scope"),
      { state: q.state, transactionId: q.transaction_id, instructionId: q.payment_instruction_id },
      paging,
      paging.needsCount,
    ),
});

export const getMatch: AppRouteHandler<typeof r.getMatchRoute> = async (c) =>
  c.json(await repo.getMatch(c.get("db"), c.get("scope"), c.req.valid("param").id), 200);

export const confirmMatch: AppRouteHandler<typeof r.confirmMatchRoute> = async (c) =>
  c.json(await repo.decideMatch(c.get("db"), c.get("scope"), c.req.valid("param").id, decision(c, "confirm")), 200);

export const rejectMatch: AppRouteHandler<typeof r.rejectMatchRoute> = async (c) =>
  c.json(await repo.decideMatch(c.get("db"), c.get("scope"), c.req.valid("param").id, decision(c, "reject")), 200);
