/**
 * Toasts without sonner on the first load. `toast.success / error /
 * warning(message)` load sonner on first use and hand the message on; the
 * `<Toaster />` of `components/providers.tsx` is loaded the same way right
 * after hydration, and sonner replays toasts raised before it subscribed,
 * so nothing is lost. Use this module instead of importing `toast` from
 * "sonner", or sonner (≈ 9 KB gz) returns to the page's first-load JS.
 */

type ToastKind = "success" | "error" | "warning";

function show(kind: ToastKind, message: string): void {
  void import("sonner").then(({ toast: sonner }) => {
    sonner[kind](message);
  });
}

/** The subset of sonner's `toast` the dashboard uses; messages are plain text. */
export const toast = {
  success: (message: string): void => show("success", message),
  error: (message: string): void => show("error", message),
  warning: (message: string): void => show("warning", message),
};
