/**
 * Organization queries and writes (docs/treasury-api.md#organization). Companies are
 * narrowed to the user's allowed companies; a company outside them is 404
 * (as upstream does for objects outside the client's scope).
 */
import "server-only";
import type { z } from "zod";
import type { Company, CompanyUpsert } from "@treasury/contract";
import { ExactDecimal as Decimal } from "@treasury/contract/exact-decimal";
import { scaleOf } from "../../money";
import { treasury } from "../../server/treasury";
import { invalidateCompanies } from "../company";
import { plainCall, type BffContext, type WriteScope } from "../context";
import { BffError } from "../errors";
import type { BffPage, PagingQuery } from "../inputs";
import { clientFilters, toBffPage } from "./page";

/** The user's companies (already narrowed), as one page. */
export async function listCompanies(ctx: BffContext): Promise<BffPage<Company>> {
  return {
    items: ctx.companies,
    count: ctx.companies.length,
    page: 1,
    page_size: ctx.companies.length,
    total_pages: 1,
    has_next: false,
    has_previous: false,
  };
}

export async function getCompany(ctx: BffContext, id: string): Promise<Company> {
  if (!ctx.companies.some((c) => c.id === id))
    throw new BffError("not_found", "This company does not exist or is not visible to you.");
  return treasury().getCompany(plainCall(ctx), id);
}

/** Upsert keyed on orgnr (admin). The company cache is dropped so the switcher sees it. */
export async function upsertCompany(ctx: WriteScope, body: CompanyUpsert): Promise<Company> {
  const company = await treasury().upsertCompany(ctx.write, body);
  invalidateCompanies();
  return company;
}

/** The koncerner of the API client, one page (the organization page and its route). */
export async function listKoncerner(ctx: BffContext, q: z.output<typeof PagingQuery> = {}) {
  return toBffPage(await treasury().listKoncerner(plainCall(ctx), clientFilters(q)));
}

/** One koncern (the koncern page and its route). */
export async function getKoncern(ctx: BffContext, id: string) {
  return treasury().getKoncern(plainCall(ctx), id);
}

/**
 * Breakdown of a koncern, narrowed to the user's companies; when narrowed,
 * the per-currency totals are recomputed (exact decimals) from what is shown.
 */
export async function getKoncernBreakdown(ctx: BffContext, id: string) {
  const b = await treasury().getKoncernBreakdown(plainCall(ctx), id);
  if (ctx.user.companyIds === null) return b;
  const allowed = new Set(ctx.user.companyIds);
  const companies = b.companies.filter((c) => allowed.has(c.company_id));
  if (companies.length === b.companies.length) return b;
  const sums = new Map<string, { sum: Decimal; dp: number }>();
  for (const c of companies) {
    for (const bal of c.balances) {
      const prev = sums.get(bal.currency) ?? { sum: new Decimal(0), dp: 0 };
      sums.set(bal.currency, { sum: prev.sum.plus(bal.balance), dp: Math.max(prev.dp, scaleOf(bal.balance)) });
    }
  }
  // Keep the scale of the inputs ("100.50" + "0.50" is "101.00", not "101").
  const totals = [...sums].map(([currency, t]) => ({ currency, balance: t.sum.toFixed(t.dp) }));
  return { ...b, companies, totals };
}
