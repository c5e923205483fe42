"use client";

import { useSyncExternalStore } from "react";
import { browserTimeZone, useServerViewer } from "./viewer";

import { DEFAULT_TIME_ZONE } from "@/lib/viewer";

export { DEFAULT_LOCALE } from "@/lib/viewer";

const subscribeLanguage = (cb: () => void) => {
  window.addEventListener("languagechange", cb);
  return () => window.removeEventListener("languagechange", cb);
};
const noSubscription = () => () => {};

/**
 * The viewer's locale (dates and amounts in the user's locale). The server renders with the locale of the request's
 * Accept-Language (`ViewerProvider`); after hydration React re-renders with `navigator.language` if that differs.
 */
export function useLocale(): string {
  const server = useServerViewer().locale;
  return useSyncExternalStore(
    subscribeLanguage,
    () => navigator.language || server,
    () => server,
  );
}

/**
 * The viewer's IANA time zone. The server snapshot is the zone the server rendered with (the `tz` cookie, else UTC);
 * in the browser it is the browser's zone, so every instant is shown in the viewer's zone after hydration and after
 * client-side navigation alike, and on first paint too once the cookie is set.
 */
export function useTimeZone(): string {
  const server = useServerViewer().timeZone ?? DEFAULT_TIME_ZONE;
  return useSyncExternalStore(noSubscription, browserTimeZone, () => server);
}

/**
 * Whether `useTimeZone` is the viewer's real zone: always in the browser; on the server only when the `tz` cookie
 * told it. Where it is not, time-of-day text is rendered hidden (layout kept) until the browser renders it.
 */
export function useTimeZoneKnown(): boolean {
  const server = useServerViewer().timeZone !== null;
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => server,
  );
}
