/**
 * The categories area's BFF endpoints: the admin's cashflow category rules (list, add, change, move, remove) and the
 * preview of a rule over the selected company's last 90 days. Isomorphic: the browser derives its URLs from these
 * (docs/architecture.md#the-bff-declared-per-area).
 */
import type { CategoriesView, CategoryPreview } from "../../queries/categories";
import { endpoint } from "../../endpoint";

export const categoriesEndpoints = {
  list: endpoint("GET", "/api/categories").returns<CategoriesView>(),
  add: endpoint("POST", "/api/categories"),
  change: endpoint("PUT", "/api/categories/[id]"),
  remove: endpoint("DELETE", "/api/categories/[id]"),
  move: endpoint("POST", "/api/categories/[id]/move"),
  preview: endpoint("POST", "/api/categories/preview").returns<CategoryPreview>(),
};
