/**
 * The policies area's BFF endpoints (docs/architecture.md#the-bff-declared-per-area): the approval policy rules, in
 * order, and the approver groups (admin). Isomorphic: the browser derives its URLs and query keys from these.
 */
import type { PoliciesView } from "@/lib/bff/queries/policies";
import { endpoint } from "../../endpoint";
import { orderedItemEndpoints } from "../item-endpoints";

const { list, ...rules } = orderedItemEndpoints("/api/policies");

export const policiesEndpoints = {
  view: list.returns<PoliciesView>(),
  ...rules,
  addGroup: endpoint("POST", "/api/policies/groups"),
  changeGroup: endpoint("PUT", "/api/policies/groups/[id]"),
  removeGroup: endpoint("DELETE", "/api/policies/groups/[id]"),
};
