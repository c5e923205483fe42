import { CompanyUpsert } from "@treasury/contract";
import { withUser } from "@/lib/bff/route";
import { listCompanies, upsertCompany } from "@/lib/bff/queries/organization";

/** GET /companies — the user's companies. */
export const GET = withUser({ permission: "organization.read", company: "none" }, (ctx) => listCompanies(ctx));

/** POST /companies — upsert keyed on orgnr (admin). */
export const POST = withUser(
  {
    permission: "organization.manage",
    company: "none",
    body: CompanyUpsert,
    audit: { action: "company.upsert", objectType: "company" },
  },
  (ctx) => upsertCompany(ctx, ctx.body),
);
