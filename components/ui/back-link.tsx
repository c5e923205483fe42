import Link from "next/link";
import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";

/** The small link above a detail page's header back to where it belongs (`href`), its arrow `icon` before `children`. */
export function BackLink({ href, icon: Icon, children }: { href: string; icon: LucideIcon; children: ReactNode }) {
  return (
    <Link href={href} className="mb-2 inline-flex items-center gap-1 text-[13px] text-slate-600 hover:text-slate-900">
      <Icon className="size-3.5" aria-hidden /> {children}
    </Link>
  );
}
