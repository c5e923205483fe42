/** Organization handlers: companies (list, upsert, detail) and koncerner (list, detail, breakdown). */
import { requireCaller, type AppRouteHandler } from "../../lib/context";
import { listHandler } from "../../lib/lists";
import * as repo from "../../db/repos/organization";
import * as r from "./organization.routes";

export const listCompanies = listHandler(r.listCompaniesRoute, {
  load: (c, _q, paging) => repo.listCompanies(c.get("db"), c.get("scope"), paging),
});

export const upsertCompany: AppRouteHandler<typeof r.upsertCompanyRoute> = async (c) => {
  const { company, created } = await repo.upsertCompany(c.get("db"), requireCaller(c), c.req.valid("json"));
  return created ? c.json(company, 201) : c.json(company, 200);
};

export const getCompany: AppRouteHandler<typeof r.getCompanyRoute> = async (c) =>
  c.json(await repo.getCompany(c.get("db"), c.get("scope"), c.req.valid("param").id), 200);

export const listKoncerner = listHandler(r.listKoncernerRoute, {
  load: (c, _q, paging) => repo.listKoncerner(c.get("db"), c.get("scope"), paging),
});

export const getKoncern: AppRouteHandler<typeof r.getKoncernRoute> = async (c) =>
  c.json(await repo.getKoncern(c.get("db"), c.get("scope"), c.req.valid("param").id), 200);

export const koncernBreakdown: AppRouteHandler<typeof r.koncernBreakdownRoute> = async (c) =>
  c.json(await repo.koncernBreakdown(c.get("db"), c.get("scope"), c.req.valid("param").id), 200);
