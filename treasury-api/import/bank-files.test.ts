/**
 * MT940 / MT942 and BAI2 import (docs/bank-files.md) on files the test
 * builders write: parsing quirks, the mapping to the ledger, accounts without
 * IBAN, character sets, balances that must add up, re-import and overlapping
 * files, and the `import-statements` command line (`--json`, `--dry-run`,
 * exit codes). One in-memory database for the file; each test a new tenant.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../db/client";
import { accounts, coverageDays, pendingEntries, transactions } from "../db/schema";
import { buildBai2, oneAccountBai2, type BaiDocument } from "../test/bai2-builder";
import { buildCamt053, type CamtEntry } from "../test/camt053-builder";
import { captureCliOutput, newTenant, rejection } from "../test/import-db";
import { buildMt940, dutch86, german86, type MtDocument } from "../test/mt940-builder";
import { parseBai2 } from "./bai2";
import { parseBankFile } from "./bank-files";
import { importStatements } from "./camt053-import";
import { CamtImportError } from "./camt053-parse";
import { decodeBankFile } from "./charset";
import { runImportCli } from "./cli";
import { parseMt940 } from "./mt940";

let database: Database;
beforeAll(async () => {
  database = await openDatabase({ dataDir: "memory" });
});
afterAll(() => database.close());

const IBAN = "DE89370400440532013000";

/** The value, or a failed test when it is missing. */
function must<T>(value: T | null | undefined): T {
  if (value === null || value === undefined) throw new Error("expected a value");
  return value;
}
const utf8 = (s: string) => new TextEncoder().encode(s);

/** A consistent two-day MT940 file for the IBAN: opening 1000, +250.00, -100.50 (RC reversal), closing. */
function mt940(overrides: Partial<MtDocument> = {}): MtDocument {
  return {
    envelopeBic: "COBADEFF",
    statements: [
      {
        reference: "STMT-A",
        account: `${IBAN}EUR`,
        sequence: "00001/1",
        opening: { date: "2026-03-01", currency: "EUR", amount: "1000.00" },
        entries: [
          {
            value: "2026-03-02",
            booked: "2026-03-02",
            mark: "C",
            amount: "250.00",
            customerRef: "KREF1",
            bankRef: "BANK0001",
            info: german86({
              endToEndId: "E2E-1",
              purpose: "Rechnung 4711 vom 01.03.2026 vielen Dank",
              name: "Müller Maschinenbau GmbH & Co. Kommanditgesellschaft",
            }),
          },
          {
            value: "2026-03-02",
            mark: "RC",
            amount: "100.50",
            info: dutch86({ endToEndId: "E2E-2", name: "ACME BV", remittance: "Storno factuur 9" }),
          },
        ],
        closing: { date: "2026-03-02", currency: "EUR", amount: "1149.50" },
        closingAvailable: { date: "2026-03-02", currency: "EUR", amount: "1100.00" },
        forwardAvailable: [{ date: "2026-03-03", currency: "EUR", amount: "1100.00" }],
      },
    ],
    ...overrides,
  };
}

describe("MT940 parser", () => {
  it("reads envelope, :25: IBAN with currency, balances, :61: with booking date and reversal, German and Dutch :86:", () => {
    const file = parseMt940(buildMt940(mt940()), "a.sta");
    expect(file.format).toBe("mt940");
    expect(file.messageType).toBe("camt.053");
    const [s] = file.statements;
    expect(s?.account).toMatchObject({ ref: IBAN, refType: "IBAN", bankId: "COBADEFF", currency: "EUR" });
    expect(s?.balances.map((b) => [b.code, b.amount, b.date])).toEqual([
      ["OPBD", "1000.00", "2026-03-01"],
      ["CLBD", "1149.50", "2026-03-02"],
      ["CLAV", "1100.00", "2026-03-02"],
      ["FWAV", "1100.00", "2026-03-03"],
    ]);
    expect(s?.period).toEqual({ from: "2026-03-02", to: "2026-03-02" });
    const [a, b] = s?.entries ?? [];
    expect(a).toMatchObject({
      direction: "credit",
      amount: "250.00",
      accountServicerRef: "BANK0001",
      endToEndId: "E2E-1",
      counterpartyName: "Müller Maschinenbau GmbH & Co. Kommanditgesellschaft",
      remittance: "Rechnung 4711 vom 01.03.2026 vielen Dank",
    });
    // RC: the reversal of a credit takes money out.
    expect(b).toMatchObject({ direction: "debit", amount: "100.50", endToEndId: "E2E-2", counterpartyName: "ACME BV" });
    expect(b?.remittance).toBe("Storno factuur 9");
    expect(s?.inconsistency).toBeNull();
  });

  it("reads LF files without envelope, several statements, :60M:/:62M:, RD, blanks and booking dates across the year", () => {
    const text = buildMt940({
      lineEnd: "\n",
      statements: [
        {
          account: "50010517/0123456789",
          opening: { date: "2025-12-31", currency: "EUR", amount: "-10.00" },
          entries: [{ value: "2025-12-31", booked: "2026-01-02", mark: "RD", amount: "10", customerRef: "X" }],
          closing: { date: "2026-01-02", currency: "EUR", amount: "0.00", intermediate: true },
        },
        {
          account: "50010517/0123456789",
          opening: { date: "2026-01-02", currency: "EUR", amount: "0.00", intermediate: true },
          entries: [],
          closing: { date: "2026-01-02", currency: "EUR", amount: "0.00" },
        },
      ],
    }).replace("RD10,", "RD10, ");
    const file = parseMt940(`\n\n${text}\n`, "b.mt940");
    expect(file.statements).toHaveLength(2);
    const [s] = file.statements;
    expect(s?.account).toMatchObject({ ref: "0123456789", refType: "BBAN", bankId: "50010517" });
    expect(s?.entries[0]).toMatchObject({ direction: "credit", amount: "10.00" });
    expect(s?.entries[0]?.booked?.date).toBe("2026-01-02");
    expect(s?.entries[0]?.value.date).toBe("2025-12-31");
    expect(s?.balances.map((b) => b.code)).toEqual(["OPBD", "62M"]);
    expect(file.statements[1]?.balances.map((b) => b.code)).toEqual(["60M", "CLBD"]);
  });

  it("MT942: entries pending, :13D: time, :90D:/:90C: checked against the entries", () => {
    const doc: MtDocument = {
      type: "942",
      statements: [
        {
          account: IBAN,
          createdAt: "2026-03-02T11:30+01:00",
          entries: [
            { value: "2026-03-02", mark: "C", amount: "5.00", bankRef: "I1" },
            { value: "2026-03-02", mark: "D", amount: "2.50", bankRef: "I2" },
          ],
          sums: true,
        },
      ],
    };
    const file = parseMt940(buildMt940(doc), "r.942");
    expect(file).toMatchObject({ format: "mt942", messageType: "camt.052" });
    expect(file.statements[0]?.createdAt).toMatchObject({ date: "2026-03-02", at: "2026-03-02T11:30:00+01:00" });
    expect(file.statements[0]?.entries.every((e) => e.pending)).toBe(true);
    expect(file.statements[0]?.inconsistency).toBeNull();
    const bad = buildMt940({
      ...doc,
      statements: [
        {
          ...must(doc.statements[0]),
          sums: { debits: { count: 1, amount: "2.50" }, credits: { count: 2, amount: "5" } },
        },
      ],
    });
    expect(parseMt940(bad, "r.942").statements[0]?.inconsistency).toMatch(/:90C: gives 2 entries for 5.00/);
  });

  it("refuses what it cannot read, naming the line", () => {
    const good = buildMt940(mt940());
    expect(() => parseMt940(good.replace(":61:260302", ":61:269902"), "x.sta")).toThrow(
      /^x\.sta: line \d+ \(:61:\) has an invalid value date "269902"$/,
    );
    expect(() => parseMt940(good.replace(/:60F:[^\r]*\r\n/, ""), "x.sta")).toThrow(
      /line \d+ \(:61:\) comes before any balance or :34F: that gives the currency/,
    );
    expect(() => parseMt940(good.replace(/:62F:[^\r]*\r\n/, ""), "x.sta")).toThrow(/has no closing balance :62F:/);
    expect(() => parseMt940(good.replace(/:25:[^\r]*\r\n/, ""), "x.sta")).toThrow(/without a :25: account/);
    expect(() => parseMt940(good.replace("C250,00", "C2.50"), "x.sta")).toThrow(
      /line \d+ \(:61:\) is not a statement line/,
    );
  });
});

describe("BAI2 parser", () => {
  const doc = (): BaiDocument =>
    oneAccountBai2({
      number: "000123456789",
      summary: [
        ["010", "-35.00"],
        ["015", "64.75"],
        ["045", "60.00"],
        ["040", "1.00"],
        ["100", "125.00"],
      ] as [string, string][],
      details: [
        {
          type: "175",
          amount: "125.00",
          funds: "V" as const,
          valueDate: "2026-03-03",
          bankRef: "B1",
          text: "LOCKBOX",
        },
        {
          type: "475",
          amount: "25.25",
          bankRef: "B2",
          customerRef: "CHK 1001",
          text: "CHECK PAID",
          textOnContinuation: true,
        },
        { type: "890", amount: "1.00", text: "INFO ONLY" },
      ],
    });

  it("reads groups, accounts, summaries, details, continuations, funds types and implied decimals", () => {
    const file = parseBai2(buildBai2(doc()), "a.bai");
    expect(file.format).toBe("bai2");
    const [s] = file.statements;
    expect(s?.account).toMatchObject({ ref: "000123456789", refType: "OTHER", bankId: "021000021", currency: "USD" });
    expect(s?.balances.map((b) => [b.code, b.amount])).toEqual([
      ["OPBD", "-35.00"],
      ["CLBD", "64.75"],
      ["CLAV", "60.00"],
      ["040", "1.00"],
    ]);
    expect(
      s?.entries.map((e) => [e.direction, e.amount, e.value.date, e.accountServicerRef, e.remittance, e.status]),
    ).toEqual([
      ["credit", "125.00", "2026-03-03", "B1", "LOCKBOX", null],
      ["debit", "25.25", "2026-03-02", "B2", "CHECK PAID", null],
      ["debit", "1.00", "2026-03-02", null, "INFO ONLY", "INFO"],
    ]);
    expect(s?.inconsistency).toBeNull();
    const jpy = buildBai2({
      groups: [
        {
          bank: "X1",
          date: "2026-03-02",
          currency: "JPY",
          accounts: [{ number: "9", details: [{ type: "195", amount: "1500" }] }],
        },
      ],
    });
    expect(parseBai2(jpy, "j.bai").statements[0]?.entries[0]?.amount).toBe("1500");
  });

  it("checks the trailers' control totals and the ledger balances", () => {
    const wrongTotal = doc();
    must(must(wrongTotal.groups[0]).accounts[0]).controlOverride = "1";
    expect(parseBai2(buildBai2(wrongTotal), "t.bai").statements[0]?.inconsistency).toMatch(
      /account 000123456789 \(line 3\): the trailer 49 gives control total 0.01/,
    );
    const wrongLedger = doc();
    must(must(must(wrongLedger.groups[0]).accounts[0]).summary)[1] = ["015", "64.76"];
    expect(parseBai2(buildBai2(wrongLedger), "l.bai").statements[0]?.inconsistency).toMatch(
      /opening ledger -35.00 \+ entries 99.75 = 64.75, but the closing ledger is 64.76/,
    );
    const dropped = buildBai2(doc()).replace(/^16,475.*\n88.*\n/m, "");
    expect(parseBai2(dropped, "d.bai").statements[0]?.inconsistency).toMatch(/trailer 49/);
    expect(() => parseBai2(buildBai2(doc()).replace(/^99.*\n/m, ""), "n.bai")).toThrow(/without the file trailer 99/);
    expect(() => parseBai2(buildBai2(doc()).replace("16,175,12500", "16,175,12x00"), "n.bai")).toThrow(
      /^n\.bai: line 4 \(16\) has an amount that is not digits: "12x00"$/,
    );
  });

  it("refuses an inconsistent file unless it is accepted", () => {
    const wrong = doc();
    must(must(wrong.groups[0]).accounts[0]).controlOverride = "1";
    const text = buildBai2(wrong);
    expect(() => parseBankFile(utf8(text), "t.bai")).toThrow(/trailer 49.*Nothing was imported.*--accept-inconsistent/);
    expect(parseBankFile(utf8(text), "t.bai", { acceptInconsistent: true }).statements[0]?.inconsistency).toBeTruthy();
  });
});

describe("camt.053 balance check", () => {
  const entry = (amount: string, direction: "credit" | "debit", extra: Partial<CamtEntry> = {}): CamtEntry => ({
    amount,
    currency: "NOK",
    direction,
    booked: "2026-03-02",
    value: "2026-03-02",
    ...extra,
  });
  const camt = (closing: string, entries: CamtEntry[]) =>
    buildCamt053({
      version: "08",
      messageId: "CHECK",
      createdAt: "2026-03-02T22:00:00+01:00",
      statements: [
        {
          id: "CHECK-1",
          createdAt: "2026-03-02T22:00:00+01:00",
          account: { iban: "NO9386011117947", currency: "NOK", servicerBic: "DNBANOKK" },
          balances: [
            { code: "OPBD", amount: "-100.00", currency: "NOK", date: "2026-03-02" },
            { code: "CLBD", amount: closing, currency: "NOK", date: "2026-03-02" },
          ],
          entries,
        },
      ],
    });
  // Pending and INFO entries are not booked: they never count.
  const entries = [
    entry("250.50", "credit"),
    entry("50.00", "debit", { reversal: true }),
    entry("999.00", "credit", { status: "PDNG" }),
    entry("7.00", "debit", { status: "INFO" }),
  ];

  it("opening + booked entries = closing imports; otherwise the file is refused naming the statement", () => {
    expect(parseBankFile(camt("100.50", entries), "ok.xml").statements[0]?.inconsistency).toBeNull();
    expect(() => parseBankFile(camt("100.00", entries), "bad.xml")).toThrow(
      /bad\.xml.*statement CHECK-1 does not add up: opening OPBD -100\.00 \+ entries 200\.50 = 100\.50, but the closing balance CLBD is 100\.00.*--accept-inconsistent/,
    );
    const accepted = parseBankFile(camt("100.00", entries), "bad.xml", { acceptInconsistent: true });
    expect(accepted.statements[0]?.inconsistency).toMatch(/CHECK-1/);
  });

  it("a statement with an entry in another currency than its balances is not checked", () => {
    const foreign = [...entries, entry("20.97", "debit", { currency: "EUR" })];
    expect(parseBankFile(camt("100.00", foreign), "fx.xml").statements[0]?.inconsistency).toBeNull();
  });
});

describe("character sets", () => {
  const latin1 = (s: string) => Uint8Array.from([...s].map((c) => c.charCodeAt(0)));

  it("reads ISO-8859-1 and Windows-1252 MT940 / BAI2 files without losing a character", () => {
    const text = buildMt940(mt940()).replace("ACME BV", "ÅSE ØYE AS");
    const decoded = decodeBankFile(latin1(text), "l.sta");
    expect(decoded.charset).toBe("ISO-8859-1");
    expect(parseBankFile(latin1(text), "l.sta").statements[0]?.entries[1]?.counterpartyName).toBe("ÅSE ØYE AS");
    const cp1252 = Uint8Array.from([0x58, 0x20, 0x80, 0x80]);
    expect(decodeBankFile(cp1252, "w.sta")).toMatchObject({ charset: "windows-1252", text: "X €€" });
    expect(decodeBankFile(utf8("Å"), "u.sta")).toEqual({ text: "Å", charset: "UTF-8" });
  });

  it("honours the XML declaration and refuses U+FFFD or undefined bytes, naming the line", () => {
    const xml = '<?xml version="1.0" encoding="ISO-8859-1"?>\n<Document>Å</Document>';
    expect(decodeBankFile(latin1(xml), "x.xml")).toEqual({ text: xml, charset: "ISO-8859-1" });
    const err = (fn: () => unknown) => {
      try {
        fn();
      } catch (e) {
        return e as CamtImportError;
      }
      throw new Error("no error");
    };
    const notUtf8 = err(() => decodeBankFile(latin1('<?xml version="1.0"?>\n<a>\n<b>Å</b></a>'), "u.xml"));
    expect(notUtf8.message).toBe("u.xml: line 3 is not UTF-8");
    expect(notUtf8.details).toEqual({ file: "u.xml", path: "line 3" });
    const replaced = err(() => decodeBankFile(utf8(":20:X\n:25:Y\n:86:M\uFFFDLLER\n"), "r.sta"));
    expect(replaced.message).toMatch(/^r\.sta: line 3 holds a character that is not text in UTF-8/);
    const undefinedByte = err(() => decodeBankFile(Uint8Array.from([...latin1(":20:X\n:86:"), 0x81, 0xc5]), "b.sta"));
    expect(undefinedByte.message).toMatch(/^b\.sta: line 2 holds a character that is not text in windows-1252/);
    expect(() => decodeBankFile(latin1('<?xml version="1.0" encoding="x-nope"?><a/>'), "e.xml")).toThrow(
      /declares encoding "x-nope", which is not supported/,
    );
  });
});

describe("import into the ledger", () => {
  const countTx = async (accountId: string) =>
    (await database.db.select().from(transactions).where(eq(transactions.accountId, accountId))).length;

  it("stores an MT940 file: account by IBAN, transactions with source mt940, balances, coverage; re-import adds nothing", async () => {
    const { companyId } = await newTenant(database);
    const content = utf8(buildMt940(mt940()));
    const first = await importStatements(database.db, { companyId, files: [{ name: "a.sta", content }] });
    expect(first.files[0]).toMatchObject({
      format: "mt940",
      accountsCreated: 1,
      transactionsInserted: 2,
      coverageDays: 1,
      statementFigures: [
        {
          account: `${IBAN}EUR`,
          currency: "EUR",
          from: "2026-03-02",
          to: "2026-03-02",
          openingBooked: "1000.00",
          closingBooked: "1149.50",
          entries: 2,
          credits: "250.00",
          debits: "100.50",
          newEntries: 2,
        },
      ],
    });
    const [acct] = await database.db.select().from(accounts).where(eq(accounts.companyId, companyId));
    expect(acct).toMatchObject({
      externalRef: IBAN,
      externalRefType: "IBAN",
      bankId: "COBADEFF",
      bankName: "Commerzbank",
    });
    const rows = await database.db
      .select()
      .from(transactions)
      .where(eq(transactions.accountId, must(acct).id));
    expect(rows.map((r) => [r.source, r.direction, r.amount, r.endToEndId]).sort()).toEqual([
      ["mt940", "credit", "250.00", "E2E-1"],
      ["mt940", "debit", "100.50", "E2E-2"],
    ]);
    const cov = await database.db
      .select()
      .from(coverageDays)
      .where(eq(coverageDays.accountId, must(acct).id));
    expect(cov.map((c) => [c.date, c.source, c.completeness])).toEqual([["2026-03-02", "mt940", "complete"]]);
    const again = await importStatements(database.db, { companyId, files: [{ name: "a.sta", content }] });
    expect(again.files[0]?.transactionsInserted).toBe(0);
    expect(again.files[0]?.statementFigures[0]?.newEntries).toBe(0);
    expect(await countTx(must(acct).id)).toBe(2);
  });

  it("an overlapping later file (MT940 without references, identical entries) adds only the new day", async () => {
    const { companyId } = await newTenant(database);
    const same = { value: "2026-03-03", mark: "D" as const, amount: "9.99", info: "CARD PAYMENT" };
    const day3 = [same, same];
    const first = buildMt940({
      statements: [
        {
          account: "50010517/0123456789",
          opening: { date: "2026-03-02", currency: "EUR", amount: "100.00" },
          entries: day3,
          closing: { date: "2026-03-03", currency: "EUR", amount: "80.02" },
        },
      ],
    });
    const second = buildMt940({
      statements: [
        {
          reference: "LATER",
          account: "50010517/0123456789",
          opening: { date: "2026-03-02", currency: "EUR", amount: "100.00" },
          entries: [...day3, { value: "2026-03-04", mark: "C", amount: "19.98" }],
          closing: { date: "2026-03-04", currency: "EUR", amount: "100.00" },
        },
      ],
    });
    const r1 = await importStatements(database.db, { companyId, files: [{ name: "1.sta", content: utf8(first) }] });
    expect(r1.files[0]?.transactionsInserted).toBe(2);
    const r2 = await importStatements(database.db, { companyId, files: [{ name: "2.sta", content: utf8(second) }] });
    expect(r2.files[0]).toMatchObject({ transactionsInserted: 1, duplicatesSkipped: 2, accountsMatched: 1 });
    const [acct] = await database.db.select().from(accounts).where(eq(accounts.companyId, companyId));
    expect(acct).toMatchObject({ externalRef: "0123456789", externalRefType: "BBAN", bankId: "50010517" });
    expect(await countTx(must(acct).id)).toBe(3);
  });

  it("accounts without IBAN: the same number at two banks are two accounts; unknown accounts are created", async () => {
    const { companyId } = await newTenant(database);
    const bai = (bank: string) =>
      buildBai2({
        groups: [
          {
            bank,
            date: "2026-03-02",
            accounts: [{ number: "5550001", details: [{ type: "195", amount: "1.00", bankRef: bank }] }],
          },
        ],
      });
    await importStatements(database.db, {
      companyId,
      files: [
        { name: "a.bai", content: utf8(bai("021000021")) },
        { name: "b.bai", content: utf8(bai("026009593")) },
      ],
    });
    const accts = await database.db.select().from(accounts).where(eq(accounts.companyId, companyId));
    expect(accts.map((a) => [a.bankId, a.externalRef, a.externalRefType, a.currency]).sort()).toEqual([
      ["021000021", "5550001", "OTHER", "USD"],
      ["026009593", "5550001", "OTHER", "USD"],
    ]);
    const again = await importStatements(database.db, {
      companyId,
      files: [{ name: "a.bai", content: utf8(bai("021000021")) }],
    });
    expect(again.files[0]).toMatchObject({ accountsMatched: 1, accountsCreated: 0, transactionsInserted: 0 });
  });

  it("an inconsistent file is refused and stores nothing; accepted, it is imported with its days flagged partial", async () => {
    const { companyId } = await newTenant(database);
    const doc = mt940();
    must(must(doc.statements[0]).closing).amount = "1149.51";
    const content = utf8(buildMt940(doc));
    const err = await rejection(() =>
      importStatements(database.db, { companyId, files: [{ name: "bad.sta", content }] }),
    );
    expect(err.message).toMatch(
      /^bad\.sta: statement STMT-A\/00001\/1 \(line 2\) does not add up: opening 1000.00 \+ entries 149.5 = 1149.5, but the closing balance is 1149.51\. Nothing was imported/,
    );
    expect(await database.db.select().from(accounts).where(eq(accounts.companyId, companyId))).toEqual([]);
    await importStatements(database.db, { companyId, files: [{ name: "bad.sta", content }], acceptInconsistent: true });
    const [acct] = await database.db.select().from(accounts).where(eq(accounts.companyId, companyId));
    const cov = await database.db
      .select()
      .from(coverageDays)
      .where(eq(coverageDays.accountId, must(acct).id));
    expect(cov.map((c) => c.completeness)).toEqual(["partial"]);
  });

  it("MT942 entries are pending; the MT940 of the day books them and supersedes them", async () => {
    const { companyId } = await newTenant(database);
    const report = buildMt940({
      type: "942",
      statements: [
        {
          account: IBAN,
          createdAt: "2026-03-02T11:30+01:00",
          entries: [{ value: "2026-03-02", mark: "C", amount: "250.00", bankRef: "BANK0001" }],
          sums: true,
        },
      ],
    });
    const r = await importStatements(database.db, { companyId, files: [{ name: "r.942", content: utf8(report) }] });
    expect(r.files[0]).toMatchObject({ format: "mt942", pending: 1, transactionsInserted: 0 });
    expect(r.files[0]?.statementFigures[0]).toMatchObject({ openingBooked: null, closingBooked: null, newEntries: 1 });
    const [acct] = await database.db.select().from(accounts).where(eq(accounts.companyId, companyId));
    const pending = () =>
      database.db
        .select()
        .from(pendingEntries)
        .where(eq(pendingEntries.accountId, must(acct).id));
    expect((await pending()).map((p) => p.source)).toEqual(["mt942"]);
    await importStatements(database.db, { companyId, files: [{ name: "a.sta", content: utf8(buildMt940(mt940())) }] });
    expect(await pending()).toEqual([]);
    expect(await countTx(must(acct).id)).toBe(2);
  });

  it("a BAI2 file books credits and debits, skips informational details, and re-imports to nothing", async () => {
    const { companyId } = await newTenant(database);
    const text = buildBai2(
      oneAccountBai2({
        number: "777",
        summary: [
          ["010", "100.00"],
          ["015", "174.75"],
        ],
        details: [
          { type: "175", amount: "100.00", bankRef: "R1", text: "DEPOSIT" },
          { type: "475", amount: "25.25", text: "CHECK" },
          { type: "890", amount: "3.00", text: "MEMO" },
        ],
      }),
    );
    const r = await importStatements(database.db, { companyId, files: [{ name: "x.bai2", content: utf8(text) }] });
    expect(r.files[0]).toMatchObject({ format: "bai2", transactionsInserted: 2, entriesSkipped: 1, coverageDays: 1 });
    const [acct] = await database.db.select().from(accounts).where(eq(accounts.companyId, companyId));
    const cov = await database.db
      .select()
      .from(coverageDays)
      .where(and(eq(coverageDays.accountId, must(acct).id)));
    expect(cov.map((c) => c.source)).toEqual(["bai2"]);
    const again = await importStatements(database.db, { companyId, files: [{ name: "x.bai2", content: utf8(text) }] });
    expect(again.files[0]?.transactionsInserted).toBe(0);
  });
});

describe("import-statements command line", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "bank-files-cli-"));
  const write = (name: string, text: string) => {
    const p = path.join(dir, name);
    writeFileSync(p, text);
    return p;
  };

  it("--json prints the documented shape; --dry-run stores nothing; a re-import reports new_entries 0", async () => {
    const { companyId } = await newTenant(database);
    const sta = write("a.sta", buildMt940(mt940()));
    const bai = write(
      "b.bai",
      buildBai2(
        oneAccountBai2({
          number: "42",
          summary: [
            ["010", "-1.00"],
            ["015", "1.00"],
          ],
          details: [{ type: "195", amount: "2.00" }],
        }),
      ),
    );
    const run = async (...flags: string[]) => {
      const io = captureCliOutput();
      const code = await runImportCli(database.db, ["--company", companyId, ...flags, sta, bai], io);
      return { code, io };
    };
    const dry = await run("--dry-run", "--json");
    expect(dry.code).toBe(0);
    const doc = JSON.parse(dry.io.stdout) as { files: { statements: { new_entries: number }[] }[] };
    expect(doc).toEqual({
      files: [
        {
          file: "a.sta",
          format: "mt940",
          statements: [
            {
              account: `${IBAN}EUR`,
              currency: "EUR",
              from: "2026-03-02",
              to: "2026-03-02",
              opening_booked: "1000.00",
              closing_booked: "1149.50",
              entries: 2,
              credits: "250.00",
              debits: "100.50",
              new_entries: 0,
            },
          ],
        },
        {
          file: "b.bai",
          format: "bai2",
          statements: [
            {
              account: "42",
              currency: "USD",
              from: "2026-03-02",
              to: "2026-03-02",
              opening_booked: "-1.00",
              closing_booked: "1.00",
              entries: 1,
              credits: "2.00",
              debits: "0.00",
              new_entries: 0,
            },
          ],
        },
      ],
    });
    expect(await database.db.select().from(accounts).where(eq(accounts.companyId, companyId))).toEqual([]);
    const real = await run("--json");
    expect(real.code).toBe(0);
    const stored = JSON.parse(real.io.stdout) as typeof doc;
    expect(stored.files.map((f) => f.statements[0]?.new_entries)).toEqual([2, 1]);
    const again = JSON.parse((await run("--json")).io.stdout) as typeof doc;
    expect(again.files.map((f) => f.statements[0]?.new_entries)).toEqual([0, 0]);
    const table = await run();
    expect(table.io.stdout).toMatch(/a\.sta: mt940, b\.bai: bai2/);
  });

  it("exit 1 for a refused file (nothing stored, JSON error with --json), 2 for bad arguments", async () => {
    const { companyId } = await newTenant(database);
    const doc = mt940();
    must(must(doc.statements[0]).closing).amount = "1.00";
    const bad = write("bad.sta", buildMt940(doc));
    const good = write(
      "good.bai",
      buildBai2({ groups: [{ bank: "B1", date: "2026-03-02", accounts: [{ number: "1", details: [] }] }] }),
    );
    const io = captureCliOutput();
    expect(await runImportCli(database.db, ["--company", companyId, "--json", good, bad], io)).toBe(1);
    expect(io.stderr).toMatch(/bad\.sta: statement .* does not add up.*\nNothing was imported\.\n$/);
    expect(JSON.parse(io.stdout)).toMatchObject({ error: "validation_error", details: { file: "bad.sta" } });
    expect(await database.db.select().from(accounts).where(eq(accounts.companyId, companyId))).toEqual([]);
    const ok = captureCliOutput();
    expect(await runImportCli(database.db, ["--company", companyId, "--accept-inconsistent", bad], ok)).toBe(0);
    const unknown = write("x.txt", "hello");
    const notBank = captureCliOutput();
    expect(await runImportCli(database.db, ["--company", companyId, unknown], notBank)).toBe(1);
    expect(notBank.stderr).toMatch(/x\.txt: is not a bank file this import reads/);
    const args = captureCliOutput();
    expect(await runImportCli(database.db, ["--company", companyId, "--jsn", bad], args)).toBe(2);
  });
});
