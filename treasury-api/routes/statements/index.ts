/** Statement import area (extension): the route declaration wired to its handler. */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/context";
import { importStatementFiles } from "./statements.handlers";
import { importStatementsRoute } from "./statements.routes";
import { registerScheduleRoutes } from "./schedules";

export function registerStatementRoutes(api: OpenAPIHono<AppEnv>): void {
  api.openapi(importStatementsRoute, importStatementFiles);
  registerScheduleRoutes(api);
}
