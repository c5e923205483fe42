/** Handler of the reopen extension: the caller's client and the optional reviewer / reason go to the reopen audit. */
import { requireCaller, type AppRouteHandler } from "../../lib/context";
import { reopenMatch } from "../../db/repos/reconciliation-reopen";
import type { reopenMatchRoute } from "./reopen.routes";

export const reopenMatchHandler: AppRouteHandler<typeof reopenMatchRoute> = async (c) => {
  const body = c.req.valid("json");
  return c.json(
    await reopenMatch(c.get("db"), c.get("scope"), c.req.valid("param").id, {
      clientId: requireCaller(c).clientId,
      reviewer: body?.reviewer,
      reason: body?.reason,
    }),
    200,
  );
};
