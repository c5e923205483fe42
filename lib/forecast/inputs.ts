/**
 * Inputs of the forecast routes, validated with zod (docs/forecast.md#the-routes): a manual line, a scenario and
 * its adjustments, a threshold, the forecast query. A refused input is a 400 naming the field (e.g.
 * `currency: is not an ISO 4217 currency code`, `adjustments.0.days: must be between -365 and 365`).
 */
import Decimal from "decimal.js";
import { z } from "zod";
import { CurrencyCode, IsoDate, Uuid, freeText, text } from "@treasury/contract/common";
import { MAX_WEEKS } from "./engine";
import { MAX_SHIFT_DAYS } from "./scenario";

/** A signed decimal string of at most 15 integer digits and 4 decimals. */
const SignedAmount = z
  .string()
  .trim()
  .regex(/^-?\d{1,15}(\.\d{1,4})?$/, { message: "must be a decimal string such as -1250.00" });

const Name = (max: number) => text(max);

/** A manual line as created or replaced (the owner is the signed-in user). */
export const ManualLineInput = z
  .object({
    date: IsoDate,
    amount: SignedAmount.refine((a) => !new Decimal(a).isZero(), "must not be zero"),
    currency: CurrencyCode,
    company_id: Uuid,
    category: Name(60),
    recurrence: z.enum(["once", "weekly", "monthly", "quarterly"], {
      message: "must be once, weekly, monthly or quarterly",
    }),
    end_date: IsoDate.nullable().default(null),
    note: freeText(500, 0).nullable().default(null),
  })
  .strict()
  .superRefine((l, ctx) => {
    if (l.end_date !== null && l.end_date < l.date)
      ctx.addIssue({ code: "custom", path: ["end_date"], message: "must be on or after date" });
  });
export type ManualLineInput = z.output<typeof ManualLineInput>;

const Filter = z
  .object({
    company: Name(100).optional(),
    currency: CurrencyCode.optional(),
    category: Name(60).optional(),
    source: z
      .enum(["batch", "manual", "recurring", "statistical"], {
        message: "must be batch, manual, recurring or statistical",
      })
      .optional(),
    ref: Name(200).optional(),
    from: IsoDate.optional(),
    to: IsoDate.optional(),
  })
  .strict()
  .default({})
  .superRefine((f, ctx) => {
    if (f.from && f.to && f.to < f.from)
      ctx.addIssue({ code: "custom", path: ["to"], message: "must be on or after from" });
  });

/** One scenario adjustment (lib/forecast/scenario.ts `Adjustment`). */
export const AdjustmentInput = z.discriminatedUnion(
  "type",
  [
    z
      .object({
        type: z.literal("percent"),
        filter: Filter,
        percent: z
          .string()
          .regex(/^-?\d{1,4}(\.\d{1,2})?$/, { message: "must be a decimal string such as -10" })
          .refine((p) => new Decimal(p).gte(-100) && new Decimal(p).lte(1000), "must be between -100 and 1000"),
      })
      .strict(),
    z
      .object({
        type: z.literal("shift"),
        filter: Filter,
        days: z
          .number({ message: "must be a whole number of days" })
          .int("must be a whole number of days")
          .min(-MAX_SHIFT_DAYS, `must be between -${MAX_SHIFT_DAYS} and ${MAX_SHIFT_DAYS}`)
          .max(MAX_SHIFT_DAYS, `must be between -${MAX_SHIFT_DAYS} and ${MAX_SHIFT_DAYS}`),
      })
      .strict(),
    z.object({ type: z.literal("drop"), filter: Filter }).strict(),
    z
      .object({
        type: z.literal("add"),
        flow: z
          .object({
            date: IsoDate,
            amount: SignedAmount,
            currency: CurrencyCode,
            company: Name(100),
            category: Name(60),
            label: Name(200).optional(),
          })
          .strict(),
      })
      .strict(),
    z
      .object({
        type: z.literal("fx"),
        currency: CurrencyCode,
        rate: z
          .string()
          .regex(/^\d{1,9}(\.\d{1,10})?$/, { message: "must be a positive decimal string such as 0.0921" })
          .refine((r) => new Decimal(r).gt(0), "must be greater than zero"),
      })
      .strict(),
  ],
  { message: "must be one of percent, shift, drop, add, fx" },
);
export type AdjustmentInput = z.output<typeof AdjustmentInput>;

/** A scenario as created or replaced. */
export const ScenarioInput = z
  .object({
    name: Name(80),
    team: Name(60).default("finance"),
    adjustments: z.array(AdjustmentInput).max(50, "must hold at most 50 adjustments"),
  })
  .strict();
export type ScenarioInput = z.output<typeof ScenarioInput>;

/** Switches a detected recurring payee on or off. */
export const RecurringSwitchInput = z
  .object({ id: Name(400), enabled: z.boolean({ message: "must be true or false" }) })
  .strict();

/** The minimum cash of a company in the reporting currency; null removes it. */
export const ThresholdInput = z
  .object({
    company_id: Uuid,
    amount: SignedAmount.nullable(),
  })
  .strict();

/** A query's `weeks`: a whole number from 1 to MAX_WEEKS (26), `fallback` when absent; 400 names `weeks`. */
function weeksParam(fallback: number) {
  const message = `must be a whole number from 1 to ${MAX_WEEKS}`;
  return z.coerce.number({ message }).int(message).min(1, message).max(MAX_WEEKS, message).default(fallback);
}

/**
 * The forecast query: weeks ahead (1–26, default 13), day or week buckets, up to 3 scenario ids, the reporting
 * currency (default the user's) and `refresh=1` to recompute instead of reading the cache.
 */
export const ForecastQuery = z
  .object({
    weeks: weeksParam(13),
    granularity: z.enum(["day", "week"], { message: "must be day or week" }).default("week"),
    scenarios: z
      .string()
      .optional()
      .transform((s) => (s ? s.split(",").filter(Boolean) : []))
      .pipe(z.array(z.uuid({ message: "must be scenario ids (UUIDs)" })).max(3, "must name at most 3 scenarios")),
    currency: CurrencyCode.optional(),
    refresh: z.enum(["0", "1"], { message: "must be 0 or 1" }).optional(),
  })
  .strict();

/**
 * The variance query (docs/forecast.md#variance): the last `weeks` complete ISO weeks (1–26, default 8), optionally
 * one `category`, in the reporting `currency` (default the user's).
 */
export const VarianceQuery = z
  .object({
    weeks: weeksParam(8),
    category: Name(60).optional(),
    currency: CurrencyCode.optional(),
  })
  .strict();
export type VarianceQuery = z.output<typeof VarianceQuery>;

/**
 * A past week's forecast snapshot as the test seam stores it (`POST /api/forecast/snapshots`, only with
 * `DASHBOARD_TEST_SEAMS=1`; docs/forecast.md#variance): what the first forecast of the week of `as_of` would have
 * kept — its history's last day, its horizon's last day (1–26 weeks after `as_of`) and its weekly totals per ISO
 * week (a Monday wholly inside the horizon), currency and category.
 */
export const SnapshotInput = z
  .object({
    company_id: Uuid,
    as_of: IsoDate,
    forecast_to: IsoDate,
    rows: z
      .array(
        z
          .object({
            week_start: IsoDate.refine((d) => new Date(`${d}T00:00:00Z`).getUTCDay() === 1, "must be a Monday"),
            currency: CurrencyCode,
            category: Name(60),
            amount: SignedAmount,
          })
          .strict(),
      )
      .min(1, "must hold at least one row")
      .max(500, "must hold at most 500 rows"),
  })
  .strict()
  .superRefine((s, ctx) => {
    const days = (Date.parse(s.forecast_to) - Date.parse(s.as_of)) / 86_400_000;
    if (!(days >= 7 && days <= MAX_WEEKS * 7))
      ctx.addIssue({ code: "custom", path: ["forecast_to"], message: "must be 1–26 weeks after as_of" });
    s.rows.forEach((r, i) => {
      const start = Date.parse(r.week_start);
      if (start <= Date.parse(s.as_of) || start + 6 * 86_400_000 > Date.parse(s.forecast_to))
        ctx.addIssue({
          code: "custom",
          path: ["rows", i, "week_start"],
          message: "must begin a week inside the horizon",
        });
    });
  });
export type SnapshotInput = z.output<typeof SnapshotInput>;
