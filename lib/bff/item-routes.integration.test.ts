/**
 * The admin routes that replace (PUT) and delete (DELETE) one stored item by id — cashflow category rules,
 * auto-confirm rules, approval policy rules and approver groups — and the collection routes (GET, POST) of the
 * category and auto-confirm rules, through their real route handlers, with the dashboard's in-memory database and
 * the real local treasury-api (small demo seed):
 *
 * - 400 naming the field for a bad body or an id that is not a UUID, 403 naming the permission for a role without
 *   it, 404 for an unknown id; nothing changes and nothing is audited;
 * - a replacement answers the item after it and is audited once with the item before and after; a deletion is 204,
 *   audited with the item before it, and a second deletion is 404;
 * - the approval policy's rules and groups need a passkey step-up covering the id: without one both writes are
 *   403 `step_up_required`, audited as refused, and the item stays as it was;
 * - a collection's GET lists the items in order, the one created last; its POST answers 201 with the item, audited
 *   once with its id; a bad body is a 400 naming the field and another role a 403 naming the permission, and
 *   neither creates nor audits anything.
 */
import { describe, expect, it, vi } from "vitest";

vi.mock("server-only", () => ({}));
vi.mock("../auth/session", async () => (await import("./testing/local-api")).sessionModule);
vi.mock("next/headers", async () => (await import("./testing/local-api")).headersModule);

import { randomUUID } from "node:crypto";
import { listAudit } from "../db/audit";
import { dashboardDb } from "../server/db";
import { getConfig } from "../server/config";
import { bffSuite, errorFields, testUser, type RouteHandler } from "./testing/local-api";
import * as categoriesRoute from "../../app/api/categories/route";
import * as categoryRoute from "../../app/api/categories/[id]/route";
import * as autoRulesRoute from "../../app/api/reconciliation-rules/route";
import * as autoRuleRoute from "../../app/api/reconciliation-rules/[id]/route";
import * as policiesRoute from "../../app/api/policies/route";
import * as policyRoute from "../../app/api/policies/[id]/route";
import * as groupsRoute from "../../app/api/policies/groups/route";
import * as groupRoute from "../../app/api/policies/groups/[id]/route";

const bff = bffSuite({ origin: "http://127.0.0.1:3995" });
const admin = testUser("items.admin", ["admin"]);
const treasurer = testUser("items.treasurer", ["treasurer", "approver"]);

interface Case {
  name: string;
  path: string;
  create: RouteHandler;
  item: { PUT: RouteHandler; DELETE: RouteHandler };
  /** The collection's GET, answering `{ rules }` in order, when the suite tests it. */
  list?: RouteHandler;
  /** A valid body to create, then one to replace it with (and what the answer holds of it). */
  created: Record<string, unknown>;
  replaced: Record<string, unknown>;
  /** A bad body and the field the 400 names. */
  bad: [Record<string, unknown>, string];
  permission: string;
  objectType: string;
  actions: { create: string; update: string; delete: string };
  /** The object type of a step-up refusal, when the item's writes need a passkey step-up. */
  stepUp: string | null;
}

const CASES: Case[] = [
  {
    name: "cashflow category rules",
    path: "/api/categories",
    create: categoriesRoute.POST as RouteHandler,
    list: categoriesRoute.GET as RouteHandler,
    item: categoryRoute as { PUT: RouteHandler; DELETE: RouteHandler },
    created: { category: "Rent", direction: "debit" },
    replaced: { category: "Office rent", counterparty_contains: "Eiendom", direction: "debit" },
    bad: [{ category: "" }, "category"],
    permission: "categories.manage",
    objectType: "category_rule",
    actions: { create: "category_rule.create", update: "category_rule.update", delete: "category_rule.delete" },
    stepUp: null,
  },
  {
    name: "auto-confirm rules",
    path: "/api/reconciliation-rules",
    create: autoRulesRoute.POST as RouteHandler,
    list: autoRulesRoute.GET as RouteHandler,
    item: autoRuleRoute as { PUT: RouteHandler; DELETE: RouteHandler },
    created: { name: "Items exact", min_score: 100, enabled: false },
    replaced: { name: "Items near", min_score: 95, enabled: false },
    bad: [{ name: "Items near", min_score: 101 }, "min_score"],
    permission: "reconciliation.rules.manage",
    objectType: "reconciliation_rule",
    actions: {
      create: "reconciliation_rule.create",
      update: "reconciliation_rule.update",
      delete: "reconciliation_rule.delete",
    },
    stepUp: null,
  },
  {
    name: "approval policy rules",
    path: "/api/policies",
    create: policiesRoute.POST as RouteHandler,
    item: policyRoute as { PUT: RouteHandler; DELETE: RouteHandler },
    created: { name: "Items large", min_amount: "100000.00", required_approvals: 1, eligible_roles: ["approver"] },
    replaced: { name: "Items larger", min_amount: "200000.00", required_approvals: 2, eligible_roles: ["approver"] },
    bad: [{ name: "Items larger", required_approvals: 0, eligible_roles: ["approver"] }, "required_approvals"],
    permission: "policies.manage",
    objectType: "approval_policy",
    actions: { create: "approval_policy.create", update: "approval_policy.update", delete: "approval_policy.delete" },
    stepUp: "approval_policy",
  },
  {
    name: "approver groups",
    path: "/api/policies/groups",
    create: groupsRoute.POST as RouteHandler,
    item: groupRoute as { PUT: RouteHandler; DELETE: RouteHandler },
    created: { name: "Items board" },
    replaced: { name: "Items board of directors", user_ids: [] },
    // A well-formed id of no dashboard user (a 500 from the member foreign key before the store checked it).
    bad: [{ name: "Items board", user_ids: ["00000000-0000-4000-8000-000000000001"] }, "user_ids[0]"],
    permission: "policies.manage",
    objectType: "approver_group",
    actions: { create: "approver_group.save", update: "approver_group.save", delete: "approver_group.delete" },
    stepUp: "approver_group",
  },
];

/** The audit entries of `id`, oldest first. */
async function auditOf(id: string) {
  return (await listAudit(await dashboardDb(), { companyIds: null, objectIds: [id] })).reverse();
}

describe.each(CASES)("PUT and DELETE of $name", (c) => {
  const call = (handler: RouteHandler, method: string, id: string, json?: unknown, who = admin) =>
    bff.call(handler, who, method, `${c.path}/${id}`, { params: { id }, json });
  /** A new item (`c.created`) through the collection route, as the admin: its id and the answer. */
  const create = async () => {
    const made = await bff.call(c.create, admin, "POST", c.path, { json: c.created });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    return { id: String(made.body.id), made };
  };

  it("refuses bad input, other roles and unknown ids, changing and auditing nothing", async () => {
    const { id } = await create();
    const audited = (await auditOf(id)).length;

    const [badBody, field] = c.bad;
    const bad = await call(c.item.PUT, "PUT", id, badBody);
    expect(bad.status).toBe(400);
    expect(errorFields(bad.body)).toEqual([field]);
    for (const [handler, method] of [
      [c.item.PUT, "PUT"],
      [c.item.DELETE, "DELETE"],
    ] as const) {
      const notUuid = await call(handler, method, "nope", method === "PUT" ? c.replaced : undefined);
      expect(notUuid.status, method).toBe(400);
      expect(notUuid.body).toMatchObject({
        message: "id must be a UUID",
        details: { errors: { id: ["must be a UUID"] } },
      });
      const other = await call(handler, method, id, method === "PUT" ? c.replaced : undefined, treasurer);
      expect(other.status, method).toBe(403);
      expect(other.body).toMatchObject({ error: "permission_denied", details: { permission: c.permission } });
      const unknown = await call(handler, method, randomUUID(), method === "PUT" ? c.replaced : undefined);
      expect(unknown.status, method).toBe(404);
      expect(unknown.body).toMatchObject({ error: "not_found" });
    }
    expect(await auditOf(id)).toHaveLength(audited);
    const still = await call(c.item.PUT, "PUT", id, c.created);
    expect(still.status).toBe(200);
    expect(still.body).toMatchObject({ id, ...c.created });
    expect((await call(c.item.DELETE, "DELETE", id)).status).toBe(204);
  });

  it("replaces the item (audited before / after) and deletes it (204, audited), then 404", async () => {
    const { id, made } = await create();
    const put = await call(c.item.PUT, "PUT", id, c.replaced);
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body).toMatchObject({ id, ...c.replaced });
    const del = await call(c.item.DELETE, "DELETE", id);
    expect(del).toEqual({ status: 204, body: null });
    expect((await call(c.item.DELETE, "DELETE", id)).status).toBe(404);
    expect((await call(c.item.PUT, "PUT", id, c.replaced)).status).toBe(404);

    const audit = await auditOf(id);
    expect(audit.map((a) => [a.action, a.objectType, a.userEmail, a.outcome])).toEqual([
      [c.actions.create, c.objectType, admin.email, "success"],
      [c.actions.update, c.objectType, admin.email, "success"],
      [c.actions.delete, c.objectType, admin.email, "success"],
    ]);
    expect(audit[1]?.details).toEqual({ before: made.body, after: put.body });
    expect(audit[2]?.details).toEqual({ before: put.body, after: null });
  });

  it(`${c.stepUp ? "needs" : "does not need"} a passkey step-up covering the id when step-up is required`, async () => {
    const { id, made } = await create();
    const config = getConfig();
    const mode = config.DASHBOARD_STEP_UP;
    config.DASHBOARD_STEP_UP = "required";
    const answers: { status: number; body: Record<string, unknown> }[] = [];
    try {
      answers.push(await call(c.item.PUT, "PUT", id, c.replaced), await call(c.item.DELETE, "DELETE", id));
    } finally {
      config.DASHBOARD_STEP_UP = mode;
    }
    const audit = await auditOf(id);
    if (!c.stepUp) {
      expect(answers.map((a) => a.status)).toEqual([200, 204]);
      expect(audit.map((a) => a.action)).toEqual([c.actions.create, c.actions.update, c.actions.delete]);
      return;
    }
    for (const a of answers) {
      expect(a.status).toBe(403);
      expect(a.body).toMatchObject({
        error: "step_up_required",
        details: { action: "approval_policy.change", subjects: [id] },
      });
    }
    // Refused and audited as such; then deleted as it was created: neither write changed it.
    expect((await call(c.item.DELETE, "DELETE", id)).status).toBe(204);
    expect((await auditOf(id)).map((a) => [a.action, a.objectType, a.outcome])).toEqual([
      [c.actions.create, c.objectType, "success"],
      ["approval_policy.refused", c.stepUp, "refused"],
      ["approval_policy.refused", c.stepUp, "refused"],
      [c.actions.delete, c.objectType, "success"],
    ]);
    expect((await auditOf(id))[3]?.details).toEqual({ before: made.body, after: null });
  });
});

describe.each(CASES.filter((c) => c.list))("GET and POST of $name", (c) => {
  const list = (who = admin) => bff.call<{ rules: { id: string }[] }>(c.list, who, "GET", c.path);
  const post = (json: unknown, who = admin) => bff.call(c.create, who, "POST", c.path, { json });
  const creations = async () =>
    (await listAudit(await dashboardDb(), { companyIds: null, action: c.actions.create, limit: 500 })).length;

  it("creates an item (201, audited with its id and the item) that the list names last", async () => {
    const made = await post(c.created);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject(c.created);
    const id = String(made.body.id);
    const audit = await auditOf(id);
    expect(audit.map((a) => [a.action, a.objectType, a.objectId, a.userEmail, a.outcome])).toEqual([
      [c.actions.create, c.objectType, id, admin.email, "success"],
    ]);
    expect(audit[0]?.details).toEqual({ before: null, after: made.body });
    const view = await list();
    expect(view.status).toBe(200);
    expect(view.body.rules.at(-1)).toEqual(made.body);
    expect((await bff.call(c.item.DELETE, admin, "DELETE", `${c.path}/${id}`, { params: { id } })).status).toBe(204);
  });

  it("refuses a bad body (400 naming the field) and other roles (403), creating and auditing nothing", async () => {
    const before = (await list()).body.rules.length;
    const audited = await creations();
    const [badBody, field] = c.bad;
    const bad = await post(badBody);
    expect(bad.status).toBe(400);
    expect(errorFields(bad.body)).toEqual([field]);
    for (const refused of [await post(c.created, treasurer), await list(treasurer)]) {
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ error: "permission_denied", details: { permission: c.permission } });
    }
    expect((await list()).body.rules).toHaveLength(before);
    expect(await creations()).toBe(audited);
  });
});
