/** Approvals area: wiring of routes to repositories (spec §4 Approvals). */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../../lib/context";
import { ApiError } from "../../lib/errors";
import { listBody, resolvePaging } from "../../lib/lists";
import * as r from "./approvals.routes";
import * as repo from "../../db/repos/approvals";

/** The decision of the caller: `approver` from the body, else the client's public client_id. */
function decision(
  c: Context<AppEnv>,
  kind: "approve" | "reject",
  body: { approver?: string; reason?: string } | undefined,
): repo.Decision {
  const caller = c.get("caller");
  if (!caller) throw new ApiError("authentication_failed", "Authorization: Bearer token is required");
  return {
    kind,
    clientId: caller.clientId,
    approver: body?.approver ?? caller.clientName,
    reason: body?.reason ?? null,
    bankSpeed: c.get("config").bankSpeed,
  };
}

export function registerApprovalRoutes(api: OpenAPIHono<AppEnv>): void {
  api.openapi(r.listPendingRoute, async (c) => {
    const paging = resolvePaging(c, c.req.valid("query"));
    const { rows, count } = await repo.listPending(c.get("db"), c.get("scope"), paging, paging.needsCount);
    return c.json(listBody(c, paging, rows, count), 200);
  });
  api.openapi(r.getApprovalRoute, async (c) =>
    c.json(await repo.getApproval(c.get("db"), c.get("scope"), c.req.valid("param").id), 200),
  );
  api.openapi(r.approveRoute, async (c) =>
    c.json(
      await repo.decide(
        c.get("db"),
        c.get("scope"),
        c.req.valid("param").id,
        decision(c, "approve", c.req.valid("json")),
      ),
      200,
    ),
  );
  api.openapi(r.rejectRoute, async (c) =>
    c.json(
      await repo.decide(
        c.get("db"),
        c.get("scope"),
        c.req.valid("param").id,
        decision(c, "reject", c.req.valid("json")),
      ),
      200,
    ),
  );
}
