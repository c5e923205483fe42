"use client";

import { forwardRef, type FormHTMLAttributes } from "react";
import { useHydrated } from "@/lib/use-hydrated";

/**
 * A `<form>` whose controls stay disabled until the page has hydrated (docs/architecture.md "Forms before
 * hydration"): a value typed into the server HTML would be set back by hydration, and a submit would go to the page
 * itself. The controls sit in a `<fieldset disabled>` that takes no box of its own (`display: contents`), so the
 * form's layout (grid, flex) is its children's as before. Props are those of `<form>`.
 */
export const Form = forwardRef<HTMLFormElement, FormHTMLAttributes<HTMLFormElement>>(function Form(
  { children, ...rest },
  ref,
) {
  const hydrated = useHydrated();
  return (
    <form ref={ref} {...rest}>
      <fieldset disabled={!hydrated} className="contents">
        {children}
      </fieldset>
    </form>
  );
});
