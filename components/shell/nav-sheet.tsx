"use client";

import * as Dialog from "@radix-ui/react-dialog";
import Link from "next/link";
import { Bell, Landmark, UserRound, X } from "lucide-react";
import type { ReactNode, RefObject } from "react";
import { Nav, type NavArea } from "./nav";
import { useNotifications } from "./notification-queries";

/** Props of `NavSheet`. `returnFocus` is the menu button, focused again when the sheet closes. */
export interface NavSheetProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  areas: NavArea[];
  name: string;
  roles: string[];
  returnFocus: RefObject<HTMLButtonElement | null>;
}

/**
 * The navigation as a sheet from the left, for narrow screens (below `md`):
 * a Radix dialog, so focus is trapped inside, Escape and a tap on the
 * overlay close it, and it is labelled by its title. Following a link closes
 * it. Also says who is signed in and links to the notifications with their unread count, for which the header has no
 * room on a phone.
 * Loaded after hydration by `MobileNav`, never on the first load.
 */
export function NavSheet({ open, onOpenChange, areas, name, roles, returnFocus }: NavSheetProps) {
  const { unread } = useNotifications();
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/40" />
        <Dialog.Content
          data-testid="nav-sheet"
          className={
            "fixed inset-y-0 left-0 z-50 flex w-72 " +
            "max-w-[85vw] flex-col overflow-y-auto bg-slate-900 pb-4 shadow-xl"
          }
          onCloseAutoFocus={(e) => {
            // The button opening the sheet is not a Radix trigger (the sheet loads lazily): focus goes back by hand.
            e.preventDefault();
            returnFocus.current?.focus();
          }}
        >
          <div className="flex items-center justify-between gap-2 py-1 pl-4 pr-1 text-white">
            <Dialog.Title className="flex items-center gap-2 text-sm font-semibold tracking-tight">
              <Landmark className="size-5 text-sky-400" aria-hidden />
              Treasury menu
            </Dialog.Title>
            <Dialog.Close
              className={
                "inline-flex size-11 items-center justify-center " +
                "rounded-md text-slate-300 hover:bg-slate-800 hover:text-white"
              }
              aria-label="Close menu"
            >
              <X className="size-5" aria-hidden />
            </Dialog.Close>
          </div>
          <Dialog.Description className="sr-only">Areas of the dashboard you may use.</Dialog.Description>
          <Nav areas={areas} touch onNavigate={() => onOpenChange(false)} />
          <div className="mt-auto border-t border-slate-700 px-4 pt-3 text-slate-300">
            <div className="text-[13px] font-medium text-white" data-testid="sheet-user-name">
              {name}
            </div>
            <div className="text-xs" data-testid="sheet-user-roles">
              {roles.join(", ")}
            </div>
            <SheetLink href="/profile" first onNavigate={() => onOpenChange(false)} testId="sheet-profile-link">
              <UserRound className="size-4" aria-hidden />
              Profile
            </SheetLink>
            <SheetLink href="/notifications" onNavigate={() => onOpenChange(false)} testId="sheet-notifications-link">
              <Bell className="size-4" aria-hidden />
              Notifications
              {unread > 0 && (
                <span
                  className="ml-auto rounded-full bg-red-700 px-1.5 text-xs font-semibold text-white tabular-nums"
                  data-testid="sheet-notification-count"
                >
                  {unread > 99 ? "99+" : unread}
                  <span className="sr-only"> unread</span>
                </span>
              )}
            </SheetLink>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** A link of the sheet's signed-in block (profile, notifications): a 44 px touch target that closes the sheet. */
function SheetLink({
  href,
  first = false,
  onNavigate,
  testId,
  children,
}: {
  href: string;
  first?: boolean;
  onNavigate: () => void;
  testId: string;
  children: ReactNode;
}) {
  return (
    <Link
      href={href}
      onClick={onNavigate}
      className={`-mx-2 ${first ? "mt-1 " : ""}flex min-h-11 items-center gap-2 rounded-md px-2 text-[13px] hover:bg-slate-800 hover:text-white`}
      data-testid={testId}
    >
      {children}
    </Link>
  );
}
