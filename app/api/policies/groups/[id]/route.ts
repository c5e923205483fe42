import { requirePolicyStepUp } from "@/lib/bff/step-up";
import { endpoint } from "@/lib/bff/endpoint";
import { itemRoutes } from "@/lib/bff/item-routes";
import { putGroup, removeGroup } from "@/lib/bff/queries/policies";
import { GroupInput } from "@/lib/policies/store";

// TODO(policies area): these endpoints move to lib/bff/areas/policies/endpoints.ts.
const routes = itemRoutes(
  { PUT: endpoint("PUT", "/api/policies/groups/[id]"), DELETE: endpoint("DELETE", "/api/policies/groups/[id]") },
  {
    permission: "policies.manage",
    audit: { objectType: "approver_group", update: "approver_group.save", delete: "approver_group.delete" },
    body: GroupInput,
    // Passkey step-up, refused and audited before the change.
    guard: (ctx) => requirePolicyStepUp(ctx, "approver_group", ctx.params.id),
    change: (id, input) => putGroup(input, id),
    remove: removeGroup,
  },
);

/**
 * PUT /api/policies/groups/{id} {name, user_ids} — renames the group and replaces its members; audited. Needs a
 * passkey step-up for `approval_policy.change` covering the id: else 403 `step_up_required` (audited).
 */
export const PUT = routes.PUT;

/**
 * DELETE /api/policies/groups/{id} — 204; rules naming the group keep its id (no one is eligible through it). Needs a
 * passkey step-up for `approval_policy.change` covering the id: else 403 `step_up_required` (audited).
 */
export const DELETE = routes.DELETE;
