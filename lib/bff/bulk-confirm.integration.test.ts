/**
 * The BFF bulk-confirm route against the real local treasury-api (in-memory PGlite, small demo seed): bad bodies
 * are 400 naming `ids`; a treasurer confirms several proposals in one request with one audit entry each; a match
 * that cannot be confirmed (already decided, unknown) is refused on its own line while the others go through; a
 * retried request (same browser key) confirms nothing twice.
 */
import { describe, expect, it, vi } from "vitest";

vi.mock("server-only", () => ({}));
vi.mock("../auth/session", async () => (await import("./testing/local-api")).sessionModule);
vi.mock("next/headers", async () => (await import("./testing/local-api")).headersModule);

import { randomUUID } from "node:crypto";
import type { DashboardUser } from "../db/users";
import { listAudit } from "../db/audit";
import { dashboardDb } from "../server/db";
import { collectAll } from "../treasury-client";
import { bffSuite, errorFields, testUser } from "./testing/local-api";
import * as bulkRoute from "../../app/api/treasury/reconciliation/matches/bulk-confirm/route";

const bff = bffSuite({ origin: "http://127.0.0.1:3998" });
const treasurer = testUser("bulk.treasurer", ["treasurer"]);

function post(json: unknown, key = randomUUID(), who: DashboardUser = treasurer) {
  return bff.call(bulkRoute.POST, who, "POST", "/reconciliation/matches/bulk-confirm", { json, key });
}

describe("POST /reconciliation/matches/bulk-confirm", () => {
  it("refuses bad bodies with 400 naming ids", async () => {
    for (const json of [{}, { ids: [] }, { ids: ["nope"] }, { ids: Array.from({ length: 101 }, () => randomUUID()) }]) {
      const r = await post(json);
      expect(r.status, JSON.stringify(json).slice(0, 60)).toBe(400);
      expect(errorFields(r.body).some((f) => f.startsWith("ids"))).toBe(true);
    }
    const id = randomUUID();
    const twice = await post({ ids: [id, id] });
    expect(twice.status).toBe(400);
    expect(errorFields(twice.body)).toEqual(["ids"]);
    const viewer = { ...treasurer, id: randomUUID(), roles: ["viewer" as const] };
    expect((await post({ ids: [id] }, randomUUID(), viewer)).status).toBe(403);
  });

  it("confirms each proposal with its own audit entry, reports refusals per match, and replays nothing twice", async () => {
    const proposed = [...(await collectAll(bff.client.listMatches({}, { state: "proposed" })))];
    // One proposal per transaction, so no two of them compete for the same booking.
    const seen = new Set<string>();
    const picks = proposed.filter((m) => !seen.has(m.transaction_id) && seen.add(m.transaction_id)).slice(0, 3);
    expect(picks.length).toBe(3);
    const [decided] = [...(await collectAll(bff.client.listMatches({}, { state: "rejected" })))];
    expect(decided).toBeDefined();
    const unknown = randomUUID();
    const ids = [...picks.map((m) => m.id), decided?.id ?? "", unknown];
    const key = randomUUID();
    const r = await post({ ids }, key);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ confirmed: 3, refused: 2 });
    const results = r.body.results as { id: string; status: string; http_status?: number }[];
    expect(results.map((x) => [x.id, x.status])).toEqual(ids.map((id, i) => [id, i < 3 ? "confirmed" : "refused"]));
    expect(results[3]?.http_status).toBe(409);
    expect(results[4]?.http_status).toBe(404);
    for (const m of picks) {
      const [now] = [...(await collectAll(bff.client.listMatches({}, { state: "confirmed" })))].filter(
        (x) => x.id === m.id,
      );
      expect(now?.reviewer).toBe(treasurer.email);
    }
    const db = await dashboardDb();
    const audit = await listAudit(db, {
      companyIds: null,
      action: "reconciliation_match.confirm",
      objectIds: ids,
      limit: 20,
    });
    expect(audit.map((a) => a.objectId).sort()).toEqual(picks.map((m) => m.id).sort());
    expect(audit.every((a) => a.outcome === "success")).toBe(true);

    // The same request again (a retry): every confirm is answered from the API's idempotency store.
    const again = await post({ ids: picks.map((m) => m.id) }, key);
    expect(again.body).toMatchObject({ confirmed: 3, refused: 0 });
    const after = await listAudit(db, {
      companyIds: null,
      action: "reconciliation_match.confirm",
      objectIds: ids,
      limit: 20,
    });
    expect(after.filter((a) => a.outcome === "replayed")).toHaveLength(3);
  });
});
