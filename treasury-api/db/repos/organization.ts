/**
 * Companies and koncerner repositories (docs/treasury-api.md#organization;
 * docs/architecture.md#reports for the breakdown). Functions `(db, scope, params)`; the scope is
 * in every `where`.
 */
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { ExactDecimal as Decimal } from "@treasury/contract/exact-decimal";
import type { Company, CompanyUpsert, Koncern, KoncernBreakdown } from "@treasury/contract/organization";
import { queryRows, type Db } from "../client";
import { companies, koncerner, koncernMembers, oauthClientCompanies } from "../schema";
import type { Caller } from "../../lib/context";
import { ApiError, companyNotAccessible, notFound } from "../../lib/errors";
import type { DataScope } from "../../lib/scope";
import { scopeWhere } from "../../lib/scope";
import { formatAmount } from "../../lib/format";
import { newId } from "../../lib/secrets";

type CompanyRow = typeof companies.$inferSelect;

export function toCompany(r: CompanyRow): Company {
  return { id: r.id, name: r.name, orgnr: r.orgnr, country: r.country };
}

/** Companies in scope, by name then id. */
export async function listCompanies(
  db: Db,
  scope: DataScope,
  paging: { limit: number; offset: number },
): Promise<{ rows: Company[]; count: number }> {
  const where = and(...scopeWhere(scope, companies.tenantId, companies.id));
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(companies)
      .where(where)
      .orderBy(asc(companies.name), asc(companies.id))
      .limit(paging.limit)
      .offset(paging.offset),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(companies)
      .where(where),
  ]);
  return { rows: rows.map(toCompany), count: Number(total?.n ?? 0) };
}

/** One company in scope, or 404. */
export async function getCompany(db: Db, scope: DataScope, id: string): Promise<Company> {
  const [row] = await db
    .select()
    .from(companies)
    .where(and(eq(companies.id, id), ...scopeWhere(scope, companies.tenantId, companies.id)));
  if (!row) throw notFound("Company");
  return toCompany(row);
}

/**
 * Upsert keyed on orgnr within the API client (docs/treasury-api.md#organization). Returns `created`
 * for the 201/200 choice. A Form B client is linked to a company it creates.
 * @throws 403 permission_denied, the same answer as for any company the client may not
 *   access, when the orgnr belongs to a company of the tenant the client may not see.
 */
export async function upsertCompany(
  db: Db,
  caller: Caller,
  body: CompanyUpsert,
): Promise<{ company: Company; created: boolean }> {
  return db.transaction(async (tx) => {
    const id = newId();
    const inserted = await tx
      .insert(companies)
      .values({ id, tenantId: caller.tenantId, orgnr: body.orgnr, name: body.name, country: body.country })
      .onConflictDoNothing()
      .returning();
    const created = inserted[0];
    if (created) {
      if (caller.form === "B")
        await tx.insert(oauthClientCompanies).values({ clientId: caller.clientId, companyId: created.id });
      return { company: toCompany(created), created: true };
    }
    const [existing] = await tx
      .select()
      .from(companies)
      .where(and(eq(companies.tenantId, caller.tenantId), eq(companies.orgnr, body.orgnr)));
    if (!existing) throw new ApiError("conflict", "The company changed concurrently; retry");
    // The same answer as for any company the caller may not access: a refusal does not say that the orgnr exists.
    if (!caller.companyIds.includes(existing.id)) throw companyNotAccessible();
    const [updated] = await tx
      .update(companies)
      .set({ name: body.name, country: body.country, updatedAt: new Date().toISOString() })
      .where(eq(companies.id, existing.id))
      .returning();
    return { company: toCompany(updated ?? existing), created: false };
  });
}

/** Koncerner that hold at least one company in scope. */
function koncernScopeWhere(scope: DataScope) {
  const conds = [eq(koncerner.tenantId, scope.tenantId)];
  if (scope.companyIds !== null) {
    conds.push(
      inArray(
        koncerner.id,
        sql`(select ${koncernMembers.koncernId} from ${koncernMembers} where
          ${inArray(
            koncernMembers.companyId,
            scope.companyIds.length ? scope.companyIds : ["00000000-0000-0000-0000-000000000000"],
          )})`,
      ),
    );
  }
  return and(...conds);
}

export async function listKoncerner(
  db: Db,
  scope: DataScope,
  paging: { limit: number; offset: number },
): Promise<{ rows: Koncern[]; count: number }> {
  const where = koncernScopeWhere(scope);
  const [rows, [total]] = await Promise.all([
    db
      .select({ id: koncerner.id, name: koncerner.name })
      .from(koncerner)
      .where(where)
      .orderBy(asc(koncerner.name), asc(koncerner.id))
      .limit(paging.limit)
      .offset(paging.offset),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(koncerner)
      .where(where),
  ]);
  return { rows, count: Number(total?.n ?? 0) };
}

export async function getKoncern(db: Db, scope: DataScope, id: string): Promise<Koncern> {
  const [row] = await db
    .select({ id: koncerner.id, name: koncerner.name })
    .from(koncerner)
    .where(and(eq(koncerner.id, id), koncernScopeWhere(scope)));
  if (!row) throw notFound("Koncern");
  return row;
}

/**
 * Breakdown of a koncern by company and currency: each account's latest
 * closing_booked balance, summed exactly per currency. Only companies in
 * scope are shown (isolation, docs/treasury-api.md#isolation).
 */
export async function koncernBreakdown(db: Db, scope: DataScope, id: string): Promise<KoncernBreakdown> {
  await getKoncern(db, scope, id);
  const visible =
    scope.companyIds === null
      ? sql`true`
      : inArray(sql`c.id`, scope.companyIds.length ? scope.companyIds : ["00000000-0000-0000-0000-000000000000"]);
  const rows = await queryRows<{ company_id: string; name: string; currency: string | null; balance: string | null }>(
    db,
    sql`
    select c.id::text as company_id, c.name, lb.currency, sum(lb.balance)::text as balance
    from koncern_members m
    join companies c on c.id = m.company_id and c.tenant_id = ${scope.tenantId}
    left join lateral (
      select a.currency, (select b.balance from balance_snapshots b where b.account_id = a.id and b.balance_type =
        'closing_booked' order by b.as_of_date desc limit 1) as balance
      from accounts a where a.company_id = c.id and a.status = 'active'
    ) lb on true
    where m.koncern_id = ${id} and ${visible}
    group by c.id, c.name, lb.currency
    order by c.name, c.id, lb.currency`,
  );
  const byCompany = new Map<string, KoncernBreakdown["companies"][number]>();
  const totals = new Map<string, Decimal>();
  for (const r of rows) {
    let entry = byCompany.get(r.company_id);
    if (!entry) {
      entry = { company_id: r.company_id, name: r.name, balances: [] };
      byCompany.set(r.company_id, entry);
    }
    if (r.currency && r.balance !== null) {
      entry.balances.push({ currency: r.currency, balance: formatAmount(r.balance, r.currency) });
      totals.set(r.currency, (totals.get(r.currency) ?? new Decimal(0)).plus(r.balance));
    }
  }
  return {
    koncern_id: id,
    companies: [...byCompany.values()],
    totals: [...totals.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([currency, sum]) => ({ currency, balance: formatAmount(sum, currency) })),
  };
}
