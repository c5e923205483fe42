/** Reconciliation area: wiring of routes to the repository (spec §4 Reconciliation). */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { MatchDecision } from "../../../lib/contract/reconciliation";
import type { AppEnv } from "../../lib/context";
import { listBody, resolvePaging } from "../../lib/lists";
import * as r from "./reconciliation.routes";
import * as repo from "../../db/repos/reconciliation";

function decision(c: Context<AppEnv>, kind: "confirm" | "reject", body: MatchDecision | undefined): repo.Decision {
  const caller = c.get("caller");
  if (!caller) throw new Error("the route guard guarantees a caller");
  return { kind, clientId: caller.clientId, reviewer: body?.reviewer, reason: body?.reason };
}

export function registerReconciliationRoutes(api: OpenAPIHono<AppEnv>): void {
  api.openapi(r.listMatchesRoute, async (c) => {
    const q = c.req.valid("query");
    const paging = resolvePaging(c, q);
    const { rows, count } = await repo.listMatches(
      c.get("db"),
      c.get("scope"),
      { state: q.state, transactionId: q.transaction_id, instructionId: q.payment_instruction_id },
      paging,
      paging.needsCount,
    );
    return c.json(listBody(c, paging, rows, count), 200);
  });
  api.openapi(r.getMatchRoute, async (c) =>
    c.json(await repo.getMatch(c.get("db"), c.get("scope"), c.req.valid("param").id), 200),
  );
  api.openapi(r.confirmMatchRoute, async (c) =>
    c.json(
      await repo.decideMatch(
        c.get("db"),
        c.get("scope"),
        c.req.valid("param").id,
        decision(c, "confirm", c.req.valid("json")),
      ),
      200,
    ),
  );
  api.openapi(r.rejectMatchRoute, async (c) =>
    c.json(
      await repo.decideMatch(
        c.get("db"),
        c.get("scope"),
        c.req.valid("param").id,
        decision(c, "reject", c.req.valid("json")),
      ),
      200,
    ),
  );
}
