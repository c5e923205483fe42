"use client";

import dynamic from "next/dynamic";
import { usePathname } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { Menu } from "lucide-react";
import type { NavArea } from "./nav";
import { useHydrated } from "@/lib/use-hydrated";
import { useNotifications } from "./notification-queries";

// Radix's dialog stays off the first load: the sheet module loads right after hydration, closed.
const NavSheet = dynamic(() => import("./nav-sheet").then((m) => m.NavSheet), { ssr: false });

/**
 * The menu button of the header on narrow screens (hidden from `md` up, where
 * the sidebar shows the navigation): opens the navigation sheet. The sheet
 * closes when the route changes, so a link followed from it never leaves it
 * covering the new page. A dot on the button says there are unread notifications (the header has no room for the
 * bell on a phone; the sheet links to them with the count).
 */
export function MobileNav({ areas, name, roles }: { areas: NavArea[]; name: string; roles: string[] }) {
  const [open, setOpen] = useState(false);
  const { unread } = useNotifications();
  // Disabled until hydration: a tap on the server HTML would do nothing (docs/architecture.md "Forms before hydration").
  const hydrated = useHydrated();
  const button = useRef<HTMLButtonElement>(null);
  const pathname = usePathname();
  const [shownFor, setShownFor] = useState(pathname);
  if (shownFor !== pathname) {
    // A navigation happened (a link, back / forward): close, during render rather than in an effect.
    setShownFor(pathname);
    if (open) setOpen(false);
  }
  // Leaving the phone layout (rotation, a wider window) with the sheet open would leave a trap with no visible nav.
  useEffect(() => {
    const wide = window.matchMedia("(min-width: 48rem)");
    const onChange = () => wide.matches && setOpen(false);
    wide.addEventListener("change", onChange);
    return () => wide.removeEventListener("change", onChange);
  }, []);
  return (
    <>
      <button
        ref={button}
        type="button"
        className={
          "relative -ml-1 inline-flex size-11 shrink-0 items-center " +
          "justify-center rounded-md text-slate-700 hover:bg-slate-100 md:hidden"
        }
        aria-label={unread ? `Open menu, ${unread} unread notifications` : "Open menu"}
        aria-haspopup="dialog"
        aria-expanded={open}
        data-testid="menu-button"
        disabled={!hydrated}
        onClick={() => setOpen(true)}
      >
        <Menu className="size-5" aria-hidden />
        {unread > 0 && (
          <span
            className="absolute top-2 right-2 size-2.5 rounded-full bg-red-700 ring-2 ring-white"
            data-testid="menu-unread-dot"
            aria-hidden
          />
        )}
      </button>
      <NavSheet open={open} onOpenChange={setOpen} areas={areas} name={name} roles={roles} returnFocus={button} />
    </>
  );
}
