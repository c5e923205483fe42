/**
 * The categories area's BFF endpoints: the admin's cashflow category rules (list, add, change, move, remove) and the
 * preview of a rule over the selected company's last 90 days. Isomorphic: the browser derives its URLs from these
 * (docs/architecture.md#the-bff-declared-per-area).
 */
import type { CategoriesView, CategoryPreview } from "../../queries/categories";
import { endpoint } from "../../endpoint";
import { orderedItemEndpoints } from "../item-endpoints";

const rules = orderedItemEndpoints("/api/categories");

export const categoriesEndpoints = {
  ...rules,
  list: rules.list.returns<CategoriesView>(),
  preview: endpoint("POST", "/api/categories/preview").returns<CategoryPreview>(),
};
