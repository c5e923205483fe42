/**
 * One declaration for a dashboard-owned collection of items that an area's routes module serves whole: its list
 * (`GET /api/<items>`), creation (`POST`), change (`PUT /api/<items>/{id}`), removal (`DELETE`) and move
 * (`POST /api/<items>/{id}/move`), each optional, with one permission, object type, body schema and store
 * (docs/architecture.md#the-bff-declared-per-area). The audit actions follow the object type: `<type>.create`,
 * `.update`, `.delete`, `.move`. Built on lib/bff/item-routes.ts.
 */
import "server-only";
import type { z } from "zod";
import type { Permission } from "@/lib/auth/roles";
import { AUDIT_ACTION, type AuditAction } from "@/lib/audit-actions";
import type { BffContext } from "@/lib/bff/context";
import type { Endpoint } from "@/lib/bff/endpoint";
import { MoveBody } from "@/lib/bff/inputs";
import { createRoute, itemRoutes } from "@/lib/bff/item-routes";
import { declareRoute, IdParams, type RouteContext } from "@/lib/bff/route";

/** What each endpoint of the collection does. */
export type ItemRole = "list" | "add" | "change" | "remove" | "move";

/** The object types whose creation, change and removal are audited `<type>.create`, `<type>.update`, `<type>.delete`. */
export type ItemObjectType = {
  [A in AuditAction]: A extends `${infer O}.create`
    ? `${O}.update` | `${O}.delete` extends AuditAction
      ? O
      : never
    : never;
}[AuditAction];

/** What the collection's routes declare: who may use them, how they are audited, what a body is. */
export interface AdminItemsDeclaration<B extends z.ZodType> {
  /** Every route needs it (else 403 naming it). */
  permission: Permission;
  /** The audit entries' object type; the actions are `<objectType>.create|update|delete|move`. */
  objectType: ItemObjectType;
  /** The body of `add` and `change` (else 400 naming the field). */
  body: B;
  /** The body's `company_id`, when set, must be a company the dashboard knows (400 naming it; `withUser`). */
  knownCompany?: boolean;
  /**
   * Runs first in `change`, `remove` and `move`, after the input is parsed (e.g. a passkey step-up); throws to refuse,
   * and then nothing changes and no write is audited.
   */
  guard?(ctx: RouteContext<{ id: string }, undefined, unknown>): Promise<unknown>;
}

/** The store functions behind the routes: `change` and `remove` always, the others for the roles the collection has. */
export interface AdminItemsStore<B extends z.ZodType, T extends { id: string }> {
  /** `list`'s answer: the items in order and what the admin page needs beside them. */
  view?(ctx: BffContext): Promise<unknown>;
  /** `add`: creates an item (see `createRoute`). @throws BffError 400 / 409 naming the field. */
  add?(input: z.output<B>, ctx: BffContext): Promise<T>;
  /** `change`: replaces item `id` (see `itemRoutes`). @throws BffError 404 unknown id, 400 / 409 naming the field. */
  change(id: string, input: z.output<B>, ctx: BffContext): Promise<{ before: T; after: T }>;
  /** `remove`: deletes item `id`, resolves to it as it was. @throws BffError 404 for an unknown id. */
  remove(id: string): Promise<T>;
  /**
   * `move`: puts item `id` at `position` (1 = first); resolves to the items in order before and after.
   * @throws BffError 404 for an unknown id.
   */
  moveTo?(id: string, position: number): Promise<{ before: T[]; after: T[] }>;
}

/** The collection's endpoints by role: `change` and `remove` always, the others where the collection has them. */
export type AdminItemEndpoints = { change: Endpoint; remove: Endpoint } & Partial<
  Record<"list" | "add" | "move", Endpoint>
>;

/** The declared routes of `adminItems`, one per role its endpoints name. */
export type AdminItemRoutes<EP> = {
  [K in keyof EP & ItemRole]: ReturnType<typeof declareRoute<EP[K] & Endpoint>>;
};

const AUDIT_ACTIONS: ReadonlySet<string> = new Set(Object.values(AUDIT_ACTION));

/**
 * Audit action `verb` of `objectType` (an `ItemObjectType` has create, update and delete; `move` where lib/audit-actions.ts
 * names it). @throws Error at module load for an action lib/audit-actions.ts does not name (a programming error).
 */
function action(objectType: ItemObjectType, verb: "create" | "update" | "delete" | "move"): AuditAction {
  const name = `${objectType}.${verb}`;
  if (!AUDIT_ACTIONS.has(name)) throw new Error(`adminItems: no audit action ${name} in lib/audit-actions.ts`);
  return name as AuditAction;
}

function required<F>(role: ItemRole, f: F | undefined): F {
  if (!f) throw new Error(`adminItems: the ${role} endpoint needs its store function`);
  return f;
}

/**
 * The routes of the collection's `endpoints` (it may hold others: only the roles of `AdminItemEndpoints` are read), as
 * `declared`, served by `store`; all `company: "none"`, the path id a UUID (else 400):
 * - `list`: 200 with `view`'s answer;
 * - `add`: 201 with the item created, audited `<type>.create` with its id and `{ before: null, after }`;
 * - `change`: 200 with the item after, audited `<type>.update` with `{ before, after }`;
 * - `remove`: 204, audited `<type>.delete` with `{ before, after: null }`;
 * - `move` `{ position }`: 200 `{ rules }` (the items in their new order), audited `<type>.move` with the ids in order
 *   before and after.
 * @throws Error at module load when a role's store function is missing (a programming error).
 */
export function adminItems<EP extends AdminItemEndpoints, B extends z.ZodType, T extends { id: string }>(
  endpoints: EP,
  declared: AdminItemsDeclaration<B>,
  store: AdminItemsStore<B, T>,
): AdminItemRoutes<EP> {
  const { permission, objectType, body, guard } = declared;
  const knownCompany = declared.knownCompany ?? false;
  const audit = { objectType, update: action(objectType, "update"), delete: action(objectType, "delete") };
  const { PUT, DELETE } = itemRoutes(
    { PUT: endpoints.change, DELETE: endpoints.remove },
    { permission, body, knownCompany, guard, audit, change: store.change, remove: store.remove },
  );
  const routes: Partial<Record<ItemRole, unknown>> = { change: PUT, remove: DELETE };
  if (endpoints.list) {
    const view = required("list", store.view);
    routes.list = declareRoute(endpoints.list, { permission, company: "none" }, (ctx) => view(ctx));
  }
  if (endpoints.add) {
    const add = required("add", store.add);
    const created = { objectType, create: action(objectType, "create") };
    routes.add = createRoute(endpoints.add, { permission, body, knownCompany, audit: created, add });
  }
  if (endpoints.move) routes.move = moveRoute(endpoints.move, declared, required("move", store.moveTo));
  return routes as AdminItemRoutes<EP>;
}

/** `adminItems`' move: `{ position }` (1 = first), the guard first, audited with the ids in order before and after. */
function moveRoute<E extends Endpoint, T extends { id: string }>(
  endpoint: E,
  declared: AdminItemsDeclaration<z.ZodType>,
  moveTo: (id: string, position: number) => Promise<{ before: T[]; after: T[] }>,
) {
  return declareRoute(
    endpoint,
    {
      permission: declared.permission,
      company: "none",
      params: IdParams,
      body: MoveBody,
      audit: { action: action(declared.objectType, "move"), objectType: declared.objectType },
    },
    async (ctx) => {
      await declared.guard?.(ctx);
      const { before, after } = await moveTo(ctx.params.id, ctx.body.position);
      ctx.audit.details = { before: before.map((r) => r.id), after: after.map((r) => r.id) };
      return { rules: after };
    },
  );
}
