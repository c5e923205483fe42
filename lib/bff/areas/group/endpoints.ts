/**
 * The group area's BFF endpoints (docs/guides/fx-and-group-reporting.md#group-position-and-reporting-currency): the
 * group cash position, the group reports and the group cashflow by category, each with its CSV export, in the
 * reporting currency. Isomorphic: the browser derives its URLs from these (docs/architecture.md#the-bff-declared-per-area).
 */
import { endpoint } from "../../endpoint";

export const groupEndpoints = {
  position: endpoint("GET", "/api/group/position"),
  positionExport: endpoint("GET", "/api/group/position/export"),
  report: endpoint("GET", "/api/group/reports/[kind]"),
  reportExport: endpoint("GET", "/api/group/reports/[kind]/export"),
  categories: endpoint("GET", "/api/group/categories"),
  categoriesExport: endpoint("GET", "/api/group/categories/export"),
};
