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
import { declareRoute, defineRoutes } from "@/lib/bff/route";
import { readById, readByQuery, type ReadAccess } from "../read-routes";
import { organizationEndpoints as e } from "./endpoints";

/** Every read: the user's companies only, across all of them (not the selected one). */
const read: ReadAccess = { permission: "organization.read", company: "none" };

export const organizationRoutes = defineRoutes(e, {
  /** GET /companies — the user's companies. */
  companies: declareRoute(e.companies, read, (ctx) => listCompanies(ctx)),

  /** POST /companies — upsert keyed on orgnr (admin). */
  upsertCompany: declareRoute(
    e.upsertCompany,
    {
      permission: "organization.manage",
      company: "none",
      body: CompanyUpsert,
      audit: { action: "company.upsert", objectType: "company" },
    },
    (ctx) => upsertCompany(ctx, ctx.body),
  ),

  /** GET /companies/{id} — 404 outside the user's companies. */
  company: readById(e.company, read, getCompany),

  /** GET /koncerner */
  koncerner: readByQuery(e.koncerner, { ...read, query: PagingQuery }, listKoncerner),

  /** GET /koncerner/{id} */
  koncern: readById(e.koncern, read, getKoncern),

  /** GET /koncerner/{id}/breakdown — narrowed to the user's companies. */
  koncernBreakdown: readById(e.koncernBreakdown, read, getKoncernBreakdown),
});
