import { requirePolicyStepUp } from "@/lib/bff/step-up";
import { endpoint } from "@/lib/bff/endpoint";
import { itemRoutes } from "@/lib/bff/item-routes";
import { changeRule, removeRule } from "@/lib/bff/queries/policies";
import { RuleInput } from "@/lib/policies/store";

// TODO(policies area): these endpoints move to lib/bff/areas/policies/endpoints.ts.
const routes = itemRoutes(
  { PUT: endpoint("PUT", "/api/policies/[id]"), DELETE: endpoint("DELETE", "/api/policies/[id]") },
  {
    permission: "policies.manage",
    audit: { objectType: "approval_policy", update: "approval_policy.update", delete: "approval_policy.delete" },
    body: RuleInput,
    knownCompany: true,
    // Passkey step-up, refused and audited before the change.
    guard: (ctx) => requirePolicyStepUp(ctx, "approval_policy", ctx.params.id),
    change: changeRule,
    remove: removeRule,
  },
);

/**
 * PUT /api/policies/{id} — replaces a rule's conditions and outcome (its position stays); audited before/after. Needs
 * a passkey step-up for `approval_policy.change` covering the id: else 403 `step_up_required` (audited).
 */
export const PUT = routes.PUT;

/**
 * DELETE /api/policies/{id} — 204; the rules after it move up. Audited with the rule as it was. Needs a passkey
 * step-up for `approval_policy.change` covering the id: else 403 `step_up_required` (audited).
 */
export const DELETE = routes.DELETE;
