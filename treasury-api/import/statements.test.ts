/**
 * Tests of the statement import beyond camt.053's basics: message detection
 * (camt.052 / camt.053 / camt.054), what the schemas accept, harmless schema
 * breaks, refusals that name file and element and store nothing, pending
 * entries (stored apart, replaced by their booking, never in booked sums),
 * camt.052 intraday data superseded by the day's camt.053, camt.054 bookings
 * de-duplicated against statements, and the builder's documents validated
 * against the official XSDs (skipped with one printed line where the XSD
 * folder or xmllint is missing).
 */
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../db/client";
import { accountDayFlows, accounts, intradayPoints, pendingEntries, transactions } from "../db/schema";
import { buildCamt, type CamtDocument, type CamtEntry, type CamtStatement } from "../test/camt053-builder";
import { newTenant as newTenantIn, rejection, tableCounts as tableCountsIn } from "../test/import-db";
import { validateAgainstXsd, xsdFor, xsdSkipReason } from "../test/xsd";
import { importStatements } from "./camt053-import";
import { runImportCli, type CliOutput } from "./cli";
import { CamtImportError, parseStatementFile } from "./camt053-parse";

const IBAN = "NO9386011117947";
const DAY = "2026-03-02";

let database: Database;
beforeAll(async () => {
  database = await openDatabase({ dataDir: "memory" });
});
afterAll(() => database.close());
const newTenant = () => newTenantIn(database);
const tableCounts = () => tableCountsIn(database);

const stmt = (over: Partial<CamtStatement> = {}): CamtStatement => ({
  id: "S1",
  createdAt: `${DAY}T22:00:00+01:00`,
  account: { iban: IBAN, currency: "NOK", servicerBic: "DNBANOKK" },
  balances: [{ code: "CLBD", amount: "1000.00", currency: "NOK", date: DAY }],
  entries: [],
  ...over,
});
const doc = (statements: CamtStatement[], over: Partial<CamtDocument> = {}): string =>
  buildCamt({ version: "02", messageId: "M1", createdAt: `${DAY}T22:00:00+01:00`, statements, ...over });
const entry = (over: Partial<CamtEntry> = {}): CamtEntry => ({
  amount: "100.00",
  currency: "NOK",
  direction: "credit",
  booked: DAY,
  value: DAY,
  ...over,
});
const file = (name: string, content: string) => ({ name, content });

describe("the builder's documents validate against the official XSDs", () => {
  const reason = xsdSkipReason();
  if (reason !== null) console.log(`camt XSD validation skipped: ${reason}`);
  const shapes: [string, string, string][] = [
    [
      "camt.053.001.02",
      "camt.053 .02, pending entry without BookgDt, proprietary balance code, batch of 50",
      doc([
        stmt({
          balances: [
            { code: "OPBD", amount: "-5.00", currency: "NOK", date: DAY },
            { code: "CLBD", amount: "1000", currency: "NOK", date: DAY },
            { code: "XBAL", proprietary: true, amount: "1.00", currency: "NOK", date: DAY },
          ],
          entries: [
            entry({ status: "PDNG", booked: undefined }),
            entry({
              amount: "5000",
              batchCount: 50,
              txs: Array.from({ length: 50 }, (_, i) => ({
                endToEndId: `E${i}`,
                amount: "100.00",
                counterparty: `Payer ${i}`,
              })),
            }),
          ],
        }),
        stmt({ id: "S2", account: { otherId: "12345678" }, entries: [] }),
      ]),
    ],
    [
      "camt.053.001.08",
      "camt.053 .08, DtTm booking, no Acct/Ccy",
      doc(
        [
          stmt({
            account: { iban: IBAN, servicerBic: "DNBANOKK" },
            entries: [
              entry({
                booked: `${DAY}T10:00:00+01:00`,
                txs: [{ endToEndId: "E2E", counterparty: "Kunde AS", remittance: ["Faktura 1"] }],
              }),
            ],
          }),
        ],
        { version: "08" },
      ),
    ],
    [
      "camt.052.001.02",
      "camt.052 .02 with ITBD / ITAV points and a pending entry",
      doc(
        [
          stmt({
            balances: [
              { code: "ITBD", amount: "900.00", currency: "NOK", date: `${DAY}T10:00:00+01:00` },
              { code: "ITAV", amount: "850.00", currency: "NOK", date: `${DAY}T10:00:00+01:00` },
            ],
            entries: [entry({ status: "PDNG", booked: undefined, servicerRef: "P-1" })],
          }),
        ],
        { message: "camt.052" },
      ),
    ],
    [
      "camt.054.001.02",
      "camt.054 .02 with a booked credit",
      doc([stmt({ balances: [], entries: [entry({ servicerRef: "N-1" })] })], { message: "camt.054" }),
    ],
  ];
  for (const [version, what, xml] of shapes) {
    it.skipIf(reason !== null)(`${what} (${version})`, () => {
      const xsd = xsdFor(version);
      expect(xsd, `${version}.xsd in the XSD folder`).not.toBeNull();
      const result = validateAgainstXsd(xml, xsd ?? "");
      expect(result.errors).toMatch(/validates$/);
      expect(result.valid).toBe(true);
      // And the importer reads what it validated.
      expect(parseStatementFile(xml, "x.xml").version).toBe(version);
    });
  }
  it.skipIf(reason !== null)(
    "the validator refuses a document that breaks the schema (so the checks above can fail)",
    () => {
      const broken = doc([stmt({ entries: [entry()] })]).replace(
        "<CdtDbtInd>CRDT</CdtDbtInd>",
        "<CdtDbtInd>CREDIT</CdtDbtInd>",
      );
      const result = validateAgainstXsd(broken, xsdFor("camt.053.001.02") ?? "");
      expect(result.valid).toBe(false);
      expect(result.errors).toMatch(/CdtDbtInd/);
    },
  );
});

describe("what the schema accepts is imported", () => {
  it("detects message and version from root and namespace, 001.02 to 001.12", () => {
    for (const n of ["02", "04", "08", "10", "12"]) {
      const xml = doc([stmt({ entries: [entry()] })]).replace("camt.053.001.02", `camt.053.001.${n}`);
      expect(parseStatementFile(xml, "a.xml")).toMatchObject({ messageType: "camt.053", version: `camt.053.001.${n}` });
    }
    expect(parseStatementFile(doc([stmt()], { message: "camt.052" }), "r.xml")).toMatchObject({
      messageType: "camt.052",
      version: "camt.052.001.02",
    });
    expect(parseStatementFile(doc([stmt({ balances: [] })], { message: "camt.054" }), "n.xml")).toMatchObject({
      messageType: "camt.054",
      version: "camt.054.001.02",
    });
  });

  it(
    "dates with offsets, amounts without decimals, no TxDtls, no Acct/Ccy, proprietary codes, two accounts, an " +
      "empty statement, long texts, elements out of order",
    async () => {
      const { companyId } = await newTenant();
      const long = "Lang tekst ".repeat(30).trim(); // 329 characters: over the schema's 140
      let xml = doc([
        stmt({
          account: { iban: IBAN },
          balances: [
            { code: "CLBD", amount: "1000", currency: "NOK", date: DAY },
            { code: "BANKX", proprietary: true, amount: "1", currency: "NOK", date: DAY },
          ],
          entries: [
            entry({ amount: "250", servicerRef: "A-1" }),
            entry({ amount: "7.5", direction: "debit", txs: [{ remittance: [long] }] }),
          ],
        }),
        stmt({
          id: "S2",
          account: { otherId: "SE-CASH-1", currency: "SEK" },
          balances: [{ code: "CLBD", amount: "0", currency: "SEK", date: DAY }],
          entries: [],
        }),
      ]);
      // <Dt>2026-03-02+01:00</Dt> (xs:date with offset), AcctSvcrRef written before ValDt (out of order).
      xml = xml
        .replaceAll(`<Dt>${DAY}</Dt>`, `<Dt>${DAY}+01:00</Dt>`)
        .replace(/(<ValDt>[\s\S]*?<\/ValDt>)(\s*)(<AcctSvcrRef>A-1<\/AcctSvcrRef>)/, "$3$2$1");
      expect(xml).toContain(`<Dt>${DAY}+01:00</Dt>`);
      const res = await importStatements(database.db, { companyId, files: [file("lenient.xml", xml)] });
      expect(res.files[0]).toMatchObject({
        statements: 2,
        accountsCreated: 2,
        transactionsInserted: 2,
        pending: 0,
        skippedBalanceCodes: { BANKX: 1 },
      });
      const txs = await database.db.select().from(transactions).where(eq(transactions.companyId, companyId));
      expect(txs.map((t) => [t.amount, t.bookedDate, t.direction]).sort()).toEqual([
        ["250", DAY, "credit"],
        ["7.5", DAY, "debit"],
      ]);
      expect(txs.find((t) => t.direction === "debit")?.remittance).toBe(long);
      const accs = await database.db.select().from(accounts).where(eq(accounts.companyId, companyId));
      expect(accs.map((a) => [a.externalRef, a.currency]).sort()).toEqual([
        [IBAN, "NOK"],
        ["SE-CASH-1", "SEK"],
      ]);
    },
  );
});

describe("refusals name the file and element and store nothing", () => {
  const good = doc([stmt({ entries: [entry()] })]);
  const cases: [string, string, RegExp][] = [
    [
      "unsupported version",
      good.replace("camt.053.001.02", "camt.053.001.13"),
      /^bad\.xml: Document\/@xmlns has version camt\.053\.001\.13/,
    ],
    [
      "namespace of another message",
      doc([stmt()], { message: "camt.052" }).replace("camt.052.001.02", "camt.053.001.02"),
      /^bad\.xml: Document\/@xmlns is the namespace of camt\.053 but the message is camt\.052/,
    ],
    [
      "camt.054 without account id",
      doc([stmt({ balances: [], account: { iban: "X" } })], { message: "camt.054" }).replace(
        /<Id>\s*<IBAN>X<\/IBAN>\s*<\/Id>/,
        "<Id></Id>",
      ),
      /^bad\.xml: Document\/BkToCstmrDbtCdtNtfctn\/Ntfctn\[0\]\/Acct\/Id has neither IBAN nor Othr\/Id$/,
    ],
    [
      "camt.052 balance with a bad date-time",
      doc([stmt({ balances: [{ code: "ITBD", amount: "1.00", currency: "NOK", date: "2026-03-02T25:00:00" }] })], {
        message: "camt.052",
      }),
      /^bad\.xml: Document\/BkToCstmrAcctRpt\/Rpt\[0\]\/Bal\[0\]\/Dt\/DtTm is not a valid date-time/,
    ],
    [
      "amount with a comma",
      good.replace(">100.00<", ">100,00<"),
      /^bad\.xml: Document\/BkToCstmrStmt\/Stmt\[0\]\/Ntry\[0\]\/Amt is not a decimal amount: "100,00"$/,
    ],
  ];
  for (const [what, xml, message] of cases) {
    it(what, async () => {
      const { companyId } = await newTenant();
      const before = await tableCounts();
      const err = await rejection(() =>
        importStatements(database.db, { companyId, files: [file("ok.xml", good), file("bad.xml", xml)] }),
      );
      expect(err).toBeInstanceOf(CamtImportError);
      expect(err.message).toMatch(message);
      expect((err as CamtImportError).fileName).toBe("bad.xml");
      expect(await tableCounts()).toEqual(before);
    });
  }
});

describe("pending entries", () => {
  it(
    "an entry without booking date is pending (not booked, not in booked sums); the later booking replaces " + "it",
    async () => {
      const { companyId } = await newTenant();
      const day1 = doc([
        stmt({
          entries: [
            entry({ amount: "100.00" }),
            entry({ amount: "40.00", booked: undefined, value: "2026-03-03", servicerRef: "REF-9" }),
          ],
        }),
      ]);
      const first = await importStatements(database.db, { companyId, files: [file("day1.xml", day1)] });
      expect(first.files[0]).toMatchObject({ entries: 2, transactionsInserted: 1, pending: 1, pendingReplaced: 0 });
      const [account] = await database.db.select().from(accounts).where(eq(accounts.companyId, companyId));
      const pending = await database.db
        .select()
        .from(pendingEntries)
        .where(eq(pendingEntries.accountId, account?.id ?? ""));
      expect(pending.map((p) => [p.amount, p.expectedDate, p.accountServicerRef, p.source])).toEqual([
        ["40.00", "2026-03-03", "REF-9", "camt.053"],
      ]);
      // Booked sums (the trigger-kept flows behind counts and reports) see only the booked entry.
      const flows = await database.db.select().from(accountDayFlows).where(eq(accountDayFlows.companyId, companyId));
      expect(flows.map((f) => [f.bookedDate, f.direction, f.txCount, f.amountSum])).toEqual([
        [DAY, "credit", 1, "100.00"],
      ]);
      // Importing the same file again adds nothing; the pending entry counts as a duplicate.
      const again = await importStatements(database.db, { companyId, files: [file("day1.xml", day1)] });
      expect(again.files[0]).toMatchObject({ transactionsInserted: 0, duplicatesSkipped: 2, pending: 1 });
      // The next day's statement books it (same AcctSvcrRef): the pending row goes, the transaction comes.
      const day2 = doc([
        stmt({
          id: "S2",
          entries: [entry({ amount: "40.00", booked: "2026-03-03", value: "2026-03-03", servicerRef: "REF-9" })],
        }),
      ]);
      const second = await importStatements(database.db, { companyId, files: [file("day2.xml", day2)] });
      expect(second.files[0]).toMatchObject({ transactionsInserted: 1, pending: 0, pendingReplaced: 1 });
      expect(
        await database.db
          .select()
          .from(pendingEntries)
          .where(eq(pendingEntries.accountId, account?.id ?? "")),
      ).toEqual([]);
      const txs = await database.db.select().from(transactions).where(eq(transactions.companyId, companyId));
      expect(txs.map((t) => [t.amount, t.bookedDate]).sort()).toEqual([
        ["100.00", DAY],
        ["40.00", "2026-03-03"],
      ]);
    },
  );

  it(
    "an entry without booking and value date is pending at the statement's date; matched by amount and date when " +
      "it has no references",
    async () => {
      const { companyId } = await newTenant();
      const res = await importStatements(database.db, {
        companyId,
        files: [
          file("p.xml", doc([stmt({ entries: [entry({ booked: undefined, value: undefined, amount: "12" })] })])),
        ],
      });
      expect(res.files[0]).toMatchObject({ pending: 1, transactionsInserted: 0 });
      const rows = await database.db.select().from(pendingEntries).where(eq(pendingEntries.companyId, companyId));
      expect(rows.map((r) => r.expectedDate)).toEqual([DAY]);
      const booked = await importStatements(database.db, {
        companyId,
        files: [file("b.xml", doc([stmt({ id: "S9", entries: [entry({ amount: "12.00" })] })]))],
      });
      expect(booked.files[0]).toMatchObject({ transactionsInserted: 1, pendingReplaced: 1 });
    },
  );
});

describe("camt.052 and camt.054", () => {
  const report = doc(
    [
      stmt({
        id: "R1",
        createdAt: `${DAY}T12:00:00+01:00`,
        balances: [
          { code: "ITBD", amount: "900.00", currency: "NOK", date: `${DAY}T10:00:00+01:00` },
          { code: "ITAV", amount: "850.00", currency: "NOK", date: `${DAY}T10:00:00+01:00` },
          { code: "ITBD", amount: "950.00", currency: "NOK", date: `${DAY}T11:00:00+01:00` },
        ],
        entries: [
          entry({ amount: "50.00", servicerRef: "IR-1" }),
          entry({ amount: "7.00", direction: "debit", booked: undefined, servicerRef: "IR-2" }),
        ],
      }),
    ],
    { message: "camt.052" },
  );

  it("camt.052: ITBD / ITAV become intraday points, entries pending; the day's camt.053 supersedes them", async () => {
    const { companyId } = await newTenant();
    const res = await importStatements(database.db, { companyId, files: [file("intraday.xml", report)] });
    expect(res.files[0]).toMatchObject({
      messageType: "camt.052",
      intradayPoints: 3,
      pending: 2,
      transactionsInserted: 0,
      balancesUpserted: 0,
      coverageDays: 0,
    });
    const [account] = await database.db.select().from(accounts).where(eq(accounts.companyId, companyId));
    const id = account?.id ?? "";
    const points = await database.db.select().from(intradayPoints).where(eq(intradayPoints.accountId, id));
    expect(points.map((p) => [new Date(p.timestamp).toISOString(), p.balanceType, p.balance, p.source]).sort()).toEqual(
      [
        ["2026-03-02T09:00:00.000Z", "interim_available", "850.00", "camt.052"],
        ["2026-03-02T09:00:00.000Z", "interim_booked", "900.00", "camt.052"],
        ["2026-03-02T10:00:00.000Z", "interim_booked", "950.00", "camt.052"],
      ],
    );
    // Imported again: the same points and pending entries, no more.
    await importStatements(database.db, { companyId, files: [file("intraday.xml", report)] });
    expect(await database.db.select().from(intradayPoints).where(eq(intradayPoints.accountId, id))).toHaveLength(3);
    expect(await database.db.select().from(pendingEntries).where(eq(pendingEntries.accountId, id))).toHaveLength(2);
    // The end-of-day statement books IR-1 only; it covers the day, so the report's points and its other pending entry
    // go.
    const eod = doc([
      stmt({
        id: "S-EOD",
        period: { from: `${DAY}T00:00:00+01:00`, to: `${DAY}T23:59:59+01:00` },
        entries: [entry({ amount: "50.00", servicerRef: "IR-1" })],
      }),
    ]);
    const after = await importStatements(database.db, { companyId, files: [file("eod.xml", eod)] });
    expect(after.files[0]).toMatchObject({ transactionsInserted: 1, pendingReplaced: 1, coverageDays: 1 });
    expect(await database.db.select().from(intradayPoints).where(eq(intradayPoints.accountId, id))).toEqual([]);
    expect(await database.db.select().from(pendingEntries).where(eq(pendingEntries.accountId, id))).toEqual([]);
  });

  it(
    "camt.054: booked entries become transactions, de-duplicated against the statement of the same day (either " +
      "order)",
    async () => {
      const { companyId } = await newTenant();
      const note = doc(
        [
          stmt({
            balances: [],
            entries: [
              entry({ amount: "300.00", servicerRef: "N-1" }),
              entry({ amount: "20.00", direction: "debit", txs: [{ endToEndId: "PAY-7" }] }),
            ],
          }),
        ],
        { message: "camt.054" },
      );
      const n = await importStatements(database.db, { companyId, files: [file("note.xml", note)] });
      expect(n.files[0]).toMatchObject({
        messageType: "camt.054",
        transactionsInserted: 2,
        balancesUpserted: 0,
        coverageDays: 0,
      });
      // The statement of the day has both bookings (the second without AcctSvcrRef, same end-to-end id) and one more.
      const statement = doc([
        stmt({
          entries: [
            entry({ amount: "300.00", servicerRef: "N-1" }),
            entry({ amount: "20.00", direction: "debit", servicerRef: "S-77", txs: [{ endToEndId: "PAY-7" }] }),
            entry({ amount: "1.00" }),
          ],
        }),
      ]);
      const s = await importStatements(database.db, { companyId, files: [file("stmt.xml", statement)] });
      expect(s.files[0]).toMatchObject({ transactionsInserted: 1, duplicatesSkipped: 2 });
      // The notification again, after the statement: nothing new.
      const again = await importStatements(database.db, { companyId, files: [file("note.xml", note)] });
      expect(again.files[0]).toMatchObject({ transactionsInserted: 0, duplicatesSkipped: 2 });
      const rows = await database.db
        .select({ n: sql<number>`count(*)::int` })
        .from(transactions)
        .where(and(eq(transactions.companyId, companyId)));
      expect(rows[0]?.n).toBe(3);
    },
  );
});

describe("import-statements CLI", () => {
  it("says how many entries were stored as pending and names the detected versions", async () => {
    const { companyId } = await newTenant();
    const { mkdtempSync, writeFileSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const dir = mkdtempSync(`${tmpdir()}/stmts-`);
    writeFileSync(
      `${dir}/r.xml`,
      doc([stmt({ entries: [entry({ booked: undefined, servicerRef: "Q" })] })], { message: "camt.052" }),
    );
    let out = "";
    const io: CliOutput = { out: (t) => (out += t), err: (t) => (out += t) };
    expect(await runImportCli(database.db, ["--company", companyId, `${dir}/r.xml`], io)).toBe(0);
    expect(out).toContain("(r.xml: camt.052.001.02)");
    expect(out).toContain("1 entries stored as pending (not booked");
  });
});
