/**
 * The admin side of approval policies (admin only, dashboard DB): the rules in order, the approver groups and
 * the users who may be members. Changes are audited by the routes with the rule or group before and after.
 */
import "server-only";
import { listUsers } from "../../db/users";
import { describeRule, type GroupNames } from "../../policies/evaluate";
import {
  PolicyInputError,
  createRule,
  deleteGroup,
  deleteRule,
  listGroups,
  listRules,
  moveRule,
  saveGroup,
  toPolicyRule,
  updateRule,
  type GroupInput,
  type GroupRow,
  type RuleInput,
  type RuleRow,
} from "../../policies/store";
import { dashboardDb } from "../../server/db";
import { BffError } from "../errors";

/** A rule with its explanation line (`Rule 1 (Large payments): ≥ EUR 100,000 → 2 approvers from any approver`). */
export type RuleView = RuleRow & { explanation: string };

/** What the policies page shows. */
export interface PoliciesView {
  rules: RuleView[];
  groups: GroupRow[];
  /** Users who may be group members: id, e-mail, name and whether they hold the approver role. */
  users: { id: string; email: string; name: string; approver: boolean }[];
}

function withExplanation(rules: RuleRow[], names: GroupNames): RuleView[] {
  return rules.map((r) => ({ ...r, explanation: describeRule(toPolicyRule(r), names) }));
}

/** The rules, groups and candidate members. */
export async function policiesView(): Promise<PoliciesView> {
  const db = await dashboardDb();
  const [rules, groups, users] = await Promise.all([listRules(db), listGroups(db), listUsers(db)]);
  return {
    rules: withExplanation(rules, new Map(groups.map((g) => [g.id, g.name]))),
    groups,
    users: users
      .filter((u) => !u.disabled)
      .map((u) => ({ id: u.id, email: u.email, name: u.name, approver: u.roles.includes("approver") })),
  };
}

/** Maps the store's input errors to 400 / 404 naming the field. */
async function mapped<T>(f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (err) {
    if (err instanceof PolicyInputError)
      throw new BffError(err.kind === "not_found" ? "not_found" : "validation_error", `${err.field} ${err.message}`, {
        errors: { [err.field]: [err.message] },
      });
    throw err;
  }
}

const notFound = () => new BffError("not_found", "There is no such policy rule.");

export const addRule = (input: RuleInput, position?: number) =>
  mapped(async () => createRule(await dashboardDb(), input, position));

export const changeRule = (id: string, input: RuleInput) =>
  mapped(async () => (await updateRule(await dashboardDb(), id, input)) ?? Promise.reject(notFound()));

export const moveRuleTo = (id: string, position: number) =>
  mapped(async () => (await moveRule(await dashboardDb(), id, position)) ?? Promise.reject(notFound()));

export const removeRule = (id: string) =>
  mapped(async () => (await deleteRule(await dashboardDb(), id)) ?? Promise.reject(notFound()));

export const putGroup = (input: GroupInput, id?: string) =>
  mapped(async () => saveGroup(await dashboardDb(), input, id));

export const removeGroup = (id: string) =>
  mapped(
    async () =>
      (await deleteGroup(await dashboardDb(), id)) ??
      Promise.reject(new BffError("not_found", "There is no such approver group.")),
  );
