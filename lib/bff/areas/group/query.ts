/**
 * Path and query of the group area's report routes (./routes.ts): `kind` (cashflow, positions,
 * forecast), an optional `from_date`..`to_date` (default the last 30 days;
 * a reversed pair is refused naming `to_date`) and an optional `currency`
 * (checked against the supported reporting currencies by the handler).
 */
import { z } from "zod";
import { IsoDate } from "@treasury/contract";
import { todayUtc } from "@/lib/dates";
import { resolveDateRange } from "@/lib/url-state/date-range";

export const GroupReportParams = z.object({ kind: z.enum(["cashflow", "positions", "forecast"]) });

export const GroupReportQuery = z
  .object({ from_date: IsoDate.optional(), to_date: IsoDate.optional(), currency: z.string().optional() })
  .refine((q) => !q.from_date || !q.to_date || q.from_date <= q.to_date, {
    message: "must not be before from_date",
    path: ["to_date"],
  });

/** The inclusive range of a parsed query (the last 30 days when none is given). */
export function rangeOf(q: z.output<typeof GroupReportQuery>) {
  const r = resolveDateRange({ from: q.from_date ?? null, to: q.to_date ?? null }, todayUtc(), "30d");
  return { from_date: r.from_date, to_date: r.to_date };
}
