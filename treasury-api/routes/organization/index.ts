/** Organization area: wiring of routes to handlers (spec §4 Organization). */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/context";
import { listBody, resolvePaging } from "../../lib/lists";
import * as r from "./organization.routes";
import * as repo from "../../db/repos/organization";

export function registerOrganizationRoutes(api: OpenAPIHono<AppEnv>): void {
  api.openapi(r.listCompaniesRoute, async (c) => {
    const paging = resolvePaging(c, c.req.valid("query"));
    const { rows, count } = await repo.listCompanies(c.get("db"), c.get("scope"), paging);
    return c.json(listBody(c, paging, rows, count), 200);
  });
  api.openapi(r.upsertCompanyRoute, async (c) => {
    const caller = c.get("caller");
    if (!caller) throw new Error("guard guarantees a caller");
    const { company, created } = await repo.upsertCompany(c.get("db"), caller, c.req.valid("json"));
    return created ? c.json(company, 201) : c.json(company, 200);
  });
  api.openapi(r.getCompanyRoute, async (c) =>
    c.json(await repo.getCompany(c.get("db"), c.get("scope"), c.req.valid("param").id), 200),
  );
  api.openapi(r.listKoncernerRoute, async (c) => {
    const paging = resolvePaging(c, c.req.valid("query"));
    const { rows, count } = await repo.listKoncerner(c.get("db"), c.get("scope"), paging);
    return c.json(listBody(c, paging, rows, count), 200);
  });
  api.openapi(r.getKoncernRoute, async (c) =>
    c.json(await repo.getKoncern(c.get("db"), c.get("scope"), c.req.valid("param").id), 200),
  );
  api.openapi(r.koncernBreakdownRoute, async (c) =>
    c.json(await repo.koncernBreakdown(c.get("db"), c.get("scope"), c.req.valid("param").id), 200),
  );
}
