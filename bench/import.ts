/**
 * `npm run bench:import` — statement import benchmark.
 *
 *   npm run bench:import -- [--entries 20000] [--format camt|mt940|bai2] [--db pglite|postgres] [--cpu-prof PREFIX]
 *
 * `--db postgres` imports into a throw-away PostgreSQL cluster on loopback (one per row, bench/lib/databases.ts)
 * instead of an in-memory PGlite: the rate of a real server, and a memory growth that is the import's own (no stored
 * data in the process).
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
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { Session } from "node:inspector/promises";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { createBenchDatabase, type DbKind } from "./lib/databases";
import { openDatabase } from "@treasury/api/db/client";
import { companies, tenants } from "@treasury/api/db/schema";
import { parseBankFile } from "@treasury/api/import/bank-files";
import { importStatements } from "@treasury/api/import/camt053-import";
import { newId } from "@treasury/api/lib/secrets";
import { buildBai2 } from "@treasury/api/test/bai2-builder";
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
  const text = buildBai2({
    groups: [
      {
        bank: "021000021",
        date: "2026-03-02",
        accounts: [
          {
            number: "000123456789",
            summary: [
              ["010", "1000000.00"],
              ["015", fromCents(100000000n + net)],
            ],
            details,
          },
        ],
      },
    ],
  });
  const file = path.join(mkdtempSync(path.join(tmpdir(), "bench-import-")), "bench.bai");
  writeFileSync(file, text);
  return file;
}

/** The measured part, in its own process so that generating the file does not count: read, parse, import. */
async function measure(file: string, n: number, format: Format, url: string | undefined): Promise<void> {
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
    t = performance.now();
    const cpu = process.cpuUsage();
    const summary = await importStatements(database.db, { companyId, files: [{ name: path.basename(file), content }] });
    const importMs = performance.now() - t;
    const used = process.cpuUsage(cpu);
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
  const urlArg = process.argv.indexOf("--database-url");
  if (fileArg >= 0)
    return measure(
      process.argv[fileArg + 1] ?? "",
      n,
      formats[0] ?? "camt",
      urlArg >= 0 ? process.argv[urlArg + 1] : undefined,
    );
  const dbArg = process.argv.indexOf("--db");
  const kind = (dbArg >= 0 ? process.argv[dbArg + 1] : "pglite") as DbKind;
  if (kind !== "pglite" && kind !== "postgres") throw new Error("--db must be pglite or postgres");
  const profArg = process.argv.indexOf("--cpu-prof");
  const prof = profArg >= 0 ? ["--cpu-prof", process.argv[profArg + 1] ?? "import"] : [];
  console.log(
    `statement import bench: one file per format, ${kind === "postgres" ? "a new PostgreSQL cluster" : "PGlite in memory"}, one process per row`,
  );
  for (const format of formats) {
    const file = generate(n, format);
    const target = kind === "postgres" ? await createBenchDatabase("postgres") : null;
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
          ...(target?.url ? ["--database-url", target.url] : []),
          ...prof,
        ],
        { stdio: "inherit" },
      );
      if (child.status !== 0) process.exitCode = child.status ?? 1;
    } finally {
      rmSync(path.dirname(file), { recursive: true, force: true });
      await target?.dispose();
    }
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
