/**
 * The capability module against a scripted upstream on a real socket: an
 * OpenAPI document with and without the extension paths, a 404 (no document),
 * a broken answer (the last known state stays), and the refresh timer.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.mock("server-only", () => ({}));

import { createCapabilities, type Capabilities } from "./capabilities";

const WITH = {
  openapi: "3.1.0",
  paths: {
    "/accounts": { get: {} },
    "/statements": { post: {} },
    "/payments/batches/{id}/debtor-account": { get: {} },
  },
};
const WITHOUT = { openapi: "3.1.0", paths: { "/accounts": { get: {} }, "/statements": { get: {} } } };

let script: { status: number; body: string } = { status: 200, body: JSON.stringify(WITH) };
const hits: string[] = [];
let server: Server;
let base = "";

beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push(req.url ?? "");
    res.writeHead(script.status, { "Content-Type": "application/json" });
    res.end(script.body);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/public`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

async function started(): Promise<Capabilities> {
  const c = createCapabilities({ baseUrl: base, refreshMs: 60_000 });
  await c.ready;
  return c;
}

describe("capabilities", () => {
  it("advertises an operation only when the document lists its method and path", async () => {
    script = { status: 200, body: JSON.stringify(WITH) };
    hits.length = 0;
    const c = await started();
    expect(hits).toEqual(["/public/openapi.json"]);
    expect(c.has("statements.upload")).toBe(true);
    expect(c.has("payments.debtor_account")).toBe(true);
    c.stop();

    script = { status: 200, body: JSON.stringify(WITHOUT) };
    const without = await started();
    // GET /statements is listed, POST is not: no upload.
    expect(without.has("statements.upload")).toBe(false);
    expect(without.has("payments.debtor_account")).toBe(false);
    without.stop();
  });

  it("advertises body fields only when the component schema lists every one of them", async () => {
    const schemas = (batch: string[], instruction: string[]) => ({
      PaymentBatchCreate: { type: "object", properties: Object.fromEntries(batch.map((p) => [p, {}])) },
      PaymentInstructionCreate: { type: "object", properties: Object.fromEntries(instruction.map((p) => [p, {}])) },
    });
    const full = {
      ...WITH,
      paths: { ...WITH.paths, "/payments/batches/{id}": { get: {}, patch: {}, delete: {} } },
      components: {
        schemas: schemas(["company_id", "reference", "debtor_account_id"], ["creditor_bic", "remittance_information"]),
      },
    };
    script = { status: 200, body: JSON.stringify(full) };
    const c = await started();
    expect(
      ["payments.run_fields", "payments.batch_edit", "payments.batch_discard"].map((n) => c.has(n as never)),
    ).toEqual([true, true, true]);
    // One field missing (no remittance_information) and no PATCH: neither is advertised.
    script = {
      status: 200,
      body: JSON.stringify({
        ...full,
        paths: { ...WITH.paths, "/payments/batches/{id}": { get: {}, delete: {} } },
        components: { schemas: schemas(["company_id", "reference", "debtor_account_id"], ["creditor_bic"]) },
      }),
    };
    await c.refresh();
    expect(c.has("payments.run_fields")).toBe(false);
    expect(c.has("payments.batch_edit")).toBe(false);
    expect(c.has("payments.batch_discard")).toBe(true);
    c.stop();
  });

  it("advertises nothing without a document, and keeps the last known state when a read fails", async () => {
    script = { status: 404, body: "{}" };
    const none = await started();
    expect(none.has("statements.upload")).toBe(false);

    script = { status: 200, body: JSON.stringify(WITH) };
    await none.refresh();
    expect(none.has("statements.upload")).toBe(true);

    script = { status: 503, body: "down" };
    await none.refresh();
    expect(none.has("statements.upload")).toBe(true);
    script = { status: 200, body: "not json" };
    await none.refresh();
    expect(none.has("statements.upload")).toBe(true);

    // The endpoint going away is seen at the next read.
    script = { status: 200, body: JSON.stringify(WITHOUT) };
    await none.refresh();
    expect(none.has("statements.upload")).toBe(false);
    none.stop();
  });

  it("tries again soon after a failed read", async () => {
    script = { status: 503, body: "starting" };
    const c = createCapabilities({ baseUrl: base, refreshMs: 600_000, retryMs: 50 });
    await c.ready;
    expect(c.has("statements.upload")).toBe(false);
    script = { status: 200, body: JSON.stringify(WITH) };
    await vi.waitFor(() => expect(c.has("statements.upload")).toBe(true), { timeout: 2_000 });
    c.stop();
  });

  it("reads again on its timer", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    try {
      script = { status: 200, body: JSON.stringify(WITHOUT) };
      const c = createCapabilities({ baseUrl: base, refreshMs: 600_000 });
      await c.ready;
      expect(c.has("statements.upload")).toBe(false);
      script = { status: 200, body: JSON.stringify(WITH) };
      hits.length = 0;
      vi.advanceTimersByTime(600_000);
      await vi.waitFor(() => expect(c.has("statements.upload")).toBe(true));
      expect(hits).toEqual(["/public/openapi.json"]);
      c.stop();
    } finally {
      vi.useRealTimers();
    }
  });
});
