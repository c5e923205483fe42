/**
 * List shapes (docs/treasury-api.md#list-conventions limits; docs/architecture.md#one-service-both-forms).
 * Form A: bare arrays with `limit` (default 100, max 1000).
 * Form B: the pagination envelope with `page` / `page_size` (default 100, max 1000)
 * and absolute `next` / `previous` URLs, null when absent.
 */
import { z } from "zod";

export const PAGE_SIZE_DEFAULT = 100;
export const PAGE_SIZE_MAX = 1000;

/**
 * A whole number written as text (a query parameter, an environment variable): digits only, then a number from
 * `min` to `max`. Messages leave the name out, since the validation error puts the field name first ("page must be
 * at least 1").
 */
export const wholeNumberText = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, { message: "must be a whole number" })
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(min, { message: `must be at least ${min}` })
        .max(max, { message: `must be at most ${max}` }),
    );

/** A whole-number query parameter; the OpenAPI document shows it as an integer with its bounds, as clients send it. */
const intParam = (min: number, max: number) =>
  wholeNumberText(min, max).meta({ type: "integer", minimum: min, maximum: max });

/** `page` query parameter, 1-indexed. */
export const PageParam = intParam(1, 1_000_000);
/** `page_size` query parameter, 1..1000. */
export const PageSizeParam = intParam(1, PAGE_SIZE_MAX);
/** `limit` query parameter (Form A), 1..1000. */
export const LimitParam = intParam(1, PAGE_SIZE_MAX);

/** The Form B pagination envelope around rows of `item`. */
export function envelope<T extends z.ZodType>(item: T) {
  return z.object({
    count: z.number().int().min(0),
    total_pages: z.number().int().min(0),
    page: z.number().int().min(1),
    page_size: z.number().int().min(1),
    next: z.string().nullable(),
    previous: z.string().nullable(),
    results: z.array(item),
  });
}

export type Envelope<T> = {
  count: number;
  total_pages: number;
  page: number;
  page_size: number;
  next: string | null;
  previous: string | null;
  results: T[];
};

/** A list response in either form: a bare array (Form A) or an envelope (Form B). */
export function listOf<T extends z.ZodType>(item: T) {
  return z.union([z.array(item), envelope(item)]);
}
