"use client";

import { useSyncExternalStore } from "react";

/** Locale used for the server render and the first client render, so hydration matches. */
export const DEFAULT_LOCALE = "en-GB";

const subscribe = (cb: () => void) => {
  window.addEventListener("languagechange", cb);
  return () => window.removeEventListener("languagechange", cb);
};

/**
 * The viewer's locale (dates and amounts in the user's locale).
 * The server has no idea of it, so the server snapshot is `DEFAULT_LOCALE`;
 * after hydration React re-renders with `navigator.language`.
 */
export function useLocale(): string {
  return useSyncExternalStore(
    subscribe,
    () => navigator.language || DEFAULT_LOCALE,
    () => DEFAULT_LOCALE,
  );
}
