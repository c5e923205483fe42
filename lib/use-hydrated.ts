"use client";

import { useSyncExternalStore } from "react";

const noSubscription = () => () => {};

/**
 * True once React has hydrated the page; false in the server HTML and during hydration.
 *
 * A form streamed in the server HTML can be typed into before React attaches its handlers; React then hydrates the
 * controlled inputs back to their state and the typed value is lost (or, for a form without a handler yet, a native
 * submit posts it to the page). Forms disable their controls until this is true (a `<fieldset disabled>`), so a
 * person — or a browser test — waits the fraction of a second instead of losing what they typed. See
 * docs/architecture.md "Forms before hydration".
 *
 * @returns boolean, stable after the first client render.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
