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
  const conds: SQL[] = [eq(tenantCol, scope.tenantId)];
  if (scope.companyIds !== null)
    conds.push(
      inArray(companyCol, scope.companyIds.length ? scope.companyIds : ["00000000-0000-0000-0000-000000000000"]),
    );
  return conds;
}
