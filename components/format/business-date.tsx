"use client";

import { formatBusinessDate, formatTimestamp } from "@/lib/format-date";
import { useLocale, useTimeZone, useTimeZoneKnown } from "./use-locale";

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
 * An instant in the viewer's locale and time zone (`useTimeZone`): the same text on the server render, after
 * hydration and after client-side navigation. `zone` appends the zone's short name (audit log, timelines, delivery
 * logs: where a reader compares times with other systems); the `<time>` element carries the ISO value. On a first
 * visit the server does not know the zone yet: the text is rendered hidden (no wrong time flashes, the layout holds)
 * and shown once the browser renders it in its zone.
 */
export function Timestamp({
  value,
  seconds = false,
  zone = false,
}: {
  value: string;
  seconds?: boolean;
  zone?: boolean;
}) {
  const locale = useLocale();
  const timeZone = useTimeZone();
  const known = useTimeZoneKnown();
  return (
    <time
      dateTime={value}
      className={known ? "whitespace-nowrap" : "invisible whitespace-nowrap"}
      title={`${value} (${timeZone})`}
    >
      {formatTimestamp(value, locale, { seconds, timeZone, zoneName: zone })}
    </time>
  );
}
