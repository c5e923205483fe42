/**
 * Bank connections (extension; docs/bank-channels.md): admin-managed host-to-host channels of a company,
 * scope admin:public_api. Credentials are accepted, sealed and never returned.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";
import {
  BankConnection,
  BankConnectionCreate,
  BankConnectionFile,
  BankConnectionPatch,
  BankPullResult,
} from "@treasury/contract/bank-connections";
import { pullConnection } from "../../channels/exchange";
import * as repo from "../../channels/connections";
import { requireCaller, type AppEnv, type AppRouteHandler } from "../../lib/context";
import { fieldError } from "../../lib/errors";
import { idParams, json } from "../../lib/openapi";
import { defineRoute } from "../define-route";

const base = {
  tags: ["Bank connections"],
  scope: "admin:public_api" as const,
  company: "required" as const,
};
const secretDoc =
  "Passwords and private keys are stored encrypted and never returned (has_password / has_private_key).";

export const listConnectionsRoute = defineRoute({
  ...base,
  method: "get",
  path: "/bank-connections",
  summary: "List the company's bank connections (extension)",
  description: `Oldest first, each with its health (last pull / push, files today, failures). ${secretDoc}`,
  responses: { 200: json(z.object({ data: z.array(BankConnection) }), "Connections") },
});

export const createConnectionRoute = defineRoute({
  ...base,
  method: "post",
  path: "/bank-connections",
  summary: "Create a bank connection (extension)",
  description:
    "channel is folder (inbox_dir, outbox_dir) or sftp (host, port, username, password or private_key, " +
    "host_key_fingerprint as `ssh-keygen -lf` prints it, inbox, outbox). account_ids: the company's accounts " +
    `this bank serves (each account has at most one connection). Audited. ${secretDoc}`,
  request: { body: { required: true, content: { "application/json": { schema: BankConnectionCreate } } } },
  responses: { 201: json(BankConnection, "Created") },
});

export const getConnectionRoute = defineRoute({
  ...base,
  method: "get",
  path: "/bank-connections/{id}",
  summary: "Get a bank connection (extension)",
  request: { params: idParams },
  responses: { 200: json(BankConnection, "The connection, without credentials") },
});

export const patchConnectionRoute = defineRoute({
  ...base,
  method: "patch",
  path: "/bank-connections/{id}",
  summary: "Update a bank connection (extension)",
  description: `Any subset; a channel replaces the channel with its credentials. Audited. ${secretDoc}`,
  request: {
    params: idParams,
    body: { required: true, content: { "application/json": { schema: BankConnectionPatch } } },
  },
  responses: { 200: json(BankConnection, "The updated connection") },
});

export const deleteConnectionRoute = defineRoute({
  ...base,
  method: "delete",
  path: "/bank-connections/{id}",
  summary: "Delete a bank connection (extension)",
  description: "409 while a payment file waits to be sent over it. Audited.",
  request: { params: idParams },
  responses: { 204: { description: "Deleted, no body" } },
});

export const pullNowRoute = defineRoute({
  ...base,
  method: "post",
  path: "/bank-connections/{id}/pull",
  summary: "Pull a bank connection now (extension)",
  description: "Lists the bank's outbox and imports each new file, as the schedule does; answers with the counts.",
  request: { params: idParams },
  responses: { 200: json(BankPullResult, "What the pull did") },
});

export const listFilesRoute = defineRoute({
  ...base,
  method: "get",
  path: "/bank-connections/{id}/files",
  summary: "Files received and sent over a bank connection (extension)",
  description: "Newest first, at most 200: name, size, SHA-256, status (imported, failed with reason, sent).",
  request: { params: idParams },
  responses: { 200: json(z.object({ data: z.array(BankConnectionFile) }), "Files") },
});

function owner(c: Parameters<AppRouteHandler<typeof listConnectionsRoute>>[0]): repo.ConnectionOwner {
  const caller = requireCaller(c);
  const companyId = c.get("companyId");
  if (companyId === null) throw fieldError("X-Company-ID", "is required: connections belong to one company");
  return { tenantId: caller.tenantId, companyId };
}

const listConnections: AppRouteHandler<typeof listConnectionsRoute> = async (c) =>
  c.json({ data: await repo.listConnections(c.get("db"), owner(c)) }, 200);

const createConnection: AppRouteHandler<typeof createConnectionRoute> = async (c) =>
  c.json(
    await repo.createConnection(
      c.get("db"),
      owner(c),
      c.req.valid("json"),
      c.get("config").secretKey,
      requireCaller(c).clientName,
    ),
    201,
  );

const getConnection: AppRouteHandler<typeof getConnectionRoute> = async (c) => {
  const db = c.get("db");
  return c.json(await repo.toConnection(db, await repo.getConnectionRow(db, owner(c), c.req.valid("param").id)), 200);
};

const patchConnection: AppRouteHandler<typeof patchConnectionRoute> = async (c) =>
  c.json(
    await repo.patchConnection(
      c.get("db"),
      owner(c),
      c.req.valid("param").id,
      c.req.valid("json"),
      c.get("config").secretKey,
      requireCaller(c).clientName,
    ),
    200,
  );

const deleteConnection: AppRouteHandler<typeof deleteConnectionRoute> = async (c) => {
  await repo.deleteConnection(c.get("db"), owner(c), c.req.valid("param").id, requireCaller(c).clientName);
  return c.body(null, 204);
};

const pullNow: AppRouteHandler<typeof pullNowRoute> = async (c) => {
  const db = c.get("db");
  const row = await repo.getConnectionRow(db, owner(c), c.req.valid("param").id);
  return c.json(await pullConnection(db, row, c.get("config").secretKey), 200);
};

const listFiles: AppRouteHandler<typeof listFilesRoute> = async (c) => {
  const db = c.get("db");
  const row = await repo.getConnectionRow(db, owner(c), c.req.valid("param").id);
  return c.json({ data: await repo.listFiles(db, row.id) }, 200);
};

export function registerBankConnectionRoutes(api: OpenAPIHono<AppEnv>): void {
  api.openapi(listConnectionsRoute, listConnections);
  api.openapi(createConnectionRoute, createConnection);
  api.openapi(getConnectionRoute, getConnection);
  api.openapi(patchConnectionRoute, patchConnection);
  api.openapi(deleteConnectionRoute, deleteConnection);
  api.openapi(pullNowRoute, pullNow);
  api.openapi(listFilesRoute, listFiles);
}
