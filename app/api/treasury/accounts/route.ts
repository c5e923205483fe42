import { AccountUpsert } from "@treasury/contract";
import { AccountsQuery } from "@/lib/bff/inputs";
import { withUser } from "@/lib/bff/route";
import { listAccounts, upsertAccount } from "@/lib/bff/queries/ledger";

/** GET /accounts — the selected company's accounts. */
export const GET = withUser({ permission: "ledger.read", query: AccountsQuery }, (ctx) => listAccounts(ctx, ctx.query));

/** POST /accounts — account upsert (admin); company_id must be the selected company. */
export const POST = withUser(
  {
    permission: "organization.manage",
    company: "body",
    body: AccountUpsert,
    audit: { action: "account.upsert", objectType: "account" },
  },
  (ctx) => upsertAccount(ctx, ctx.body),
);
