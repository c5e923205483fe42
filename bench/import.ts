/**
 * `npm run bench:import` — statement import benchmark.
 *
 *   npm run bench:import -- [--entries 20000]
 *
 * Generates one camt.053.001.08 statement of `--entries` booked entries
 * (default 20,000, about 10 MB: each with an end-to-end id, a counterparty
 * and a remittance line) with the test builder, imports it into a fresh
 * in-memory PGlite database for a new company with the real importer (parse,
 * one transaction, webhook events, match proposals), and prints the file
 * size, parse time, total import time and the process's peak resident memory
 * (RSS) before and after the import. Generating the file runs first; the
 * measurement runs in a child process that only reads, parses and imports it. The parser reads the text into one
 * object tree (validated first without building one) and maps it to plain
 * entries; the tree is not kept while rows are written.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { openDatabase } from "@treasury/api/db/client";
import { companies, tenants } from "@treasury/api/db/schema";
import { importStatements } from "@treasury/api/import/camt053-import";
import { parseStatementFile } from "@treasury/api/import/camt053-parse";
import { newId } from "@treasury/api/lib/secrets";
import { buildCamt, type CamtEntry } from "@treasury/api/test/camt053-builder";

function argValue(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  const v = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(v) || v < 1) throw new Error(`${name} must be a positive integer`);
  return v;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
/** Peak RSS of this process so far (resourceUsage reports kilobytes). */
const peakRss = () => process.resourceUsage().maxRSS * 1024;

/** Writes the generated statement to a temporary file and returns its path. */
function generate(n: number): string {
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
  const pretty = buildCamt({
    version: "08",
    messageId: "BENCH",
    createdAt: `${day}T22:00:00+01:00`,
    statements: [
      {
        id: "BENCH-1",
        createdAt: `${day}T22:00:00+01:00`,
        account: { iban: "NO9386011117947", currency: "NOK", servicerBic: "DNBANOKK" },
        balances: [{ code: "CLBD", amount: "1000000.00", currency: "NOK", date: day }],
        entries,
      },
    ],
  });
  // Written without indentation, as banks send it: about 10 MB for 20,000 entries.
  const file = path.join(mkdtempSync(path.join(tmpdir(), "bench-import-")), "bench-camt053.xml");
  writeFileSync(file, pretty.replace(/>\s+</g, "><"));
  return file;
}

/** The measured part, in its own process so that generating the file does not count: read, parse, import. */
async function measure(file: string, n: number): Promise<void> {
  const database = await openDatabase({ dataDir: "memory" });
  try {
    const tenantId = newId();
    const companyId = newId();
    await database.db.insert(tenants).values({ id: tenantId, name: "Bench tenant" });
    await database.db
      .insert(companies)
      .values({ id: companyId, tenantId, orgnr: "999999999", name: "Bench AS", country: "NO" });
    const rssBefore = process.memoryUsage().rss;
    const xml = readFileSync(file, "utf8");
    const bytes = Buffer.byteLength(xml, "utf8");

    let t = performance.now();
    const parsed = parseStatementFile(xml, "bench.xml");
    const parseMs = performance.now() - t;
    const peakAfterParse = peakRss();
    if (parsed.statements[0]?.entries.length !== n) throw new Error("the parser did not read every entry");

    t = performance.now();
    const summary = await importStatements(database.db, { companyId, files: [{ name: "bench.xml", content: xml }] });
    const importMs = performance.now() - t;
    const f = summary.files[0];
    if (f?.transactionsInserted !== n) throw new Error(`expected ${n} transactions, got ${f?.transactionsInserted}`);

    console.log(
      `statement import bench: camt.053.001.08, ${n} entries, ${mb(bytes)} (${bytes} bytes), PGlite in memory`,
    );
    console.log(`  parse only:            ${(parseMs / 1000).toFixed(2)} s`);
    console.log(
      `  import (parse+store):  ${(importMs / 1000).toFixed(2)} s  (${Math.round(n / (importMs / 1000))} entries/s)`,
    );
    console.log(`  RSS with the database open, before reading the file: ${mb(rssBefore)}`);
    console.log(`  peak RSS after parse:  ${mb(peakAfterParse)}`);
    console.log(`  peak RSS after import: ${mb(peakRss())}`);
  } finally {
    await database.close();
  }
}

async function main(): Promise<void> {
  const n = argValue("--entries", 20_000);
  const fileArg = process.argv.indexOf("--file");
  if (fileArg >= 0) return measure(process.argv[fileArg + 1] ?? "", n);
  const file = generate(n);
  try {
    const child = spawnSync(
      process.execPath,
      [...process.execArgv, fileURLToPath(import.meta.url), "--entries", String(n), "--file", file],
      { stdio: "inherit" },
    );
    if (child.status !== 0) process.exitCode = child.status ?? 1;
  } finally {
    rmSync(path.dirname(file), { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
