import Link from "next/link";

const LINKS = [
  { key: "review", href: "/reconciliation", label: "Review matches" },
  { key: "unmatched", href: "/reconciliation/unmatched", label: "Unmatched" },
] as const;

/** The two views of reconciliation: the review of proposed matches, and what is left unmatched. */
export function ReconciliationNav({ current }: { current: (typeof LINKS)[number]["key"] }) {
  return (
    <nav aria-label="Reconciliation views" className="mb-4 flex gap-2">
      {LINKS.map((l) => (
        <Link
          key={l.key}
          href={l.href}
          aria-current={l.key === current ? "page" : undefined}
          className={
            "inline-flex min-h-8 items-center rounded-md border px-3 text-[13px] font-medium " +
            (l.key === current
              ? "border-slate-900 bg-slate-900 text-white"
              : "border-slate-300 bg-white text-slate-700 hover:bg-slate-50")
          }
          data-testid={`reconciliation-nav-${l.key}`}
        >
          {l.label}
        </Link>
      ))}
    </nav>
  );
}
