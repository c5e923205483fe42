import type { LucideIcon } from "lucide-react";
import { EmptyState, PageHeader } from "./states";

/** An area whose views are not built yet: the header and an honest empty state. */
export function AreaEmpty({
  title,
  description,
  emptyTitle,
  icon,
  children,
}: {
  title: string;
  description: string;
  emptyTitle: string;
  icon: LucideIcon;
  children: string;
}) {
  return (
    <div className="max-w-5xl">
      <PageHeader title={title} description={description} />
      <EmptyState title={emptyTitle} icon={icon}>
        {children}
      </EmptyState>
    </div>
  );
}
