/**
 * Company context: a cookie set by the company
 * switcher, checked on every request against the companies the user may see
 * (the API client's companies, narrowed to the user's allowed list), and sent
 * upstream as `X-Company-ID`.
 */
import "server-only";
import type { Company } from "@treasury/contract";
import type { DashboardUser } from "../db/users";
import { collectAll } from "../treasury-client";
import { BffError } from "./errors";
import { treasury } from "../server/treasury";

/** Name of the company cookie (httpOnly, SameSite=Lax, path /). */
export const COMPANY_COOKIE = "td_company";

const TTL_MS = 30_000;
const g = globalThis as typeof globalThis & { __companyCache?: { at: number; companies: Promise<Company[]> } };

/** Every company of the API client, cached for 30 s per instance. */
export function clientCompanies(requestId?: string): Promise<Company[]> {
  const now = Date.now();
  const c = g.__companyCache;
  if (c && now - c.at < TTL_MS) return c.companies;
  const companies = collectAll(treasury().listCompanies({ requestId }, { pageSize: 1000 })).then((list) =>
    [...list].sort((a, b) => a.name.localeCompare(b.name)),
  );
  g.__companyCache = { at: now, companies };
  companies.catch(() => {
    if (g.__companyCache?.companies === companies) g.__companyCache = undefined;
  });
  return companies;
}

/** The companies `user` may see, by name. */
export async function visibleCompanies(user: DashboardUser, requestId?: string): Promise<Company[]> {
  const all = await clientCompanies(requestId);
  if (user.companyIds === null) return all;
  const allowed = new Set(user.companyIds);
  return all.filter((c) => allowed.has(c.id));
}

/** True when `user` may see `companyId`. */
export function mayUseCompany(user: DashboardUser, companies: readonly Company[], companyId: string): boolean {
  return companies.some((c) => c.id === companyId) && (user.companyIds === null || user.companyIds.includes(companyId));
}

/**
 * The company of this request: the cookie's company when the user may use
 * it, else (no cookie) the first visible company.
 * @throws BffError 403 when the cookie names a company the user may not use.
 */
export function chooseCompany(
  user: DashboardUser,
  companies: readonly Company[],
  cookieValue: string | undefined,
): Company | null {
  if (cookieValue) {
    const found = companies.find((c) => c.id === cookieValue);
    if (!found || !mayUseCompany(user, companies, cookieValue)) {
      throw new BffError(
        "permission_denied",
        "You do not have access to the selected company. Choose another company.",
        { company_id: cookieValue },
      );
    }
    return found;
  }
  return companies[0] ?? null;
}

/** Drops the cached company list (after a company upsert). */
export function invalidateCompanies(): void {
  g.__companyCache = undefined;
}
