import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { memoryDashboardDb } from "../db/test-db";
import { FxFetchError, fetchAndImportRates, startFxRateSchedule, type FxFetchResult } from "./fetch";
import { FxFileError } from "./rate-file";
import { listRates } from "./store";

const daily = readFileSync(path.join(__dirname, "fixtures", "eurofxref-daily.xml"), "utf8");

const database = memoryDashboardDb();
let server: Server;
let base: string;
let hits = 0;

beforeAll(async () => {
  // A loopback stand-in for the ECB: the daily file, a damaged copy, a server error and a slow answer.
  server = createServer((req, res) => {
    hits++;
    if (req.url === "/eurofxref-daily.xml") {
      res.writeHead(200, { "content-type": "text/xml" }).end(daily);
    } else if (req.url === "/broken.xml") {
      res.writeHead(200, { "content-type": "text/xml" }).end(daily.replace("rate='179.81'", "rate='179,81'"));
    } else if (req.url === "/slow.xml") {
      setTimeout(() => res.writeHead(200).end(daily), 2_000);
    } else {
      res.writeHead(503).end("down");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(async () => {
  await database.exec("delete from fx_rates");
});

describe("fetchAndImportRates", () => {
  it("fetches the file and imports it with the URL as source, idempotently", async () => {
    const url = `${base}/eurofxref-daily.xml`;
    const first = await fetchAndImportRates(database.db, url);
    expect(first).toMatchObject({ url, format: "ecb-xml", dates: 1, inserted: 29, updated: 0, unchanged: 0 });
    expect(await fetchAndImportRates(database.db, url)).toMatchObject({ inserted: 0, unchanged: 29 });
    const [usd] = await listRates(database.db, { quotes: ["USD"], from: "2026-11-20", to: "2026-11-20" });
    expect(usd).toMatchObject({ rate: "1.1573", source: url });
  });

  it("imports nothing from a damaged file and names the element", async () => {
    const err = await fetchAndImportRates(database.db, `${base}/broken.xml`).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FxFileError);
    expect((err as FxFileError).message).toMatch(/<Cube time="2026-11-20"> > <Cube currency="JPY">: rate "179,81"/);
    expect(await listRates(database.db, { from: "2026-11-20", to: "2026-11-20" })).toEqual([]);
  });

  it("reports an HTTP error, a timeout and a refused connection as FxFetchError", async () => {
    await expect(fetchAndImportRates(database.db, `${base}/missing.xml`)).rejects.toThrow(/HTTP 503/);
    await expect(fetchAndImportRates(database.db, `${base}/slow.xml`, { timeoutMs: 200 })).rejects.toBeInstanceOf(
      FxFetchError,
    );
    await expect(fetchAndImportRates(database.db, "http://127.0.0.1:1/x.xml")).rejects.toBeInstanceOf(FxFetchError);
  });
});

describe("startFxRateSchedule", () => {
  it("runs at once and then on the interval, reports failures and stops", async () => {
    const outcomes: ({ ok: true; result: FxFetchResult } | { ok: false; error: unknown })[] = [];
    const before = hits;
    const schedule = startFxRateSchedule({
      url: `${base}/eurofxref-daily.xml`,
      intervalMs: 50,
      getDb: async () => database.db,
      onResult: (o) => outcomes.push(o),
    });
    await expect.poll(() => outcomes.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
    schedule.stop();
    const settled = hits;
    await new Promise((r) => setTimeout(r, 200));
    expect(hits).toBeLessThanOrEqual(settled + 1); // at most the run in flight when stopped
    expect(hits - before).toBeGreaterThanOrEqual(3);
    expect(outcomes[0]).toMatchObject({ ok: true, result: { inserted: 29 } });
    expect(outcomes[1]).toMatchObject({ ok: true, result: { inserted: 0, unchanged: 29 } });

    const failures: unknown[] = [];
    const failing = startFxRateSchedule({
      url: `${base}/down.xml`,
      intervalMs: 50,
      getDb: async () => database.db,
      onResult: (o) => {
        if (!o.ok) failures.push(o.error);
      },
    });
    await expect.poll(() => failures.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    failing.stop();
    expect(failures[0]).toBeInstanceOf(FxFetchError);
  });
});
