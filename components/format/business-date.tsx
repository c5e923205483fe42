"use client";

import { formatBusinessDate, formatTimestamp } from "@/lib/format-date";
import { useLocale } from "./use-locale";

/**
 * A business date `YYYY-MM-DD` in the viewer's locale (a `<time>` with the ISO value), never shifted by a time zone.
 */
export function BusinessDate({ date, style = "medium" }: { date: string; style?: "medium" | "short" | "long" }) {
  const locale = useLocale();
  return (
    <time dateTime={date} className="whitespace-nowrap">
      {formatBusinessDate(date, locale, style)}
    </time>
  );
}

/**
 * An instant in the viewer's locale and time zone. Rendered after hydration in the viewer's zone; the server shows UTC.
 */
export function Timestamp({ value, seconds = false }: { value: string; seconds?: boolean }) {
  const locale = useLocale();
  // The server cannot know the viewer's zone: it renders UTC, and the client re-renders in the viewer's zone once the
  // locale store resolves.
  const serverPass = locale === "en-GB" && typeof window === "undefined";
  return (
    <time dateTime={value} className="whitespace-nowrap" suppressHydrationWarning>
      {formatTimestamp(value, locale, { seconds, ...(serverPass ? { timeZone: "UTC" } : {}) })}
    </time>
  );
}
