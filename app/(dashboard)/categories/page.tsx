import type { Metadata } from "next";
import { loadPageData } from "@/lib/bff/page";
import { categoriesView } from "@/lib/bff/queries/categories";
import { AdminPage } from "@/components/ui/admin-page";
import { CategoriesAdmin } from "@/components/categories/categories-admin";

export const metadata: Metadata = { title: "Cashflow categories" };

/** Cashflow categories (admin): the ordered rules and a form that previews a rule before saving it. */
export default async function CategoriesPage() {
  const result = await loadPageData("categories", () => categoriesView());
  return (
    <AdminPage
      result={result}
      title="Cashflow categories"
      description="The first rule that matches a transaction names its category in reports, lists and exports; the rest are Uncategorised"
    >
      {(data) => <CategoriesAdmin initial={data} />}
    </AdminPage>
  );
}
