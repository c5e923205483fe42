/**
 * The reads of a group report: one read per company, a bounded number at once, where a company whose read fails
 * is left out of the report and named, never failing the whole report.
 */
import type { Company } from "@treasury/contract";
import { mapLimit } from "../bff/queries/map-limit";

/** A company whose read failed, with the error's message, as a group report names it. */
export interface FailedCompany {
  id: string;
  name: string;
  message: string;
}

/**
 * Runs `read` for each of `companies`, at most `concurrency` at once. A read that throws or rejects gives `empty()`
 * in its place and is recorded in `failed` (company id -> the error's message). Never rejects for a failed read.
 * @returns `results` in the order of `companies`; `failed` in the order of `companies`.
 */
export async function readCompanies<R>(
  companies: readonly Company[],
  concurrency: number,
  read: (company: Company) => Promise<R>,
  empty: () => R,
): Promise<{ results: R[]; failed: Map<string, string>; failedCompanies: FailedCompany[] }> {
  const failed = new Map<string, string>();
  const results = await mapLimit(companies, concurrency, async (company) => {
    try {
      return await read(company);
    } catch (err) {
      failed.set(company.id, err instanceof Error ? err.message : String(err));
      return empty();
    }
  });
  return {
    results,
    failed,
    failedCompanies: companies
      .filter((c) => failed.has(c.id))
      .map((c) => ({ id: c.id, name: c.name, message: failed.get(c.id) ?? "" })),
  };
}
