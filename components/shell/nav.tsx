"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import {
  Cable,
  ShieldCheck,
  ArrowLeftRight,
  BarChart3,
  Building2,
  CheckCheck,
  Contact,
  FileUp,
  GitCompareArrows,
  Landmark,
  LayoutDashboard,
  ListChecks,
  ScrollText,
  Send,
  Users,
  Webhook,
  type LucideIcon,
} from "lucide-react";
import type { AreaKey } from "@/lib/auth/roles";
import { useWaitingCount } from "./notification-queries";

const ICONS: Record<AreaKey, LucideIcon> = {
  overview: LayoutDashboard,
  accounts: Landmark,
  transactions: ArrowLeftRight,
  reports: BarChart3,
  payments: Send,
  counterparties: Contact,
  approvals: CheckCheck,
  reconciliation: GitCompareArrows,
  webhooks: Webhook,
  organization: Building2,
  policies: ShieldCheck,
  categories: BarChart3,
  "reconciliation-rules": ListChecks,
  statements: FileUp,
  "bank-connections": Cable,
  audit: ScrollText,
  users: Users,
};

export interface NavArea {
  key: AreaKey;
  label: string;
  href: string;
}

/**
 * The navigation: only the areas the user may use (decided on the server).
 * `touch` gives links 44 px targets (the phone sheet); `onNavigate` runs when a link is followed.
 * Approvals carries the number of batches waiting for this user's approval (docs/users-and-notifications.md).
 */
export function Nav({
  areas,
  touch = false,
  onNavigate,
}: {
  areas: NavArea[];
  touch?: boolean;
  onNavigate?: () => void;
}) {
  const pathname = usePathname();
  const waiting = useWaitingCount(areas.some((a) => a.key === "approvals"));
  return (
    <nav aria-label="Main" className="flex flex-col gap-0.5 px-2">
      {areas.map((a) => {
        const Icon = ICONS[a.key];
        const active = a.href === "/" ? pathname === "/" : pathname === a.href || pathname.startsWith(`${a.href}/`);
        return (
          <Link
            key={a.key}
            href={a.href}
            data-area={a.key}
            aria-current={active ? "page" : undefined}
            onClick={onNavigate}
            className={`flex items-center gap-2.5 rounded-md px-2.5 font-medium transition-colors ${
              touch ? "min-h-11 text-sm" : "py-1.5 text-[13px]"
            } ${active ? "bg-slate-800 text-white" : "text-slate-300 hover:bg-slate-800/60 hover:text-white"}`}
          >
            <Icon className="size-4 shrink-0" aria-hidden />
            {a.label}
            {a.key === "approvals" && waiting !== undefined && waiting > 0 && (
              <span
                className="ml-auto rounded-full bg-sky-400 px-1.5 text-xs font-semibold text-slate-900 tabular-nums"
                data-testid="approvals-waiting"
              >
                {waiting > 99 ? "99+" : waiting}
                <span className="sr-only"> waiting for your approval</span>
              </span>
            )}
          </Link>
        );
      })}
    </nav>
  );
}
