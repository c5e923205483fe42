/** Approval handlers: the queue of open requests, one request, approve and reject. */
import { requireCaller, type AppRouteHandler, type RouteContext } from "../../lib/context";
import { listHandler } from "../../lib/lists";
import * as repo from "../../db/repos/approvals";
import * as r from "./approvals.routes";

/** The decision of the caller: `approver` from the body, else the client's public client_id. */
function decision(
  c: RouteContext<typeof r.approveRoute> | RouteContext<typeof r.rejectRoute>,
  kind: "approve" | "reject",
): repo.Decision {
  const caller = requireCaller(c);
  const body = c.req.valid("json");
  return {
    kind,
    clientId: caller.clientId,
    approver: body?.approver ?? caller.clientName,
    reason: body?.reason ?? null,
    bankSpeed: c.get("config").bankSpeed,
  };
}

export const listPending = listHandler(r.listPendingRoute, {
  load: (c, _q, paging) => repo.listPending(c.get("db"), c.get("scope"), paging, paging.needsCount),
});

export const getApproval: AppRouteHandler<typeof r.getApprovalRoute> = async (c) =>
  c.json(await repo.getApproval(c.get("db"), c.get("scope"), c.req.valid("param").id), 200);

export const approve: AppRouteHandler<typeof r.approveRoute> = async (c) =>
  c.json(await repo.decide(c.get("db"), c.get("scope"), c.req.valid("param").id, decision(c, "approve")), 200);

export const reject: AppRouteHandler<typeof r.rejectRoute> = async (c) =>
  c.json(await repo.decide(c.get("db"), c.get("scope"), c.req.valid("param").id, decision(c, "reject")), 200);
