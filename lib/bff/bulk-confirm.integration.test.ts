/**
 * The BFF bulk-confirm route against the real local treasury-api (in-memory PGlite, small demo seed): bad bodies
 * are 400 naming `ids`; a treasurer confirms several proposals in one request with one audit entry each; a match
 * that cannot be confirmed (already decided, unknown) is refused on its own line while the others go through; a
 * retried request (same browser key) confirms nothing twice.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.mock("server-only", () => ({}));
const session: { user: DashboardUser | null } = { user: null };
vi.mock("../auth/session", () => ({ currentUser: async () => session.user }));
vi.mock("next/headers", () => ({
  headers: async () => new Headers(),
  cookies: async () => ({ get: () => undefined }),
}));

import { randomUUID } from "node:crypto";
import { NextRequest } from "next/server";
import { startServer, type RunningServer } from "../../treasury-api/server";
import { DEMO_TREASURY_B } from "../../treasury-api/seed/demo-clients";
import type { DashboardUser } from "../db/users";
import { listAudit } from "../db/audit";
import { dashboardDb } from "../server/db";
import { collectAll, createTreasuryClient, type TreasuryClient } from "../treasury-client";
import * as bulkRoute from "../../app/api/treasury/reconciliation/matches/bulk-confirm/route";

const ORIGIN = "http://127.0.0.1:3998";
type Handler = (req: NextRequest, segment: { params: Promise<Record<string, string>> }) => Promise<Response>;
let api: RunningServer;
let client: TreasuryClient;
const treasurer: DashboardUser = {
  id: randomUUID(),
  email: "bulk.treasurer@test.local",
  name: "Bulk Treasurer",
  roles: ["treasurer"],
  companyIds: null,
  disabled: false,
};

async function post(json: unknown, key = randomUUID(), who: DashboardUser = treasurer) {
  session.user = who;
  const req = new NextRequest(`${ORIGIN}/api/treasury/reconciliation/matches/bulk-confirm`, {
    method: "POST",
    headers: { origin: ORIGIN, "idempotency-key": key, "content-type": "application/json" },
    body: JSON.stringify(json),
  });
  const res = await (bulkRoute.POST as Handler)(req, { params: Promise.resolve({}) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const fields = (b: Record<string, unknown>) =>
  Object.keys(((b.details as { errors?: object } | undefined)?.errors ?? {}) as object);

beforeAll(async () => {
  api = await startServer({ port: 0, host: "127.0.0.1", data: "memory", seed: "demo", seedScale: 0.01, log: false });
  Object.assign(process.env, {
    TREASURY_API_BASE_URL: `${api.url}/public`,
    TREASURY_CLIENT_ID: DEMO_TREASURY_B.clientId,
    TREASURY_CLIENT_SECRET: DEMO_TREASURY_B.clientSecret,
    NEXTAUTH_SECRET: "bulk-confirm-integration-secret-0123456789",
    NEXTAUTH_URL: ORIGIN,
    DASHBOARD_DATA_DIR: "memory",
    DASHBOARD_DEMO: "0",
    DASHBOARD_STEP_UP: "off",
  });
  client = createTreasuryClient({
    baseUrl: `${api.url}/public`,
    form: "B",
    clientId: DEMO_TREASURY_B.clientId,
    clientSecret: DEMO_TREASURY_B.clientSecret,
    scopes: DEMO_TREASURY_B.scopes,
  });
  (globalThis as { __treasuryClient?: TreasuryClient }).__treasuryClient = client;
}, 120_000);
afterAll(async () => {
  await api?.close();
});

describe("POST /reconciliation/matches/bulk-confirm", () => {
  it("refuses bad bodies with 400 naming ids", async () => {
    for (const json of [{}, { ids: [] }, { ids: ["nope"] }, { ids: Array.from({ length: 101 }, () => randomUUID()) }]) {
      const r = await post(json);
      expect(r.status, JSON.stringify(json).slice(0, 60)).toBe(400);
      expect(fields(r.body).some((f) => f.startsWith("ids"))).toBe(true);
    }
    const id = randomUUID();
    const twice = await post({ ids: [id, id] });
    expect(twice.status).toBe(400);
    expect(fields(twice.body)).toEqual(["ids"]);
    const viewer = { ...treasurer, id: randomUUID(), roles: ["viewer" as const] };
    expect((await post({ ids: [id] }, randomUUID(), viewer)).status).toBe(403);
  });

  it("confirms each proposal with its own audit entry, reports refusals per match, and replays nothing twice", async () => {
    const proposed = [...(await collectAll(client.listMatches({}, { state: "proposed" })))];
    // One proposal per transaction, so no two of them compete for the same booking.
    const seen = new Set<string>();
    const picks = proposed.filter((m) => !seen.has(m.transaction_id) && seen.add(m.transaction_id)).slice(0, 3);
    expect(picks.length).toBe(3);
    const [decided] = [...(await collectAll(client.listMatches({}, { state: "rejected" })))];
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
      const [now] = [...(await collectAll(client.listMatches({}, { state: "confirmed" })))].filter(
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
