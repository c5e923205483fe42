/**
 * Organization routes (docs/treasury-api.md#organization): companies list / upsert /
 * detail, koncerner list / detail / breakdown.
 */
import { z } from "zod";
import { Company, CompanyUpsert, Koncern, KoncernBreakdown } from "@treasury/contract/organization";
import { idParams, json } from "../../lib/openapi";
import { defineRoute } from "../define-route";
import { listResponse, pagingQuery } from "../../lib/lists";

const listQuery = z.object(pagingQuery).strict();

export const listCompaniesRoute = defineRoute({
  method: "get",
  path: "/companies",
  tags: ["Organization"],
  summary: "List companies",
  description: "Form B: the companies linked to the client. Form A: the companies of the tenant.",
  scope: "read:ledger",
  company: "none",
  request: { query: listQuery },
  responses: { 200: listResponse(Company, "Companies") },
});

export const upsertCompanyRoute = defineRoute({
  method: "post",
  path: "/companies",
  tags: ["Organization"],
  summary: "Create or update a company (upsert on orgnr)",
  description: "Upsert keyed on orgnr within the API client. 201 when created, 200 when updated.",
  scope: "write:ledger",
  company: "none",
  request: { body: { required: true, content: { "application/json": { schema: CompanyUpsert } } } },
  responses: { 200: json(Company, "Updated"), 201: json(Company, "Created") },
});

export const getCompanyRoute = defineRoute({
  method: "get",
  path: "/companies/{id}",
  tags: ["Organization"],
  summary: "Get a company",
  scope: "read:ledger",
  company: "none",
  request: { params: idParams },
  responses: { 200: json(Company, "The company") },
});

export const listKoncernerRoute = defineRoute({
  method: "get",
  path: "/koncerner",
  tags: ["Organization"],
  summary: "List koncerner (corporate groups)",
  description: "Form B: the koncerner holding at least one linked company.",
  scope: "read:ledger",
  company: "none",
  request: { query: listQuery },
  responses: { 200: listResponse(Koncern, "Koncerner") },
});

export const getKoncernRoute = defineRoute({
  method: "get",
  path: "/koncerner/{id}",
  tags: ["Organization"],
  summary: "Get a koncern",
  scope: "read:ledger",
  company: "none",
  request: { params: idParams },
  responses: { 200: json(Koncern, "The koncern") },
});

export const koncernBreakdownRoute = defineRoute({
  method: "get",
  path: "/koncerner/{id}/breakdown",
  tags: ["Organization"],
  summary: "Koncern breakdown by company and currency",
  description:
    "Each company's latest closing_booked balances per currency, and totals per currency. Companies outside the " +
    "caller's scope are left out.",
  scope: "read:ledger",
  company: "none",
  request: { params: idParams },
  responses: { 200: json(KoncernBreakdown, "The breakdown") },
});
