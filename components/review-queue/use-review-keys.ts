"use client";

import { useEffect, useRef, useState } from "react";

export interface ReviewKeyHandlers {
  /** Rows in the list; the active row stays within 0..count-1. */
  count: number;
  /** False while a dialog is open, so its keys are its own. */
  enabled: boolean;
  onToggle: (index: number) => void;
  onApprove: (index: number) => void;
  onReject: (index: number) => void;
  onHelp: () => void;
}

function typing(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}

/**
 * The review keyboard model of the approval queue and the reconciliation
 * review: j / k move, x selects, a approves (or confirms),
 * r rejects, ? opens the help. Keys are ignored while typing in a field,
 * with a modifier held, or when `enabled` is false. The active row is
 * scrolled into view and focused (`[data-row-index]`), so screen readers
 * follow it too.
 */
export function useReviewKeys(h: ReviewKeyHandlers): { active: number; setActive: (i: number) => void } {
  const [active, setActive] = useState(0);
  const ref = useRef(h);
  const activeRef = useRef(active);
  useEffect(() => {
    ref.current = h;
    activeRef.current = active;
  });
  useEffect(() => {
    function onKey(e: KeyboardEvent) {
      const cur = ref.current;
      if (!cur.enabled || e.metaKey || e.ctrlKey || e.altKey || typing(e.target)) return;
      const i = Math.min(activeRef.current, Math.max(0, cur.count - 1));
      const move = (to: number) => {
        const next = Math.max(0, Math.min(cur.count - 1, to));
        setActive(next);
        document.querySelector<HTMLElement>(`[data-row-index="${next}"]`)?.focus();
      };
      switch (e.key) {
        case "j":
          move(i + 1);
          break;
        case "k":
          move(i - 1);
          break;
        case "x":
          if (cur.count) cur.onToggle(i);
          break;
        case "a":
          if (cur.count) cur.onApprove(i);
          break;
        case "r":
          if (cur.count) cur.onReject(i);
          break;
        case "?":
          cur.onHelp();
          break;
        default:
          return;
      }
      e.preventDefault();
    }
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
  return { active, setActive };
}
