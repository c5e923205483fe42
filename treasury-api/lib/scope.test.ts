/**
 * `scopeWhere`, the condition every repository puts into its `where`: always the tenant; the listed companies when
 * the scope names some; nothing at all (a company id no row has) when it names none; no company condition for a
 * scope of the whole tenant. Checked on the SQL drizzle renders for PostgreSQL.
 */
import { describe, expect, it } from "vitest";
import { and } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { accounts } from "../db/schema";
import { scopeWhere, type DataScope } from "./scope";

const TENANT = "10000000-0000-4000-8000-000000000001";
const A = "20000000-0000-4000-8000-00000000000a";
const B = "20000000-0000-4000-8000-00000000000b";

const render = (scope: DataScope) => {
  const conds = scopeWhere(scope, accounts.tenantId, accounts.companyId);
  const where = and(...conds);
  if (!where) throw new Error("scopeWhere returned no condition");
  return { count: conds.length, ...new PgDialect().sqlToQuery(where) };
};

describe("scopeWhere", () => {
  it("a whole-tenant scope (null companies) keeps the tenant only", () => {
    const q = render({ tenantId: TENANT, companyIds: null });
    expect(q.count).toBe(1);
    expect(q.sql).toBe('"accounts"."tenant_id" = $1');
    expect(q.params).toEqual([TENANT]);
  });

  it("listed companies: the tenant and company_id in the list", () => {
    const q = render({ tenantId: TENANT, companyIds: [A, B] });
    expect(q.count).toBe(2);
    expect(q.sql).toBe('("accounts"."tenant_id" = $1 and "accounts"."company_id" in ($2, $3))');
    expect(q.params).toEqual([TENANT, A, B]);
  });

  it("an empty company list sees nothing: company_id must equal the nil UUID, which no row has", () => {
    const q = render({ tenantId: TENANT, companyIds: [] });
    expect(q.count).toBe(2);
    expect(q.sql).toBe('("accounts"."tenant_id" = $1 and "accounts"."company_id" in ($2))');
    expect(q.params).toEqual([TENANT, "00000000-0000-0000-0000-000000000000"]);
  });
});
