import type { ReactNode } from "react";
import type { PageFailure } from "@/lib/bff/page";
import { PageHeader } from "./states";
import { PageProblem } from "./page-problem";

/**
 * The shell of an admin list page (cashflow categories, auto-confirm rules, approval policies): the failed load as a
 * `PageProblem`, else the page's header (`title`, `description`) above what `children(data)` renders from the loaded
 * data, in a `max-w-6xl` column.
 */
export function AdminPage<T>({
  result,
  title,
  description,
  children,
}: {
  result: { ok: true; data: T } | PageFailure;
  title: string;
  description: string;
  children: (data: T) => ReactNode;
}) {
  if (!result.ok) return <PageProblem load={result} />;
  return (
    <div className="max-w-6xl">
      <PageHeader title={title} description={description} />
      {children(result.data)}
    </div>
  );
}
