"use client";

import { forwardRef, type ButtonHTMLAttributes } from "react";
import { useHydrated } from "@/lib/use-hydrated";

export type ButtonVariant = "primary" | "secondary" | "danger" | "ghost";

const VARIANTS: Record<ButtonVariant, string> = {
  primary: "bg-slate-900 text-white hover:bg-slate-800 border border-slate-900",
  secondary: "border border-slate-300 bg-white text-slate-700 hover:bg-slate-100",
  danger: "border border-red-700 bg-red-700 text-white hover:bg-red-800",
  ghost: "border border-transparent text-slate-600 hover:bg-slate-100",
};

/** The class of a dense action button (32 px high) in one of four tones. */
export function buttonClass(variant: ButtonVariant = "secondary", extra = ""): string {
  return (
    `inline-flex h-8 items-center justify-center gap-1.5 rounded-md px-3 text-[13px] font-medium ` +
    `disabled:cursor-not-allowed disabled:opacity-50 ${VARIANTS[variant]} ${extra}`
  );
}

/**
 * The class of an icon-only button (close, remove, cancel): a 32 × 32 px target, above the 24 × 24 px minimum of
 * WCAG 2.2 target size, whatever the icon's size. The button needs an `aria-label`.
 */
export function iconButtonClass(extra = ""): string {
  return (
    "inline-flex size-8 shrink-0 items-center justify-center rounded-md text-slate-500 hover:bg-slate-100 " +
    `disabled:cursor-not-allowed disabled:opacity-50 ${extra}`
  );
}

/**
 * A dense action button; `pending` disables it and sets `aria-busy`, so a second click cannot start a second request.
 * It is also disabled until the page has hydrated: a click on the server HTML would do nothing (its handler is not
 * attached yet) and be lost (docs/architecture.md "Forms before hydration").
 */
export const Button = forwardRef<
  HTMLButtonElement,
  ButtonHTMLAttributes<HTMLButtonElement> & { variant?: ButtonVariant; pending?: boolean }
>(function Button(
  { variant = "secondary", pending = false, className = "", disabled, type = "button", children, ...rest },
  ref,
) {
  const hydrated = useHydrated();
  return (
    <button
      ref={ref}
      type={type}
      className={buttonClass(variant, className)}
      disabled={disabled || pending || !hydrated}
      aria-busy={pending || undefined}
      {...rest}
    >
      {children}
    </button>
  );
});
