import type { Metadata } from "next";
import { loadData, loadPage } from "@/lib/bff/page";
import { categoriesView } from "@/lib/bff/queries/categories";
import { PageHeader } from "@/components/ui/states";
import { PageProblem } from "@/components/ui/page-problem";
import { CategoriesAdmin } from "@/components/categories/categories-admin";

export const metadata: Metadata = { title: "Cashflow categories" };

/** Cashflow categories (admin): the ordered rules and a form that previews a rule before saving it. */
export default async function CategoriesPage() {
  const load = await loadPage("categories");
  if (!load.ok) return <PageProblem load={load} />;
  const data = await loadData(load.ctx, () => categoriesView());
  if (!data.ok) return <PageProblem load={data} />;
  return (
    <div className="max-w-6xl">
      <PageHeader
        title="Cashflow categories"
        description="The first rule that matches a transaction names its category in reports, lists and exports; the rest are Uncategorised"
      />
      <CategoriesAdmin initial={data.data} />
    </div>
  );
}
