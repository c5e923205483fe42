/**
 * Missing statements (extension; docs/bank-files.md "Missing statements"): `GET /statements/missing` lists the
 * overdue statements of the accounts in scope; `PUT /statements/schedules/{id}` sets when an account's statements
 * arrive (without one the schedule is learned from the account's imported statements).
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { accounts } from "../../db/schema";
import { STATEMENT_CADENCES, listMissingStatements, setStatementSchedule } from "../../domain/statement-schedule";
import type { AppEnv, AppRouteHandler } from "../../lib/context";
import { notFound } from "../../lib/errors";
import { idParams, json } from "../../lib/openapi";
import { scopeWhere } from "../../lib/scope";
import { defineRoute } from "../define-route";

const MissingStatement = z
  .object({
    account_id: z.string(),
    company_id: z.string(),
    account_name: z.string(),
    expected_date: z.string().meta({ description: "The missing statement's last day, YYYY-MM-DD" }),
    due_at: z.string().meta({ description: "When it was due (ISO 8601, UTC)" }),
    last_statement_date: z.string().nullable(),
    cadence: z.enum(STATEMENT_CADENCES),
    schedule_source: z.enum(["set", "learned"]),
  })
  .meta({ id: "MissingStatement" });

const MissingStatements = z.object({ results: z.array(MissingStatement) }).meta({ id: "MissingStatements" });

export const StatementScheduleBody = z
  .object({
    cadence: z.enum(STATEMENT_CADENCES),
    lag_days: z.number().int().min(0).max(31),
    due_hour: z.number().int().min(0).max(23),
  })
  .strict()
  .meta({ id: "StatementSchedule" });

export const listMissingRoute = defineRoute({
  method: "get",
  path: "/statements/missing",
  tags: ["Statements (extension)"],
  summary: "Overdue bank statements (extension)",
  description:
    "The statements of active accounts in scope that are overdue by the account's schedule (set with PUT " +
    "/statements/schedules/{id}, else learned from its imported statements: daily, weekly or monthly, due the next " +
    "day at 10:00 UTC), oldest first per account, at most 31 per account. The API also emits a statement.missing " +
    "webhook once per overdue statement.",
  scope: "read:ledger",
  company: "optional",
  responses: { 200: json(MissingStatements, "Overdue statements") },
});

export const putScheduleRoute = defineRoute({
  method: "put",
  path: "/statements/schedules/{id}",
  tags: ["Statements (extension)"],
  summary: "Set when an account's statements arrive (extension)",
  description:
    "cadence daily (Monday-Friday), weekly, monthly or none (never overdue); the statement of day D is due lag_days " +
    "after D at due_hour:00 UTC. 200 with the schedule; 404 for an account outside the scope.",
  scope: "write:ledger",
  company: "optional",
  request: {
    params: idParams,
    body: { required: true, content: { "application/json": { schema: StatementScheduleBody } } },
  },
  responses: { 200: json(StatementScheduleBody, "The schedule") },
});

const listMissing: AppRouteHandler<typeof listMissingRoute> = async (c) =>
  c.json({ results: await listMissingStatements(c.get("db"), c.get("scope")) }, 200);

const putSchedule: AppRouteHandler<typeof putScheduleRoute> = async (c) => {
  const { id } = c.req.valid("param");
  const body = c.req.valid("json");
  const [account] = await c
    .get("db")
    .select()
    .from(accounts)
    .where(and(eq(accounts.id, id), ...scopeWhere(c.get("scope"), accounts.tenantId, accounts.companyId)));
  if (!account) throw notFound("Account");
  await setStatementSchedule(c.get("db"), account, body);
  return c.json(body, 200);
};

/** Registers the two routes. */
export function registerScheduleRoutes(api: OpenAPIHono<AppEnv>): void {
  api.openapi(listMissingRoute, listMissing);
  api.openapi(putScheduleRoute, putSchedule);
}
