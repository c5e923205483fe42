/** Organization area: each route declaration wired to its handler. */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/context";
import * as h from "./organization.handlers";
import * as r from "./organization.routes";

export function registerOrganizationRoutes(api: OpenAPIHono<AppEnv>): void {
  api.openapi(r.listCompaniesRoute, h.listCompanies);
  api.openapi(r.upsertCompanyRoute, h.upsertCompany);
  api.openapi(r.getCompanyRoute, h.getCompany);
  api.openapi(r.listKoncernerRoute, h.listKoncerner);
  api.openapi(r.getKoncernRoute, h.getKoncern);
  api.openapi(r.koncernBreakdownRoute, h.koncernBreakdown);
}
