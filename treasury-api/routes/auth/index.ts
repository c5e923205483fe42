/** Token endpoints: their OpenAPI declarations and the two handlers, on the paths with and without a trailing slash. */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/context";
import { formAToken, formBToken } from "./auth.handlers";
import { describeAuthRoutes } from "./auth.routes";

export function registerAuthRoutes(api: OpenAPIHono<AppEnv>): void {
  describeAuthRoutes(api.openAPIRegistry);
  api.post("/auth/token", formBToken);
  api.post("/auth/tenant-token", formAToken);
}
