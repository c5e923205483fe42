"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { SearchX } from "lucide-react";

/** What the first part of an address lists, and what one item of it is called. */
const SECTIONS: Record<string, { list: string; item: string; href?: string }> = {
  payments: { list: "Payments", item: "payment batch" },
  accounts: { list: "Accounts", item: "account" },
  counterparties: { list: "Counterparties", item: "counterparty" },
  approvals: { list: "Approvals", item: "approval" },
  transactions: { list: "Transactions", item: "transaction" },
  reconciliation: { list: "Reconciliation", item: "match" },
  organization: { list: "Organization", item: "corporate group" },
  reports: { list: "Reports", item: "report" },
  statements: { list: "Statements", item: "statement" },
  audit: { list: "Audit log", item: "audit entry" },
  webhooks: { list: "Webhooks", item: "webhook" },
  users: { list: "Users", item: "user" },
  policies: { list: "Approval policies", item: "policy" },
  categories: { list: "Categories", item: "category" },
};

/**
 * Where a "not found" page leads back to, from the address: `/payments/<id>` → the payments list and "payment
 * batch"; an address outside every section → the overview. Pure; exported for tests.
 */
export function notFoundTarget(pathname: string | null): {
  href: string;
  label: string;
  item: string | null;
} {
  const parts = (pathname ?? "/").split("/").filter(Boolean);
  const first = parts[0];
  const section = first && Object.hasOwn(SECTIONS, first) ? SECTIONS[first] : undefined;
  if (!section || !first) return { href: "/", label: "Overview", item: null };
  // `/organization/koncerner/<id>` names a corporate group.
  if (first === "organization" && parts[1] === "koncerner" && parts.length === 3)
    return { href: "/organization", label: section.list, item: "corporate group" };
  // `/payments/<id>` names one item; `/payments/nonsense/deeper` is an unknown page of that section.
  return { href: `/${first}`, label: section.list, item: parts.length === 2 ? section.item : null };
}

/**
 * The app's "not found" answer inside the shell: what was not found (from the address) and a way back to the
 * list it belongs to (or the overview). Used by the dashboard's not-found page for unknown addresses and for
 * items (batch, account, counterparty, approval, corporate group) the API does not know in the selected company.
 */
export function NotFoundState() {
  const pathname = usePathname();
  const target = notFoundTarget(pathname);
  return (
    <div className="max-w-3xl" data-testid="not-found">
      <div className="rounded-lg border border-slate-200 bg-white px-6 py-10 text-center">
        <SearchX className="mx-auto mb-3 size-6 text-slate-400" aria-hidden />
        <h1 className="text-base font-semibold text-slate-900">
          {target.item ? `This ${target.item} was not found` : "Page not found"}
        </h1>
        <p className="mx-auto mt-1 max-w-md text-[13px] text-slate-600">
          {target.item
            ? `No ${target.item} with this address exists in the selected company, or you may not see it. ` +
              "It may belong to another company: switch company at the top, or go back to the list."
            : "There is no page at this address. It may have moved, or the link may be mistyped."}
        </p>
        <p className="mt-1 break-all font-mono text-xs text-slate-500">{pathname}</p>
        <Link
          href={target.href}
          className={
            "mt-5 inline-flex h-8 items-center rounded-md bg-slate-900 px-3 text-[13px] font-medium text-white " +
            "hover:bg-slate-700"
          }
          data-testid="not-found-back"
        >
          Back to {target.label}
        </Link>
      </div>
    </div>
  );
}
