/**
 * The policies area's BFF routes (docs/architecture.md#the-bff-declared-per-area), declared against ./endpoints.ts:
 * the approval policy rules and approver groups (admin), each write behind a passkey step-up for
 * `approval_policy.change`.
 */
import "server-only";
import { itemRoutes } from "@/lib/bff/item-routes";
import {
  addRule,
  changeRule,
  moveRuleTo,
  policiesView,
  putGroup,
  removeGroup,
  removeRule,
} from "@/lib/bff/queries/policies";
import { declareRoute, defineRoutes } from "@/lib/bff/route";
import { requirePolicyStepUp } from "@/lib/bff/step-up";
import { GroupInput, RuleInput } from "@/lib/policies/store";
import { adminItems } from "../admin-items";
import { policiesEndpoints as e } from "./endpoints";

const rule = adminItems(
  { change: e.change, remove: e.remove, move: e.move },
  {
    permission: "policies.manage",
    objectType: "approval_policy",
    body: RuleInput,
    knownCompany: true,
    // Passkey step-up, refused and audited before the change.
    guard: (ctx) => requirePolicyStepUp(ctx, "approval_policy", ctx.params.id),
  },
  { change: changeRule, remove: removeRule, moveTo: moveRuleTo },
);

const group = itemRoutes(
  { PUT: e.changeGroup, DELETE: e.removeGroup },
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

export const policiesRoutes = defineRoutes(e, {
  /** GET /api/policies — the approval policy rules in order, the approver groups and candidate members (admin). */
  view: declareRoute(e.view, { permission: "policies.manage", company: "none" }, () => policiesView()),

  /**
   * POST /api/policies — 201: a new rule, appended last (a rule's fields: lib/policies/store.ts `RuleInput`);
   * 400 naming the field. Audited with the rule as created. Needs a passkey step-up for `approval_policy.change`
   * covering `new_rule`: else 403 `step_up_required` (audited).
   */
  add: declareRoute(
    e.add,
    {
      permission: "policies.manage",
      company: "none",
      body: RuleInput,
      knownCompany: true,
      status: 201,
      audit: { action: "approval_policy.create", objectType: "approval_policy" },
    },
    async (ctx) => {
      // Passkey step-up, refused and audited before the change.
      await requirePolicyStepUp(ctx, "approval_policy", "new_rule");
      const created = await addRule(ctx.body);
      ctx.audit.details = { before: null, after: created };
      return created;
    },
  ),

  /**
   * PUT /api/policies/{id} — replaces a rule's conditions and outcome (its position stays); audited before/after. Needs
   * a passkey step-up for `approval_policy.change` covering the id: else 403 `step_up_required` (audited).
   */
  change: rule.change,

  /**
   * DELETE /api/policies/{id} — 204; the rules after it move up. Audited with the rule as it was. Needs a passkey
   * step-up for `approval_policy.change` covering the id: else 403 `step_up_required` (audited).
   */
  remove: rule.remove,

  /**
   * POST /api/policies/{id}/move {position} — moves a rule (1 = first); audited with the order before and after. Needs a
   * passkey step-up for `approval_policy.change` covering the id: else 403 `step_up_required` (audited).
   */
  move: rule.move,

  /**
   * POST /api/policies/groups {name, user_ids} — 201: a new approver group; 400 naming the field; audited. Needs a
   * passkey step-up for `approval_policy.change` covering `new_group`: else 403 `step_up_required` (audited).
   */
  addGroup: declareRoute(
    e.addGroup,
    {
      permission: "policies.manage",
      company: "none",
      body: GroupInput,
      status: 201,
      audit: { action: "approver_group.save", objectType: "approver_group" },
    },
    async (ctx) => {
      // Passkey step-up, refused and audited before the change.
      await requirePolicyStepUp(ctx, "approver_group", "new_group");
      const { before, after } = await putGroup(ctx.body);
      ctx.audit.details = { before, after };
      return after;
    },
  ),

  /**
   * PUT /api/policies/groups/{id} {name, user_ids} — renames the group and replaces its members; audited. Needs a
   * passkey step-up for `approval_policy.change` covering the id: else 403 `step_up_required` (audited).
   */
  changeGroup: group.PUT,

  /**
   * DELETE /api/policies/groups/{id} — 204; rules naming the group keep its id (no one is eligible through it). Needs a
   * passkey step-up for `approval_policy.change` covering the id: else 403 `step_up_required` (audited).
   */
  removeGroup: group.DELETE,
});
