/**
 * `npm run bench:import` — statement import benchmark.
 *
 *   npm run bench:import -- [--entries 20000] [--format camt|mt940|bai2] [--cpu-prof PREFIX] [--db postgres]
 *
 * `--db postgres` runs the same imports against a throw-away PostgreSQL cluster on loopback (bench/lib/databases.ts,
 * as `bench:api` and `bench/import-memory.ts` start it) instead of an in-memory PGlite; the CPU column is then this
 * process's CPU only (parse, our code, node-postgres), the server's CPU is printed beside it.
 *
 * `--cpu-prof PREFIX` writes `PREFIX.<format>.cpuprofile`, a V8 CPU profile of the import call alone.
 *
 * Runs one row per format (camt.053.001.08, MT940, BAI2; or only `--format`), each a file of `--entries` booked
 * entries written by the test builders. For camt: generates one camt.053.001.08 statement of `--entries` booked entries
 * (default 20,000, about 10 MB: each with an end-to-end id, a counterparty
 * and a remittance line) with the test builder, imports it into a fresh
 * in-memory PGlite database for a new company with the real importer (parse,
 * one transaction, webhook events, match proposals), and prints the file
 * size, parse time, total import time and the process's peak resident memory
 * (RSS) before and after the import. Generating the file runs first; the
 * measurement runs in a child process that only reads, parses and imports it. Besides the wall time it prints the
 * process's CPU time for the import (PGlite runs in the process) and the 1-minute load average: on a shared, loaded
 * machine the wall-clock rate says more about the neighbours than about the code. The camt parser streams the
 * XML (saxes) and maps each entry as it is read; only the plain entries are kept while rows are written
 * (docs/bank-files.md "Speed and memory").
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { Session } from "node:inspector/promises";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { runCleanups } from "./lib/cleanup";
import { createBenchDatabase } from "./lib/databases";
import { sql } from "drizzle-orm";
import { openDatabase, queryRows, type Db } from "@treasury/api/db/client";
import { companies, tenants } from "@treasury/api/db/schema";
import { parseBankFile } from "@treasury/api/import/bank-files";
import { importStatements } from "@treasury/api/import/camt053-import";
import { newId } from "@treasury/api/lib/secrets";
import { buildBai2, oneAccountBai2 } from "@treasury/api/test/bai2-builder";
import { buildCamt, camtDocument, type CamtEntry } from "@treasury/api/test/camt053-builder";
import { buildMt940, german86, type MtEntry } from "@treasury/api/test/mt940-builder";

const FORMATS = ["camt", "mt940", "bai2"] as const;
type Format = (typeof FORMATS)[number];

function argValue(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  const v = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(v) || v < 1) throw new Error(`${name} must be a positive integer`);
  return v;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
/** Peak RSS of this process so far (resourceUsage reports kilobytes). */
const peakRss = () => process.resourceUsage().maxRSS * 1024;

/** Writes the generated file of the format to a temporary file and returns its path. */
function generate(n: number, format: Format): string {
  if (format === "mt940") return generateMt940(n);
  if (format === "bai2") return generateBai2(n);
  const day = "2026-03-02";
  const entries: CamtEntry[] = Array.from({ length: n }, (_, i) => ({
    amount: `${(i % 9000) + 1}.${String(i % 100).padStart(2, "0")}`,
    currency: "NOK",
    direction: i % 3 === 0 ? "debit" : "credit",
    booked: day,
    value: day,
    servicerRef: `BENCH-${i}`,
    txs: [
      {
        endToEndId: `E2E-${i}`,
        counterparty: `Counterparty number ${i % 500} AS`,
        remittance: [`Invoice ${100000 + i} February`],
      },
    ],
  }));
  const pretty = buildCamt(
    camtDocument({ version: "08", messageId: "BENCH", createdAt: `${day}T22:00:00+01:00` }, [
      {
        id: "BENCH-1",
        account: { iban: "NO9386011117947", currency: "NOK", servicerBic: "DNBANOKK" },
        balances: [{ code: "CLBD", amount: "1000000.00", currency: "NOK", date: day }],
        entries,
      },
    ]),
  );
  // Written without indentation, as banks send it: about 10 MB for 20,000 entries.
  const file = path.join(mkdtempSync(path.join(tmpdir(), "bench-import-")), "bench-camt053.xml");
  writeFileSync(file, pretty.replace(/>\s+</g, "><"));
  return file;
}

const amountOf = (i: number) => `${(i % 9000) + 1}.${String(i % 100).padStart(2, "0")}`;
const cents = (a: string) => BigInt(a.replace(".", ""));
const fromCents = (c: bigint) =>
  `${c < 0n ? "-" : ""}${(c < 0n ? -c : c) / 100n}.${String((c < 0n ? -c : c) % 100n).padStart(2, "0")}`;

/** An MT940 statement of n entries with German structured :86: details, balances that add up. */
function generateMt940(n: number): string {
  const day = "2026-03-02";
  let net = 0n;
  const entries: MtEntry[] = Array.from({ length: n }, (_, i) => {
    const amount = amountOf(i);
    const credit = i % 3 !== 0;
    net += credit ? cents(amount) : -cents(amount);
    return {
      value: day,
      booked: day,
      mark: credit ? "C" : "D",
      amount,
      customerRef: `KREF${i}`,
      bankRef: `BENCH${i}`,
      info: german86({
        endToEndId: `E2E-${i}`,
        purpose: `Invoice ${100000 + i} February`,
        name: `Counterparty number ${i % 500} AS`,
      }),
    };
  });
  const text = buildMt940({
    envelopeBic: "DEUTDEFF",
    statements: [
      {
        account: "DE89370400440532013000",
        opening: { date: "2026-03-01", currency: "EUR", amount: "1000000.00" },
        entries,
        closing: { date: day, currency: "EUR", amount: fromCents(100000000n + net) },
      },
    ],
  });
  const file = path.join(mkdtempSync(path.join(tmpdir(), "bench-import-")), "bench.sta");
  writeFileSync(file, text);
  return file;
}

/** A BAI2 file of n transaction details with opening / closing ledger and trailers that add up. */
function generateBai2(n: number): string {
  let net = 0n;
  const details = Array.from({ length: n }, (_, i) => {
    const amount = amountOf(i);
    const credit = i % 3 !== 0;
    net += credit ? cents(amount) : -cents(amount);
    return {
      type: credit ? "175" : "475",
      amount,
      bankRef: `BENCH${i}`,
      customerRef: `C${i}`,
      text: `Counterparty number ${i % 500} invoice ${100000 + i}`,
    };
  });
  const text = buildBai2(
    oneAccountBai2({
      number: "000123456789",
      summary: [
        ["010", "1000000.00"],
        ["015", fromCents(100000000n + net)],
      ],
      details,
    }),
  );
  const file = path.join(mkdtempSync(path.join(tmpdir(), "bench-import-")), "bench.bai");
  writeFileSync(file, text);
  return file;
}

/** utime + stime (+ reaped children's) of a process from /proc/PID/stat, in ms; its parent's pid. */
function procStat(pid: number): { cpuMs: number; ppid: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(f[i] ?? 0), 0);
    return { cpuMs: ticks * 10, ppid: Number(f[1]) };
  } catch {
    return null;
  }
}

/** CPU ms of a PostgreSQL cluster: its postmaster and every process it forked (backends, WAL writer, checkpointer). */
function clusterCpuMs(postmaster: number): number {
  let total = procStat(postmaster)?.cpuMs ?? 0;
  for (const name of readdirSync("/proc")) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    const s = procStat(pid);
    if (s?.ppid === postmaster) total += s.cpuMs;
  }
  return total;
}

/** The postmaster's pid (the parent of this connection's backend), or null on PGlite. */
async function postmasterPid(db: Db): Promise<number | null> {
  if (!process.env.BENCH_DATABASE_URL) return null;
  const [row] = await queryRows<{ pid: number }>(db, sql`select pg_backend_pid() as pid`);
  return row ? (procStat(row.pid)?.ppid ?? null) : null;
}

/** The measured part, in its own process so that generating the file does not count: read, parse, import. */
async function measure(file: string, n: number, format: Format): Promise<void> {
  const url = process.env.BENCH_DATABASE_URL;
  const database = await openDatabase(url ? { url } : { dataDir: "memory" });
  try {
    const tenantId = newId();
    const companyId = newId();
    await database.db.insert(tenants).values({ id: tenantId, name: "Bench tenant" });
    await database.db
      .insert(companies)
      .values({ id: companyId, tenantId, orgnr: "999999999", name: "Bench AS", country: "NO" });
    const rssBefore = process.memoryUsage().rss;
    const content = new Uint8Array(readFileSync(file));
    const bytes = content.byteLength;

    let t = performance.now();
    const parsed = parseBankFile(content, path.basename(file));
    const parseMs = performance.now() - t;
    const peakAfterParse = peakRss();
    if (parsed.statements[0]?.entries.length !== n) throw new Error("the parser did not read every entry");

    // `--cpu-prof FILE`: a V8 CPU profile of the import alone (not the database set-up or the separate parse above).
    const profArg = process.argv.indexOf("--cpu-prof");
    const profile = profArg >= 0 ? new Session() : null;
    if (profile) {
      profile.connect();
      await profile.post("Profiler.enable");
      await profile.post("Profiler.start");
    }
    const postmaster = await postmasterPid(database.db);
    const serverBefore = postmaster ? clusterCpuMs(postmaster) : 0;
    t = performance.now();
    const cpu = process.cpuUsage();
    const summary = await importStatements(database.db, { companyId, files: [{ name: path.basename(file), content }] });
    const importMs = performance.now() - t;
    const used = process.cpuUsage(cpu);
    const serverMs = postmaster ? clusterCpuMs(postmaster) - serverBefore : 0;
    if (profile) {
      const { profile: cpuProfile } = await profile.post("Profiler.stop");
      writeFileSync(`${process.argv[profArg + 1]}.${format}.cpuprofile`, JSON.stringify(cpuProfile));
      profile.disconnect();
    }
    // CPU time of this process (PGlite runs in it): the figure that a loaded machine distorts least.
    const cpuMs = (used.user + used.system) / 1000;
    const f = summary.files[0];
    if (f?.transactionsInserted !== n) throw new Error(`expected ${n} transactions, got ${f?.transactionsInserted}`);

    const peak = peakRss();
    console.log(
      `${(parsed.format ?? parsed.version ?? format).padEnd(16)} ${String(n).padStart(7)} entries  ` +
        `${mb(bytes).padStart(8)}  parse ${(parseMs / 1000).toFixed(2)} s  import (parse+store) ` +
        `${(importMs / 1000).toFixed(2)} s  ${String(Math.round(n / (importMs / 1000))).padStart(6)} entries/s  ` +
        `(CPU ${(cpuMs / 1000).toFixed(2)} s = ${Math.round(n / (cpuMs / 1000))} entries per CPU second; load ` +
        `${loadavg()[0]?.toFixed(1)})  ` +
        (postmaster
          ? `PostgreSQL CPU ${(serverMs / 1000).toFixed(2)} s (both ${((cpuMs + serverMs) / 1000).toFixed(2)} s = ` +
            `${Math.round(n / ((cpuMs + serverMs) / 1000))} entries per CPU second)  `
          : "") +
        `peak RSS ${mb(peak)} (${mb(peakAfterParse)} after parse, ${mb(rssBefore)} before reading; growth ` +
        `${mb(peak - rssBefore)} = ${((peak - rssBefore) / bytes).toFixed(1)}× the file)`,
    );
  } finally {
    await database.close();
  }
}

async function main(): Promise<void> {
  const n = argValue("--entries", 20_000);
  const formatArg = process.argv.indexOf("--format");
  const only = formatArg >= 0 ? process.argv[formatArg + 1] : undefined;
  if (only !== undefined && !FORMATS.includes(only as Format)) throw new Error("--format must be camt, mt940 or bai2");
  const formats = only ? [only as Format] : [...FORMATS];
  const fileArg = process.argv.indexOf("--file");
  if (fileArg >= 0) return measure(process.argv[fileArg + 1] ?? "", n, formats[0] ?? "camt");
  const profArg = process.argv.indexOf("--cpu-prof");
  const prof = profArg >= 0 ? ["--cpu-prof", process.argv[profArg + 1] ?? "import"] : [];
  const dbArg = process.argv.indexOf("--db");
  const kind = dbArg >= 0 ? process.argv[dbArg + 1] : undefined;
  if (kind !== undefined && kind !== "postgres") throw new Error("--db must be postgres (default: PGlite in memory)");
  const pg = kind === "postgres" ? await createBenchDatabase("postgres") : null;
  console.log(
    `statement import bench: one file per format, ${pg ? pg.description : "PGlite in memory"}, one process per row`,
  );
  for (const format of formats) {
    const file = generate(n, format);
    try {
      const child = spawnSync(
        process.execPath,
        [
          ...process.execArgv,
          fileURLToPath(import.meta.url),
          "--entries",
          String(n),
          "--format",
          format,
          "--file",
          file,
          ...prof,
        ],
        { stdio: "inherit", env: { ...process.env, ...(pg?.url ? { BENCH_DATABASE_URL: pg.url } : {}) } },
      );
      if (child.status !== 0) process.exitCode = child.status ?? 1;
    } finally {
      rmSync(path.dirname(file), { recursive: true, force: true });
    }
  }
}

main()
  .catch((e: unknown) => {
    console.error(e);
    process.exitCode = 1;
  })
  .finally(() => runCleanups());
