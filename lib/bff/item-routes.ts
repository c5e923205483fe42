/**
 * The handlers of admin-managed items: PUT and DELETE of an item addressed by id (`/api/<items>/{id}`, e.g. a
 * cashflow category rule, an auto-confirm rule, an approval policy rule, an approver group) and GET and POST of
 * their collection (`/api/<items>`, e.g. the cashflow category rules, the auto-confirm rules). An area's routes module
 * names their endpoints, permission, audit actions, body schema and store functions
 * (docs/architecture.md#the-bff-declared-per-area).
 */
import "server-only";
import type { z } from "zod";
import type { Permission } from "../auth/roles";
import type { AuditAction } from "../audit-actions";
import type { BffContext } from "./context";
import type { Endpoint } from "./endpoint";
import { declareRoute, IdParams, type RouteContext } from "./route";

export interface ItemRoutesOptions<B extends z.ZodType, T> {
  /** Both writes need it (else 403 naming it). */
  permission: Permission;
  /** The audit entry of each write: object type (the object id is the path's id) and action. */
  audit: { objectType: string; update: AuditAction; delete: AuditAction };
  /** The PUT body (else 400 naming the field). */
  body: B;
  /**
   * Replaces item `id` with `input`; resolves to the item before and after (the answer is `after`). `ctx` is the
   * request's context (who asks, which companies they may see).
   * @throws BffError as the store refuses (404 for an unknown id, 400 / 409 naming the field).
   */
  change(id: string, input: z.output<B>, ctx: BffContext): Promise<{ before: T; after: T }>;
  /** Deletes item `id`; resolves to the item as it was. @throws BffError 404 for an unknown id. */
  remove(id: string): Promise<T>;
  /**
   * Runs first in both writes, after the input is parsed (e.g. the passkey step-up of approval policies); throws to
   * refuse, and then nothing changes and no write is audited.
   */
  guard?(ctx: RouteContext<{ id: string }, undefined, unknown>): Promise<unknown>;
  /** The body's `company_id`, when set, must be a company the dashboard knows (400 naming it; `withUser`). */
  knownCompany?: boolean;
}

/**
 * The handlers of `/api/<items>/{id}`, declared against the area's `endpoints` (one per method), both `company: "none"`, the id a UUID (else 400 `id must be a UUID`):
 * - `PUT` with the item's body: 200 with the item after, audited `audit.update` with `{ before, after }`;
 * - `DELETE`: 204, audited `audit.delete` with `{ before, after: null }`.
 */
export function itemRoutes<PE extends Endpoint, DE extends Endpoint, B extends z.ZodType, T>(
  endpoints: { PUT: PE; DELETE: DE },
  opts: ItemRoutesOptions<B, T>,
) {
  const PUT = declareRoute(
    endpoints.PUT,
    {
      permission: opts.permission,
      company: "none",
      params: IdParams,
      body: opts.body,
      knownCompany: opts.knownCompany ?? false,
      audit: { action: opts.audit.update, objectType: opts.audit.objectType },
    },
    async (ctx) => {
      await opts.guard?.(ctx);
      // `ctx.body` is the body parsed with `opts.body` (a generic schema leaves withUser's type of it unresolved).
      const { before, after } = await opts.change(ctx.params.id, ctx.body as z.output<B>, ctx);
      ctx.audit.details = { before, after };
      return after;
    },
  );
  const DELETE = declareRoute(
    endpoints.DELETE,
    {
      permission: opts.permission,
      company: "none",
      params: IdParams,
      audit: { action: opts.audit.delete, objectType: opts.audit.objectType },
    },
    async (ctx) => {
      await opts.guard?.(ctx);
      const before = await opts.remove(ctx.params.id);
      ctx.audit.details = { before, after: null };
      return undefined;
    },
  );
  return { PUT, DELETE };
}

export interface CollectionRoutesOptions<B extends z.ZodType, T extends { id: string }> {
  /** Both the read and the write need it (else 403 naming it). */
  permission: Permission;
  /** The audit entry of a creation: object type (the object id is the new item's) and action. */
  audit: { objectType: string; create: AuditAction };
  /** The POST body (else 400 naming the field). */
  body: B;
  /** The GET answer: the items in order and what the admin page needs beside them. */
  view(ctx: BffContext): Promise<unknown>;
  /**
   * Creates an item from `input` (`ctx`: who asks). @throws BffError as the store refuses (400 / 409 naming the field).
   */
  add(input: z.output<B>, ctx: BffContext): Promise<T>;
  /** The body's `company_id`, when set, must be a company the dashboard knows (400 naming it; `withUser`). */
  knownCompany?: boolean;
}

/**
 * The creation of one item, `company: "none"`, declared against `endpoint` (the POST of a collection, as
 * `adminItems` declares it in lib/bff/areas/admin-items.ts): 201 with the item created,
 * audited `audit.create` with its id and `{ before: null, after }`; 400 naming the field, 403 without `permission`.
 */
export function createRoute<E extends Endpoint, B extends z.ZodType, T extends { id: string }>(
  endpoint: E,
  opts: Omit<CollectionRoutesOptions<B, T>, "view">,
) {
  return declareRoute(
    endpoint,
    {
      permission: opts.permission,
      company: "none",
      body: opts.body,
      knownCompany: opts.knownCompany ?? false,
      status: 201,
      audit: { action: opts.audit.create, objectType: opts.audit.objectType },
    },
    async (ctx) => {
      // As in `itemRoutes`: `ctx.body` is the body parsed with `opts.body`.
      const item = await opts.add(ctx.body as z.output<B>, ctx);
      ctx.audit.objectId = item.id;
      ctx.audit.details = { before: null, after: item };
      return item;
    },
  );
}
