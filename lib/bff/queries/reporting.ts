/** Reports (spec §4 Reporting), company-scoped. */
import "server-only";
import type { z } from "zod";
import { companyCall, type BffContext } from "../context";
import { pageParams, type ForecastQuery, type ReportQuery } from "../inputs";
import { treasury } from "../../server/treasury";
import { toBffPage } from "./page";

type Q = z.output<typeof ReportQuery>;

export async function cashflowDaily(ctx: BffContext, q: Q = {}) {
  return toBffPage(
    await treasury().cashflowDaily(companyCall(ctx), {
      ...pageParams(q),
      from_date: q.from_date,
      to_date: q.to_date,
      currency: q.currency,
    }),
  );
}

export async function positionsDaily(ctx: BffContext, q: Q = {}) {
  return toBffPage(
    await treasury().positionsDaily(companyCall(ctx), {
      ...pageParams(q),
      from_date: q.from_date,
      to_date: q.to_date,
      currency: q.currency,
    }),
  );
}

export async function forecast(ctx: BffContext, q: z.output<typeof ForecastQuery> = {}) {
  return toBffPage(
    await treasury().forecast(companyCall(ctx), {
      ...pageParams(q),
      from_date: q.from_date,
      to_date: q.to_date,
      currency: q.currency,
      days: q.days,
    }),
  );
}
