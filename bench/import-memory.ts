/**
 * `npx tsx bench/import-memory.ts [--files 4] [--mb 24] [--db postgres]` — resident memory of the Treasury API while it imports
 * several large statement files in ONE `POST /statements` request (docs/bank-files.md "Hostile files": four 24 MB
 * files may raise the API's RSS by at most 300 MB).
 *
 * Generates `--files` camt.053.001.08 statements of about `--mb` MB each (different accounts, entries with an
 * end-to-end id, a counterparty and a remittance line) with the test builder, starts the API in a child process
 * (in-memory PGlite, the test fixture), reads its RSS from /proc after warm-up, sends the files as one multipart
 * upload and prints the status, the time and the growth of the child's peak RSS (VmHWM) over its RSS before.
 * `BENCH_DATA=DIR` puts the API's PGlite database in that folder instead of in memory; `--db postgres` puts it in a
 * throw-away PostgreSQL cluster (bench/lib/databases.ts), so the API's growth is the import's own working memory with
 * no stored data in the process (docs/bank-files.md "Speed and memory"). Linux only (/proc). A benchmark, not a test.
 */
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { buildCamt, type CamtEntry } from "@treasury/api/test/camt053-builder";
import { CLIENTS, IDS } from "@treasury/api/test/harness";
import { createBenchDatabase, type BenchDatabase } from "./lib/databases";

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  const v = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isFinite(v) || v <= 0) throw new Error(`${name} must be a positive number`);
  return v;
}

const MB = 1024 * 1024;
const status = (pid: number, key: string) =>
  Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) * 1024;

/** Valid Norwegian-format IBANs are not needed: the accounts are found or created by their Othr/Id. */
function file(index: number, bytes: number): string {
  const day = "2026-03-02";
  const sample = (n: number): CamtEntry[] =>
    Array.from({ length: n }, (_, i) => ({
      amount: `${(i % 9000) + 1}.${String(i % 100).padStart(2, "0")}`,
      currency: "NOK",
      direction: i % 3 === 0 ? ("debit" as const) : ("credit" as const),
      booked: day,
      value: day,
      servicerRef: `MEM-${index}-${i}`,
      txs: [{ endToEndId: `E2E-${index}-${i}`, counterparty: `Counterparty ${i % 500}`, remittance: [`Invoice ${i}`] }],
    }));
  const doc = (n: number) =>
    buildCamt({
      version: "08",
      messageId: `MEM-${index}`,
      createdAt: `${day}T22:00:00Z`,
      statements: [
        {
          id: `MEM-${index}`,
          createdAt: `${day}T22:00:00Z`,
          account: { otherId: `MEMBENCH${index}`, currency: "NOK" },
          balances: [{ code: "CLBD", amount: "10.00", currency: "NOK", date: day }],
          entries: sample(n),
        },
      ],
    });
  const per = doc(1000).length / 1000;
  return doc(Math.round(bytes / per));
}

async function main() {
  const count = arg("--files", 4);
  const size = arg("--mb", 24);
  const files = Array.from({ length: count }, (_, i) => file(i, size * MB));
  const dbArg = process.argv.indexOf("--db");
  const kind = dbArg >= 0 ? process.argv[dbArg + 1] : undefined;
  if (kind !== undefined && kind !== "postgres") throw new Error("--db must be postgres (default: PGlite)");
  const pg: BenchDatabase | null = kind === "postgres" ? await createBenchDatabase("postgres") : null;
  const child = spawn(
    process.execPath,
    ["--import", "tsx", fileURLToPath(new URL("./import-memory-server.ts", import.meta.url))],
    {
      stdio: ["ignore", "pipe", "inherit"],
      env: {
        ...process.env,
        ...(pg?.url ? { BENCH_DATABASE_URL: pg.url } : {}),
        // `BENCH_API_NODE_OPTIONS="--max-old-space-size=256"`: cap the API's JavaScript heap, to see how much of the
        // growth is live data and how much is garbage the collector had no reason to free yet.
        ...(process.env.BENCH_API_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_API_NODE_OPTIONS } : {}),
      },
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on("data", (d: Buffer) => {
      const m = /URL (\S+)/.exec(d.toString());
      if (m?.[1]) resolve(m[1]);
    });
    child.on("exit", (code) => reject(new Error(`server exited ${code}`)));
  });
  const pid = child.pid ?? 0;
  try {
    const c = CLIENTS.fullB;
    const tok = (await (
      await fetch(`${url}/public/auth/token/`, {
        method: "POST",
        headers: {
          authorization: `Basic ${Buffer.from(`${c.clientId}:${c.secret}`).toString("base64")}`,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: "grant_type=client_credentials",
      })
    ).json()) as { access_token: string };
    // node:http, not fetch: a large import may take longer than fetch's 300 s header timeout.
    const send = async (parts: string[], names: string[]) => {
      const form = new FormData();
      parts.forEach((p, i) =>
        form.append("files", new File([p], names[i] ?? `f${i}.xml`, { type: "application/xml" })),
      );
      const encoded = new Response(form);
      const payload = Buffer.from(await encoded.arrayBuffer());
      return new Promise<{ status: number; text: () => Promise<string> }>((resolve, reject) => {
        const req = request(`${url}/public/statements`, {
          method: "POST",
          headers: {
            authorization: `Bearer ${tok.access_token}`,
            "x-company-id": IDS.companyA,
            "idempotency-key": crypto.randomUUID(),
            "content-type": encoded.headers.get("content-type") ?? "",
            "content-length": String(payload.length),
          },
        });
        req.setTimeout(0);
        req.on("response", (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () =>
            resolve({ status: res.statusCode ?? 0, text: async () => Buffer.concat(chunks).toString("utf8") }),
          );
        });
        req.on("error", reject);
        req.end(payload);
      });
    };
    // Warm-up: one small file through the same path (modules loaded, JIT warm).
    await (await send([file(99, 200_000)], ["warm.xml"])).text();
    (global as { gc?: () => void }).gc?.();
    await new Promise((r) => setTimeout(r, 1000));
    // Reset the child's peak RSS to its current RSS (Linux clear_refs 5), so VmHWM is the peak of this request.
    writeFileSync(`/proc/${pid}/clear_refs`, "5");
    const before = status(pid, "VmRSS");
    const t0 = performance.now();
    const res = await send(
      files,
      files.map((_, i) => `big-${i}.xml`),
    );
    const body = await res.text();
    const seconds = (performance.now() - t0) / 1000;
    const peak = status(pid, "VmHWM");
    const total = files.reduce((s, f) => s + f.length, 0);
    console.log(
      [
        `database: ${pg?.description ?? (process.env.BENCH_DATA ? `PGlite in ${process.env.BENCH_DATA}` : "PGlite in memory")}`,
        `files: ${count} × ${(files[0]?.length ?? 0) / MB > 0 ? ((files[0]?.length ?? 0) / MB).toFixed(1) : 0} MB (${(total / MB).toFixed(1)} MB)`,
        `status: ${res.status}${res.status === 200 ? "" : ` ${body.slice(0, 300)}`}`,
        `time: ${seconds.toFixed(1)} s`,
        `RSS before: ${(before / MB).toFixed(0)} MB, peak: ${(peak / MB).toFixed(0)} MB, growth: ${((peak - before) / MB).toFixed(0)} MB (limit 300 MB)`,
      ].join("\n"),
    );
  } finally {
    child.kill("SIGKILL"); // SIGTERM would wait for an import still in flight
    await pg?.dispose();
  }
}

await main();
