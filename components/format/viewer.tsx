"use client";

import { createContext, useContext, useEffect, type ReactNode } from "react";
import { DEFAULT_LOCALE, DEFAULT_TIME_ZONE, TIME_ZONE_COOKIE } from "@/lib/viewer";

/**
 * What the server rendered with: the request's locale and the zone from the `tz` cookie (lib/viewer.ts); `timeZone`
 * is null when the browser has not told its zone yet (first visit).
 */
export type Viewer = { locale: string; timeZone: string | null };

const ViewerContext = createContext<Viewer>({ locale: DEFAULT_LOCALE, timeZone: null });

/** The locale and zone the server rendered with; hooks use them as their server snapshot so hydration matches. */
export function useServerViewer(): Viewer {
  return useContext(ViewerContext);
}

/** The browser's own IANA time zone. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || DEFAULT_TIME_ZONE;
}

/**
 * Provides the server's view of the viewer to client components and, when the browser's zone differs from the
 * cookie the server read (first visit, travel, a changed OS setting), stores the browser's zone in the `tz` cookie
 * so the next server render is already in the viewer's zone. The page itself re-renders in the browser's zone at
 * once (see `useTimeZone`).
 */
export function ViewerProvider({ locale, timeZone, children }: Viewer & { children: ReactNode }) {
  useEffect(() => {
    const zone = browserTimeZone();
    if (zone !== timeZone) {
      document.cookie = `${TIME_ZONE_COOKIE}=${encodeURIComponent(zone)}; path=/; max-age=31536000; samesite=lax`;
    }
  }, [timeZone]);
  return <ViewerContext.Provider value={{ locale, timeZone }}>{children}</ViewerContext.Provider>;
}
