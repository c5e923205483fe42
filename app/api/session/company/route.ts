import { cookies } from "next/headers";
import { CompanySelection } from "@/lib/bff/inputs";
import { SETTINGS_MAX_BODY_BYTES, withUser } from "@/lib/bff/route";
import { BffError } from "@/lib/bff/errors";
import { COMPANY_COOKIE, mayUseCompany } from "@/lib/bff/company";

/**
 * POST /api/session/company — the company switcher. Sets the company cookie
 * after checking that the user may use the company (403 otherwise).
 */
export const POST = withUser(
  {
    permission: "ledger.read",
    company: "none",
    ignoreCompanyCookie: true,
    body: CompanySelection,
    maxBody: SETTINGS_MAX_BODY_BYTES,
  },
  async (ctx) => {
    if (!mayUseCompany(ctx.user, ctx.companies, ctx.body.company_id)) {
      throw new BffError("permission_denied", "You do not have access to this company.", {
        company_id: ctx.body.company_id,
      });
    }
    (await cookies()).set(COMPANY_COOKIE, ctx.body.company_id, {
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      secure: process.env.NODE_ENV === "production" && (process.env.NEXTAUTH_URL ?? "").startsWith("https://"),
      maxAge: 60 * 60 * 24 * 180,
    });
    return { company_id: ctx.body.company_id };
  },
);
