/** What the cash forecast's parts share (docs/forecast.md#the-page): field and heading styles, errors in words, downloads. */
import { BffRequestError } from "@/components/data/bff-fetch";
import type { Endpoint } from "@/lib/bff/endpoint";

/** A write of the forecast's inputs (`id`: the line's path parameter); true when it succeeded (then all is read again). */
export type ForecastWrite = (
  e: Endpoint<"POST" | "PUT" | "DELETE">,
  init?: { id?: string; body?: unknown },
) => Promise<boolean>;

export const field = "rounded-md border border-slate-300 px-2 py-1 text-[13px]";
export const section = "space-y-3";
export const h2 = "text-[15px] font-semibold text-slate-900";

/** The columns of the manual-line CSV (import and export). */
export const LINE_COLUMNS = [
  "date",
  "amount",
  "currency",
  "company_id",
  "category",
  "recurrence",
  "end_date",
  "note",
] as const;

/** A refusal in words: a 400's field errors as `field: message` joined by `; `, else the message. */
export function message(e: unknown): string {
  if (e instanceof BffRequestError) {
    const errors = (e.details.errors ?? {}) as Record<string, string[]>;
    const named = Object.entries(errors).map(([k, v]) => `${k}: ${v.join(", ")}`);
    return named.length ? named.join("; ") : e.message;
  }
  return e instanceof Error ? e.message : String(e);
}

/** Saves `text` as a file named `name` (the browser's download). */
export function download(name: string, text: string, type = "text/csv") {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.click();
  URL.revokeObjectURL(url);
}
