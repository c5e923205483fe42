/**
 * Overdue statements through the BFF (docs/bank-files.md "Missing statements") against the real local treasury-api
 * (in-memory PGlite, small demo seed): two new accounts each get three daily camt.053 statements, one ending ten
 * days ago (its schedule is learned as daily, so the statements since are overdue) and one ending today (nothing is
 * due yet). The BFF names the first with the oldest missing day and when it was expected, and not the second; an
 * API that does not advertise `GET /statements/missing` shows nothing.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.mock("server-only", () => ({}));

import { randomUUID } from "node:crypto";
import { buildDailyCamt053 } from "@treasury/test-support/camt053-builder";
import { manyAccounts } from "../../../e2e/many-accounts";
import { addDaysIso, todayUtc } from "../../dates";
import { installCapabilities, queryContext, startLocalApi, type LocalApi } from "../testing/local-api";
import type { BffContext } from "../context";
import { missingStatements, overdueAccounts } from "./missing-statements";

let local: LocalApi;
let ctx: BffContext;
let late: { id: string; iban: string };
let onTime: { id: string; iban: string };
const today = todayUtc();

beforeAll(async () => {
  local = await startLocalApi({ capabilities: "advertised" });
  const company = local.company();
  const [a, b] = manyAccounts(company.id, 2);
  if (!a || !b) throw new Error("two accounts expected");
  const up = (body: typeof a, name: string) =>
    local.client.upsertAccount({ companyId: company.id, idempotencyKey: randomUUID() }, { ...body, name });
  const [la, lb] = await Promise.all([up(a, "Late statements CHF"), up(b, "On-time statements CHF")]);
  late = { id: la.id, iban: a.external_ref };
  onTime = { id: lb.id, iban: b.external_ref };
  const form = new FormData();
  form.append("files", new Blob([buildDailyCamt053(late.iban, addDaysIso(today, -10))]), "late.xml");
  form.append("files", new Blob([buildDailyCamt053(onTime.iban, today)]), "on-time.xml");
  await local.client.uploadStatements({ companyId: company.id, idempotencyKey: randomUUID() }, form);
  ctx = queryContext(company);
}, 120_000);

afterAll(async () => {
  local?.capabilities?.stop();
  await local?.api.close();
});

describe("overdue statements in the dashboard", () => {
  it("names the account whose statements stopped, with the oldest missing day and its due time; not the other", async () => {
    const overdue = await missingStatements(ctx);
    expect(overdue).not.toBeNull();
    const mine = overdue?.find((o) => o.account_id === late.id);
    expect(mine).toMatchObject({
      account_name: "Late statements CHF",
      last_statement_date: addDaysIso(today, -10),
    });
    // The first weekday after the last statement, due the next day at 10:00 UTC (the learned schedule).
    let first = addDaysIso(today, -9);
    while ([0, 6].includes(new Date(`${first}T00:00:00Z`).getUTCDay())) first = addDaysIso(first, 1);
    expect(mine?.since).toBe(first);
    expect(mine?.expected_at).toBe(`${addDaysIso(first, 1)}T10:00:00.000Z`);
    expect(mine?.count).toBeGreaterThanOrEqual(5);
    expect(overdue?.some((o) => o.account_id === onTime.id)).toBe(false);
  });

  it("shows nothing when the API does not advertise GET /statements/missing", async () => {
    await installCapabilities(local.baseUrl, "none");
    try {
      expect(await missingStatements(ctx)).toBeNull();
    } finally {
      await installCapabilities(local.baseUrl, "advertised");
    }
  });
});

describe("overdueAccounts", () => {
  const row = (account_id: string, expected_date: string, account_name = account_id) => ({
    account_id,
    company_id: "c",
    account_name,
    expected_date,
    due_at: `${addDaysIso(expected_date, 1)}T10:00:00.000Z`,
    last_statement_date: "2026-01-01",
    cadence: "daily" as const,
    schedule_source: "learned" as const,
  });

  it("keeps each account's oldest missing day and counts them, oldest account first", () => {
    expect(
      overdueAccounts([row("b", "2026-01-06"), row("a", "2026-01-08"), row("b", "2026-01-05"), row("a", "2026-01-07")]),
    ).toEqual([
      {
        account_id: "b",
        account_name: "b",
        since: "2026-01-05",
        expected_at: "2026-01-06T10:00:00.000Z",
        count: 2,
        last_statement_date: "2026-01-01",
      },
      {
        account_id: "a",
        account_name: "a",
        since: "2026-01-07",
        expected_at: "2026-01-08T10:00:00.000Z",
        count: 2,
        last_statement_date: "2026-01-01",
      },
    ]);
    expect(overdueAccounts([])).toEqual([]);
  });
});
