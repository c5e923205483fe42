/**
 * The organization area's BFF routes (docs/architecture.md#the-bff-declared-per-area), declared against
 * ./endpoints.ts: the user's companies and koncerner, narrowed to the companies the user may see.
 */
import "server-only";
import { CompanyUpsert } from "@treasury/contract";
import { PagingQuery } from "@/lib/bff/inputs";
import {
  getCompany,
  getKoncern,
  getKoncernBreakdown,
  listCompanies,
  listKoncerner,
  upsertCompany,
} from "@/lib/bff/queries/organization";
import { declareRoute, defineRoutes, IdParams } from "@/lib/bff/route";
import { organizationEndpoints } from "./endpoints";

export const organizationRoutes = defineRoutes(organizationEndpoints, {
  /** GET /companies — the user's companies. */
  companies: declareRoute(
    organizationEndpoints.companies,
    { permission: "organization.read", company: "none" },
    (ctx) => listCompanies(ctx),
  ),

  /** POST /companies — upsert keyed on orgnr (admin). */
  upsertCompany: declareRoute(
    organizationEndpoints.upsertCompany,
    {
      permission: "organization.manage",
      company: "none",
      body: CompanyUpsert,
      audit: { action: "company.upsert", objectType: "company" },
    },
    (ctx) => upsertCompany(ctx, ctx.body),
  ),

  /** GET /companies/{id} — 404 outside the user's companies. */
  company: declareRoute(
    organizationEndpoints.company,
    { permission: "organization.read", params: IdParams, company: "none" },
    (ctx) => getCompany(ctx, ctx.params.id),
  ),

  /** GET /koncerner */
  koncerner: declareRoute(
    organizationEndpoints.koncerner,
    { permission: "organization.read", company: "none", query: PagingQuery },
    (ctx) => listKoncerner(ctx, ctx.query),
  ),

  /** GET /koncerner/{id} */
  koncern: declareRoute(
    organizationEndpoints.koncern,
    { permission: "organization.read", params: IdParams, company: "none" },
    (ctx) => getKoncern(ctx, ctx.params.id),
  ),

  /** GET /koncerner/{id}/breakdown — narrowed to the user's companies. */
  koncernBreakdown: declareRoute(
    organizationEndpoints.koncernBreakdown,
    { permission: "organization.read", params: IdParams, company: "none" },
    (ctx) => getKoncernBreakdown(ctx, ctx.params.id),
  ),
});
