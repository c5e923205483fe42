/**
 * The policies area's BFF routes (docs/architecture.md#the-bff-declared-per-area), declared against ./endpoints.ts:
 * the approval policy rules and approver groups (admin), each write behind a passkey step-up for
 * `approval_policy.change`.
 */
import "server-only";
import { MoveBody } from "@/lib/bff/inputs";
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
import { declareRoute, defineRoutes, IdParams } from "@/lib/bff/route";
import { requirePolicyStepUp } from "@/lib/bff/step-up";
import { GroupInput, RuleInput } from "@/lib/policies/store";
import { policiesEndpoints as e } from "./endpoints";

const rule = itemRoutes(
  { PUT: e.change, DELETE: e.remove },
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
  change: rule.PUT,

  /**
   * DELETE /api/policies/{id} — 204; the rules after it move up. Audited with the rule as it was. Needs a passkey
   * step-up for `approval_policy.change` covering the id: else 403 `step_up_required` (audited).
   */
  remove: rule.DELETE,

  /**
   * POST /api/policies/{id}/move {position} — moves a rule (1 = first); audited with the order before and after. Needs a
   * passkey step-up for `approval_policy.change` covering the id: else 403 `step_up_required` (audited).
   */
  move: declareRoute(
    e.move,
    {
      permission: "policies.manage",
      company: "none",
      params: IdParams,
      body: MoveBody,
      audit: { action: "approval_policy.move", objectType: "approval_policy" },
    },
    async (ctx) => {
      // Passkey step-up, refused and audited before the change.
      await requirePolicyStepUp(ctx, "approval_policy", ctx.params.id);
      const { before, after } = await moveRuleTo(ctx.params.id, ctx.body.position);
      ctx.audit.details = { before: before.map((r) => r.id), after: after.map((r) => r.id) };
      return { rules: after };
    },
  ),

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
