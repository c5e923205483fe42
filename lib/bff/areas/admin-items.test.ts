/**
 * `adminItems` (./admin-items.ts): the routes it declares are bound to the collection's endpoints by role, and a
 * declaration it cannot serve (a role without its store function, an audit action lib/audit-actions.ts does not name)
 * is refused when the module loads. The routes' requests are tested through the areas' real handlers in
 * lib/bff/item-routes.integration.test.ts and lib/bff/forecast-routes.integration.test.ts.
 */
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";

vi.mock("server-only", () => ({}));

import { endpoint } from "../endpoint";
import { adminItems } from "./admin-items";
import { itemEndpoints, orderedItemEndpoints } from "./item-endpoints";

const declared = { permission: "categories.manage", objectType: "category_rule", body: z.object({}) } as const;
const item = { id: "1" };
const store = {
  view: async () => ({ items: [item] }),
  add: async () => item,
  change: async () => ({ before: item, after: item }),
  remove: async () => item,
  moveTo: async () => ({ before: [item], after: [item] }),
};

describe("adminItems", () => {
  it("declares one route per role the endpoints name, each bound to its endpoint", () => {
    const e = { ...orderedItemEndpoints("/api/test-items"), other: endpoint("GET", "/api/test-items/other") };
    const routes = adminItems(e, declared, store);
    expect(Object.keys(routes).sort()).toEqual(["add", "change", "list", "move", "remove"]);
    for (const role of ["list", "add", "change", "remove", "move"] as const)
      expect(routes[role].endpoint).toBe(e[role]);
  });

  it("declares only change and remove for a collection without list, add or move", () => {
    const { change, remove } = itemEndpoints("/api/test-items");
    expect(Object.keys(adminItems({ change, remove }, declared, store)).sort()).toEqual(["change", "remove"]);
  });

  it.each([
    ["list", "view"],
    ["add", "add"],
    ["move", "moveTo"],
  ] as const)("refuses a %s endpoint without the store's %s", (role, fn) => {
    const e = orderedItemEndpoints("/api/test-items");
    expect(() => adminItems(e, declared, { ...store, [fn]: undefined })).toThrow(`the ${role} endpoint`);
  });

  it("refuses a move of an object type lib/audit-actions.ts names no move action for", () => {
    const e = orderedItemEndpoints("/api/test-items");
    expect(() => adminItems(e, { ...declared, objectType: "forecast_line" }, store)).toThrow("forecast_line.move");
  });
});

describe("itemEndpoints", () => {
  it("derives the four endpoints, and move for an ordered collection, from the base path", () => {
    const e = orderedItemEndpoints("/api/test-items");
    expect(Object.fromEntries(Object.entries(e).map(([k, v]) => [k, `${v.method} ${v.path}`]))).toEqual({
      list: "GET /api/test-items",
      add: "POST /api/test-items",
      change: "PUT /api/test-items/[id]",
      remove: "DELETE /api/test-items/[id]",
      move: "POST /api/test-items/[id]/move",
    });
  });
});
