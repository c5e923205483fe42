/**
 * `npm run fx -- import|fetch|convert`: FX reference rates in the dashboard
 * database (`DATABASE_URL`, else the PGlite folder `DASHBOARD_DATA_DIR`,
 * default .data/dashboard). With PGlite, stop the dashboard first: an
 * embedded database has one process at a time.
 *
 *   npm run fx -- import FILE... [--source TEXT]   ECB eurofxref XML or CSV files; all or nothing
 *   npm run fx -- fetch [URL]                      fetch and import once (default FX_RATES_URL)
 *   npm run fx -- convert AMOUNT FROM TO DATE      convert with the stored rates (cross via EUR)
 *
 * Exit codes: 0 done, 1 failed (a malformed file, an unreachable URL, a
 * database error; nothing imported), 2 usage error.
 */
import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { openDashboardDb, type DashboardDatabase } from "../lib/db/client";
import { FxInputError, loadFxRates } from "../lib/fx/convert";
import { fetchAndImportRates } from "../lib/fx/fetch";
import { parseFxFile } from "../lib/fx/parse";
import { FxFileError, type FxRateRow } from "../lib/fx/rate-file";
import { importRates, type FxImportResult } from "../lib/fx/store";

const USAGE =
  `usage: npm run fx -- import FILE... [--source TEXT]   import ECB eurofxref XML/CSV files (source ` +
  `default "ECB")
       npm run fx -- fetch [URL]                      fetch and import once (URL default: FX_RATES_URL)
       npm run fx -- convert AMOUNT FROM TO DATE      e.g. convert 1000.00 NOK EUR 2026-11-20
       npm run fx -- --help`;

class UsageError extends Error {}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

function summary(r: FxImportResult): string {
  const range = r.from ? ` (${r.from} to ${r.to})` : "";
  return `${r.inserted} inserted, ${r.updated} updated, ${r.unchanged} unchanged${range}`;
}

async function open(): Promise<DashboardDatabase> {
  const url = process.env.DATABASE_URL?.trim() || undefined;
  return openDashboardDb(url ? { url } : { dataDir: process.env.DASHBOARD_DATA_DIR?.trim() || ".data/dashboard" });
}

async function importFiles(files: string[], source: string): Promise<number> {
  if (files.length === 0) throw new UsageError("import needs at least one FILE");
  // Every file is read and checked before the database is touched: one bad file imports nothing.
  const rows: FxRateRow[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch (err) {
      throw new Error(`${file}: cannot read (${err instanceof Error ? err.message : String(err)})`);
    }
    try {
      const parsed = parseFxFile(text);
      process.stdout.write(
        `${file}: ${parsed.format}, ${plural(parsed.dates, "date")}, ${plural(parsed.rates.length, "rate")}\n`,
      );
      rows.push(...parsed.rates);
    } catch (err) {
      if (err instanceof FxFileError) throw new Error(`${file}: ${err.message}\nnothing imported`);
      throw err;
    }
  }
  const database = await open();
  try {
    const result = await importRates(database.db, rows, { source });
    process.stdout.write(`imported: ${summary(result)}\n`);
    return 0;
  } finally {
    await database.close();
  }
}

async function fetchOnce(url: string | undefined): Promise<number> {
  if (!url) throw new UsageError("fetch needs a URL (or FX_RATES_URL)");
  const database = await open();
  try {
    const r = await fetchAndImportRates(database.db, url);
    process.stdout.write(`${url}: ${r.format}, ${plural(r.dates, "date")}; ${summary(r)}\n`);
    return 0;
  } finally {
    await database.close();
  }
}

async function convertOne(args: string[]): Promise<number> {
  const [amount, from, to, date] = args;
  if (!amount || !from || !to || !date || args.length !== 4) throw new UsageError("convert needs AMOUNT FROM TO DATE");
  const database = await open();
  try {
    const rates = await loadFxRates(database.db, { currencies: [from, to], from: date, to: date });
    const c = rates.convert(amount, from, to, date);
    if (c.status === "converted") {
      const legs = c.legs.map((l) => `EUR/${l.currency} ${l.rate} of ${l.rateDate}`).join(", ") || "no rate needed";
      process.stdout.write(
        `${c.value} ${to}  (rate ${c.rate}; ${legs}${c.stale ? `; STALE: rate of ${c.rateDate}` : ""})\n`,
      );
      return 0;
    }
    const missing = c.missing.map((m) => `${m.currency} (latest ${m.latestRateDate ?? "none"})`).join(", ");
    process.stdout.write(`${amount} ${from}  UNCONVERTED: ${c.reason}; no usable rate for ${missing}\n`);
    return 1;
  } finally {
    await database.close();
  }
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    args: process.argv.slice(2),
    options: { source: { type: "string" }, help: { type: "boolean", short: "h" } },
    allowPositionals: true,
    strict: true,
  });
  const [command, ...rest] = positionals;
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (values.source !== undefined && command !== "import") throw new UsageError("--source is for import only");
  switch (command) {
    case "import":
      return importFiles(rest, values.source?.trim() || "ECB");
    case "fetch":
      if (rest.length > 1) throw new UsageError("fetch takes one URL");
      return fetchOnce(rest[0] ?? (process.env.FX_RATES_URL?.trim() || undefined));
    case "convert":
      return convertOne(rest);
    default:
      throw new UsageError(command ? `unknown command "${command}"` : "no command");
  }
}

main()
  .then((code) => process.exit(code))
  .catch((err: unknown) => {
    const usage = err instanceof UsageError || (err instanceof TypeError && "code" in err);
    if (usage) {
      process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n${USAGE}\n`);
      process.exit(2);
    }
    const message = err instanceof FxInputError || err instanceof Error ? err.message : String(err);
    process.stderr.write(`${message}\n`);
    process.exit(1);
  });
