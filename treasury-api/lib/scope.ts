/**
 * The data scope a request may see (docs/treasury-api.md#isolation;
 * docs/architecture.md#one-service-both-forms). Repositories are functions `(db, scope, params)` and
 * put this scope into every `where`.
 */
import { inArray, eq, type SQL, type AnyColumn } from "drizzle-orm";

export interface DataScope {
  /** The tenant every row must belong to. */
  tenantId: string;
  /**
   * The companies the request may see. `null` means every company of the
   * tenant (Form A without `X-Company-ID`). An empty array sees nothing.
   */
  companyIds: string[] | null;
}

/**
 * The `where` condition that keeps a table to the scope.
 * @param tenantCol the table's tenant_id column
 * @param companyCol the table's company_id column
 */
export function scopeWhere(scope: DataScope, tenantCol: AnyColumn, companyCol: AnyColumn): SQL[] {
  return [eq(tenantCol, scope.tenantId), ...companyWhere(scope, companyCol)];
}

/**
 * The company half of `scopeWhere` alone: `[]` for a tenant-wide scope, else the scope's companies (none matches
 * for an empty list). Only for a query that checks the tenant itself, as `listTransactionsJson` does
 * (docs/architecture.md#list-responses).
 * @param companyCol the table's company_id column
 */
export function companyWhere(scope: DataScope, companyCol: AnyColumn): SQL[] {
  if (scope.companyIds === null) return [];
  return [inArray(companyCol, scope.companyIds.length ? scope.companyIds : ["00000000-0000-0000-0000-000000000000"])];
}
