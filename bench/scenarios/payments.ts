/**
 * Benchmark scenario: creating a payment batch of 1,000
 * instructions through POST /public/payments/batches, target at most 500 ms,
 * reported as a ratio to the trivial authenticated route GET /public/ping.
 *
 * `paymentsScenario` is the entry for the scenario list of `bench/api.ts`: a
 * request factory any runner can send with its own token. Run this file
 * directly (`npx tsx bench/scenarios/payments.ts [iterations]`) to measure it
 * alone on the real app with an in-memory PGlite and the test fixture.
 */
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";

export interface ScenarioRequest {
  method: "POST" | "GET";
  /** Path under the base address (without /public). */
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface ApiScenario {
  name: string;
  /** Target median in milliseconds. */
  targetMs: number;
  /** The request of one iteration; every call gives a fresh Idempotency-Key and end-to-end ids. */
  request(ctx: { companyId: string; currency: string; iteration: number }): ScenarioRequest;
}

const IBANS = [
  "NO9386011117947",
  "SE4550000000058398257466",
  "DK5000400440116243",
  "FI2112345600000785",
  "DE89370400440532013000",
];

/** A valid 1,000-instruction batch body for `companyId` in `currency` (about 160 kB of JSON). */
export function thousandInstructionBatch(companyId: string, currency: string, iteration: number): string {
  const instructions = Array.from({ length: 1000 }, (_, i) => ({
    amount: `${(i % 997) + 1}.${String(i % 100).padStart(2, "0")}`,
    currency,
    creditor_name: `Bench Creditor ${i} AS`,
    creditor_iban: IBANS[i % IBANS.length],
    end_to_end_id: `BENCH-${iteration}-${i}`,
  }));
  return JSON.stringify({ company_id: companyId, currency, instructions });
}

export const paymentsScenario: ApiScenario = {
  name: "POST /payments/batches (1,000 instructions)",
  targetMs: 500,
  request: ({ companyId, currency, iteration }) => ({
    method: "POST",
    path: "/payments/batches",
    headers: { "content-type": "application/json", "idempotency-key": crypto.randomUUID(), "x-company-id": companyId },
    body: thousandInstructionBatch(companyId, currency, iteration),
  }),
};

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
}

/** Measures the scenario alone: median of `iterations` runs each, after warm-up. */
export async function measurePayments(
  iterations = 15,
): Promise<{ pingMs: number; createMs: number; ratio: number; targetMs: number }> {
  const { createHarness, IDS } = await import("@treasury/api/test/harness");
  const h = await createHarness();
  try {
    const token = await h.token("fullB");
    const send = async (r: ScenarioRequest) => {
      const res = await h.app.request(`/public${r.path}`, {
        method: r.method,
        headers: { ...r.headers, authorization: `Bearer ${token}` },
        body: r.body,
      });
      await res.arrayBuffer();
      if (res.status >= 300) throw new Error(`${r.method} ${r.path}: ${res.status}`);
    };
    const ping: ScenarioRequest = { method: "GET", path: "/ping", headers: {} };
    const time = async (r: () => ScenarioRequest) => {
      const req = r();
      const t0 = performance.now();
      await send(req);
      return performance.now() - t0;
    };
    for (let i = 0; i < 3; i++) {
      await time(() => ping);
      await time(() => paymentsScenario.request({ companyId: IDS.companyA, currency: "NOK", iteration: -1 - i }));
    }
    const pings: number[] = [];
    const creates: number[] = [];
    for (let i = 0; i < iterations; i++) {
      pings.push(await time(() => ping));
      creates.push(
        await time(() => paymentsScenario.request({ companyId: IDS.companyA, currency: "NOK", iteration: i })),
      );
    }
    const pingMs = median(pings);
    const createMs = median(creates);
    return { pingMs, createMs, ratio: createMs / pingMs, targetMs: paymentsScenario.targetMs };
  } finally {
    await h.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const n = Number(process.argv[2] ?? 15);
  const r = await measurePayments(Number.isInteger(n) && n > 0 ? n : 15);
  process.stdout.write(
    `${paymentsScenario.name}: median ${r.createMs.toFixed(1)} ms (target ≤ ${r.targetMs} ms: ` +
      `${r.createMs <= r.targetMs ? "met" : "MISSED"}); ` +
      `GET /ping median ${r.pingMs.toFixed(2)} ms; ratio ${r.ratio.toFixed(1)}×\n`,
  );
}
