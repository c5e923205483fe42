/**
 * Toasts without sonner on the first load. `toast.success / error /
 * warning(message)` load sonner on first use and hand the message on; the
 * `<Toaster />` of `components/providers.tsx` is loaded the same way right
 * after hydration, and sonner replays toasts raised before it subscribed,
 * so nothing is lost. Use this module instead of importing `toast` from
 * "sonner", or sonner (≈ 9 KB gz) returns to the page's first-load JS.
 */

type ToastKind = "success" | "error" | "warning";

/** Options of a toast: one action button (e.g. Undo) and how long it stays, in milliseconds. */
export interface ToastOptions {
  action?: { label: string; onClick: () => void };
  duration?: number;
}

function show(kind: ToastKind, message: string, options?: ToastOptions): void {
  void import("sonner").then(({ toast: sonner }) => {
    sonner[kind](message, options);
  });
}

/** The subset of sonner's `toast` the dashboard uses; messages are plain text, with an optional action. */
export const toast = {
  success: (message: string, options?: ToastOptions): void => show("success", message, options),
  error: (message: string, options?: ToastOptions): void => show("error", message, options),
  warning: (message: string, options?: ToastOptions): void => show("warning", message, options),
};
