/** Handlers of the unmatched list and the manual match (extensions). */
import { requireCaller, type AppRouteHandler } from "../../lib/context";
import { listHandler } from "../../lib/lists";
import * as repo from "../../db/repos/unmatched";
import * as r from "./unmatched.routes";

export const listUnmatched = listHandler(r.listUnmatchedRoute, {
  load: (c, q, paging) =>
    repo.listUnmatched(
      c.get("db"),
      c.get("scope"),
      {
        kind: q.kind,
        fromDate: q.from_date,
        toDate: q.to_date,
        accountId: q.account_id,
        currency: q.currency,
        minAmount: q.min_amount,
        maxAmount: q.max_amount,
        q: q.q,
        sort: q.sort,
      },
      paging,
      paging.needsCount,
    ),
});

export const createManualMatch: AppRouteHandler<typeof r.createManualMatchRoute> = async (c) => {
  const body = c.req.valid("json");
  const { match } = await repo.createManualMatch(c.get("db"), c.get("scope"), {
    ...body,
    clientId: requireCaller(c).clientId,
  });
  return c.json(match, 201);
};
