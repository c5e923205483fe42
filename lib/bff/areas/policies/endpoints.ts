/**
 * The policies area's BFF endpoints (docs/architecture.md#the-bff-declared-per-area): the approval policy rules, in
 * order, and the approver groups (admin). Isomorphic: the browser derives its URLs and query keys from these.
 */
import type { PoliciesView } from "@/lib/bff/queries/policies";
import { endpoint } from "../../endpoint";

export const policiesEndpoints = {
  view: endpoint("GET", "/api/policies").returns<PoliciesView>(),
  add: endpoint("POST", "/api/policies"),
  change: endpoint("PUT", "/api/policies/[id]"),
  remove: endpoint("DELETE", "/api/policies/[id]"),
  move: endpoint("POST", "/api/policies/[id]/move"),
  addGroup: endpoint("POST", "/api/policies/groups"),
  changeGroup: endpoint("PUT", "/api/policies/groups/[id]"),
  removeGroup: endpoint("DELETE", "/api/policies/groups/[id]"),
};
