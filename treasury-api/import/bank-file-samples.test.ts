/**
 * MT940 and BAI2 import against published bank samples (the test files of
 * the jejik/mt940 and moov-io/bai2 parsers: ABN AMRO, ING, Rabobank, Knab,
 * SNS, Triodos, PostFinance, Commerzbank, Deutsche Bank, Sparkasse; three BAI2
 * files). The samples are not part of this repository: the suite reads them
 * from BANK_FIXTURES_DIR (relative to the repository root, or absolute;
 * default ../shared/fixtures, with mt940/ and bai2/ inside) and is skipped,
 * with one line saying so, when the folder is not there.
 *
 * Several MT940 samples are synthetic and their balances do not add up; the
 * suite checks that exactly those are refused, naming the statement, and
 * that they import with --accept-inconsistent.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../db/client";
import { accounts, transactions } from "../db/schema";
import { captureCliOutput, newTenant } from "../test/import-db";
import { parseBankFile } from "./bank-files";
import { importStatements } from "./camt053-import";
import { runImportCli } from "./cli";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const FIXTURES = path.resolve(repoRoot, process.env.BANK_FIXTURES_DIR ?? "../shared/fixtures");
const PRESENT = existsSync(path.join(FIXTURES, "mt940")) && existsSync(path.join(FIXTURES, "bai2"));
if (!PRESENT) {
  console.log(
    `MT940 / BAI2 bank samples skipped: ${FIXTURES}/mt940 or /bai2 does not exist; to run them, point ` +
      "BANK_FIXTURES_DIR at a folder holding mt940/ and bai2/ " +
      "(BANK_FIXTURES_DIR=/path/to/fixtures npx vitest run treasury-api/import/bank-file-samples.test.ts)",
  );
}

const files = (dir: string) =>
  PRESENT ? readdirSync(path.join(FIXTURES, dir)).filter((f) => !f.startsWith("LICENSE")) : [];
const read = (dir: string, name: string) => new Uint8Array(readFileSync(path.join(FIXTURES, dir, name)));

/** The samples whose statements do not add up (synthetic figures), with the statement named. */
const INCONSISTENT: Record<string, RegExp> = {
  "jejik-abnamro.txt": /statement ABN AMRO BANK NV\/19321\/1/,
  "jejik-commerzbank.txt": /statement 01LGX08DLMWH5GWA\/00143\/1/,
  "jejik-deutschebank.txt": /statement DEUTDEMMXXX\/00143\/1/,
  "jejik-ing-unix.txt": /statement MPBZ\/000/,
  "jejik-knab.txt": /statement B4G30MS9D00A003D\/999\/1/,
  "jejik-postfinance.txt": /statement 2014040708285928\/999\/2/,
  "jejik-triodos.txt": /statement 1308728725026\/1\/1/,
};

let database: Database;
beforeAll(async () => {
  if (PRESENT) database = await openDatabase({ dataDir: "memory" });
});
afterAll(async () => {
  if (PRESENT) await database.close();
});

describe.skipIf(!PRESENT)("MT940 bank samples", () => {
  it.each(files("mt940"))("%s parses; refused only when its balances do not add up", (name) => {
    const content = read("mt940", name);
    const expected = INCONSISTENT[name];
    if (expected) expect(() => parseBankFile(content, name)).toThrow(expected);
    const file = parseBankFile(content, name, { acceptInconsistent: true });
    expect(file.format).toBe("mt940");
    expect(file.statements.length).toBeGreaterThan(0);
    for (const s of file.statements) {
      expect(s.account.ref).not.toBe("");
      expect(s.account.currency).toMatch(/^[A-Z]{3}$/);
      for (const e of s.entries) expect(e.amount).toMatch(/^\d+\.\d{2}$/);
    }
  });

  it("reads the German :86: of Deutsche Bank: BLZ/Konto as BBAN, end-to-end id, name, SEPA purpose, bank reference", () => {
    const [s] = parseBankFile(read("mt940", "jejik-deutschebank.txt"), "db.txt", {
      acceptInconsistent: true,
    }).statements;
    expect(s?.account).toMatchObject({ ref: "0123456601", refType: "BBAN", bankId: "20070000" });
    expect(s?.entries[0]).toMatchObject({
      direction: "debit",
      amount: "12.35",
      endToEndId: "A1.200080779.400143254.4961336",
      accountServicerRef: "2016021783252833",
    });
    expect(s?.entries[0]?.remittance).toMatch(/^SONSTIGE GRUENDE ENDABRECHNUNG NR\. 500106875/);
  });

  it("reads the Rabobank /EREF/…/NAME/ style and PostFinance's SWIFT envelope and Sparkasse's statements", () => {
    const rabo = parseBankFile(read("mt940", "jejik-rabobank-iban.txt"), "r.txt").statements;
    expect(rabo.map((s) => s.entries.length)).toEqual([2, 2]);
    expect(rabo[0]?.entries[1]).toMatchObject({ counterpartyName: "JOHN DOE", remittance: "Reference 201301234" });
    const pf = parseBankFile(read("mt940", "jejik-postfinance.txt"), "p.txt", { acceptInconsistent: true });
    expect(pf.statements[0]?.account).toMatchObject({ ref: "123456789", refType: "OTHER", bankId: "POFICHBE" });
    expect(pf.statements.map((s) => s.balances.map((b) => b.code))).toEqual([
      ["OPBD", "62M"],
      ["60M", "CLBD"],
    ]);
    const spk = parseBankFile(read("mt940", "jejik-sparkasse.txt"), "s.txt").statements;
    expect(spk.map((s) => [s.balances[0]?.amount, s.balances[1]?.amount])).toEqual([
      ["194.57", "174.57"],
      ["174.57", "154.57"],
    ]);
  });
});

describe.skipIf(!PRESENT)("BAI2 bank samples", () => {
  it.each(files("bai2"))("%s parses with every trailer total matching", (name) => {
    const file = parseBankFile(read("bai2", name), name);
    expect(file.format).toBe("bai2");
    expect(file.statements.every((s) => !s.inconsistency)).toBe(true);
  });

  it("imports the three samples, then again to nothing; the command line agrees", async () => {
    const { companyId } = await newTenant(database);
    const all = files("bai2").map((name) => ({ name, content: read("bai2", name) }));
    const first = await importStatements(database.db, { companyId, files: all });
    const inserted = first.files.reduce((n, f) => n + f.transactionsInserted, 0);
    // sample1: 17 details; sample2: 3 credits (the 16 of the third account is a credit 218, and 195);
    // sample3: every 16 is a credit or debit.
    expect(inserted).toBeGreaterThan(20);
    const accts = await database.db.select().from(accounts).where(eq(accounts.companyId, companyId));
    expect(new Set(accts.map((a) => a.externalRefType))).toEqual(new Set(["OTHER"]));
    const stored = await database.db.select().from(transactions).where(eq(transactions.companyId, companyId));
    expect(stored).toHaveLength(inserted);
    const io = captureCliOutput();
    const paths = files("bai2").map((n) => path.join(FIXTURES, "bai2", n));
    expect(await runImportCli(database.db, ["--company", companyId, "--json", ...paths], io)).toBe(0);
    const doc = JSON.parse(io.stdout) as { files: { format: string; statements: { new_entries: number }[] }[] };
    expect(doc.files.map((f) => f.format)).toEqual(["bai2", "bai2", "bai2"]);
    expect(doc.files.flatMap((f) => f.statements.map((s) => s.new_entries)).every((n) => n === 0)).toBe(true);
  }, 60_000);
});
