/**
 * OpenAPI declarations of the token endpoints. They are registered by hand,
 * not through `defineRoute`: they take no bearer token, and their bodies are
 * read by the handlers (a form-urlencoded body and RFC 6749 errors).
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import { FormATokenRequest, FormBTokenRequest, TokenResponse } from "@treasury/contract/auth";
import { ErrorBody, TokenErrorBody } from "@treasury/contract/errors";
import type { AppEnv } from "../../lib/context";
import { THROTTLED_HEADERS } from "../../lib/openapi";

/** Adds `POST /auth/token/` and `POST /auth/tenant-token` to the OpenAPI description. */
export function describeAuthRoutes(registry: OpenAPIHono<AppEnv>["openAPIRegistry"]): void {
  const tokenResponses = {
    200: { description: "Token issued (no refresh token)", content: { "application/json": { schema: TokenResponse } } },
    400: {
      description: "invalid_request, unauthorized_client, unsupported_grant_type or invalid_scope (RFC 6749 §5.2)",
      content: { "application/json": { schema: TokenErrorBody } },
    },
    401: {
      description: "invalid_client: bad client credentials",
      content: { "application/json": { schema: TokenErrorBody } },
    },
    429: {
      description:
        "throttled (Cache-Control: no-store, Retry-After). A request whose client authenticates counts against that " +
        "client's window; one that does not counts against the larger window of unauthenticated requests from its " +
        "address, which never blocks a client that authenticates.",
      content: { "application/json": { schema: ErrorBody } },
      headers: THROTTLED_HEADERS,
    },
  };
  registry.registerPath({
    method: "post",
    path: "/auth/token/",
    tags: ["Auth"],
    summary: "Form B token (client credentials)",
    description:
      "application/x-www-form-urlencoded. Credentials by HTTP Basic or client_id/client_secret fields. No scope " +
      "means every allowed scope.",
    request: {
      body: { required: true, content: { "application/x-www-form-urlencoded": { schema: FormBTokenRequest } } },
    },
    responses: tokenResponses,
  });
  registry.registerPath({
    method: "post",
    path: "/auth/tenant-token",
    tags: ["Auth"],
    summary: "Form A token bound to one tenant",
    description: "JSON. Credentials by optional HTTP Basic (or client_id/client_secret in the body).",
    request: { body: { required: true, content: { "application/json": { schema: FormATokenRequest } } } },
    responses: {
      ...tokenResponses,
      403: {
        description: "permission_denied: tenant not allowed for this partner client",
        content: { "application/json": { schema: ErrorBody } },
      },
    },
  });
}
