/**
 * Tests of the camt.053 parser and importer (issue 2 item 13) against every
 * bank statement fixture in shared/fixtures/statements (figures from its
 * SOURCES.md) and hand-made malformed files.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Decimal } from "decimal.js";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../db/client";
import { accounts, balanceSnapshots, companies, coverageDays, tenants, transactions, webhookEvents } from "../db/schema";
import { ApiError } from "../lib/errors";
import { newId } from "../lib/secrets";
import { importCamt053, type ImportFileSummary } from "./camt053-import";
import { runImportCli, type CliOutput } from "./cli";
import { CamtImportError, parseCamt053, type ParsedEntry, type ParsedStatement } from "./camt053-parse";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const FIXTURES = path.resolve(repoRoot, "../shared/fixtures/statements");

const F = {
  abnamro: "camt053-001-02-abnamro-nl-1.xml",
  genkgo: "camt053-001-02-genkgo-allbalances-1.xml",
  goldman: "camt053-001-02-goldmansachs-uk-1.xml",
  nordea: "camt053-001-02-nordea-fi-1.xml",
  vrbank: "camt053-001-02-vrbank-de-1.xml",
  postfinance: "camt053-001-04-postfinance-ch-1.xml",
  ubs: "camt053-001-08-ubs-ch-1.xml",
} as const;

function fixture(name: string): string {
  return readFileSync(path.join(FIXTURES, name), "utf8");
}

function parseFixture(name: string): ParsedStatement[] {
  return parseCamt053(fixture(name), name);
}

function entriesOf(stmts: ParsedStatement[]): ParsedEntry[] {
  return stmts.flatMap((s) => s.entries);
}

function sum(entries: ParsedEntry[], direction: "credit" | "debit"): string {
  return entries
    .filter((e) => e.direction === direction)
    .reduce((acc, e) => acc.plus(e.amount), new Decimal(0))
    .toFixed(2);
}

function count(entries: ParsedEntry[], direction: "credit" | "debit"): number {
  return entries.filter((e) => e.direction === direction).length;
}

/** Expected figures per fixture: SOURCES.md (statements, entries, balance codes) plus sums checked by hand. */
const EXPECTED: Record<string, { version: string; stmts: number; entries: number; credits: [number, string]; debits: [number, string]; currencies: string[]; balanceCodes: string[][]; e2e: number }> = {
  [F.abnamro]: { version: "camt.053.001.02", stmts: 1, entries: 13, credits: [7, "28.00"], debits: [6, "928.00"], currencies: ["EUR"], balanceCodes: [["PRCD", "CLBD", "CLAV", "FWAV", "FWAV", "FWAV", "FWAV", "FWAV"]], e2e: 4 },
  [F.nordea]: { version: "camt.053.001.02", stmts: 1, entries: 6, credits: [2, "10100.50"], debits: [4, "1500.50"], currencies: ["EUR"], balanceCodes: [["OPBD", "CLBD"]], e2e: 2 },
  [F.goldman]: { version: "camt.053.001.02", stmts: 2, entries: 6, credits: [2, "200.00"], debits: [4, "400.00"], currencies: ["GBP"], balanceCodes: [["OPBD", "CLBD", "OPAV", "CLAV"], ["OPBD", "CLBD", "OPAV", "CLAV"]], e2e: 4 },
  [F.vrbank]: { version: "camt.053.001.02", stmts: 1, entries: 4, credits: [1, "1.00"], debits: [3, "11.00"], currencies: ["EUR"], balanceCodes: [["PRCD", "CLBD"]], e2e: 1 },
  [F.postfinance]: { version: "camt.053.001.04", stmts: 1, entries: 13, credits: [5, "1810.56"], debits: [8, "1272.95"], currencies: ["CHF"], balanceCodes: [["OPBD", "CLBD"]], e2e: 3 },
  [F.ubs]: { version: "camt.053.001.08", stmts: 1, entries: 3, credits: [2, "563.25"], debits: [1, "20.97"], currencies: ["CHF", "EUR"], balanceCodes: [["OPBD", "CLBD", "CLAV"]], e2e: 3 },
  [F.genkgo]: { version: "camt.053.001.02", stmts: 1, entries: 1, credits: [1, "8.85"], debits: [0, "0.00"], currencies: ["EUR"], balanceCodes: [["OPBD", "PRCD", "OPAV", "CLBD", "CLAV", "FWAV", "INFO", "ITAV", "ITBD", "XPCD"]], e2e: 1 },
};

/** A minimal camt.053 document; `entry` replaces the one Ntry, `root` the root element name. */
function makeCamt(opts: { version?: string; entry?: string; root?: string; acctId?: string; bal?: string } = {}): string {
  const version = opts.version ?? "02";
  const root = opts.root ?? "BkToCstmrStmt";
  const entry =
    opts.entry ??
    `<Ntry><Amt Ccy="NOK">1250.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>2026-01-10</Dt></BookgDt><ValDt><Dt>2026-01-11</Dt></ValDt><AcctSvcrRef>REF-1</AcctSvcrRef>
      <NtryDtls><TxDtls><Refs><EndToEndId>E2E-1</EndToEndId></Refs><RltdPties><Dbtr><Nm>Kunde AS</Nm></Dbtr></RltdPties><RmtInf><Ustrd>Faktura 42</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>`;
  const bal = opts.bal ?? `<Bal><Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy="NOK">5000.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2026-01-10</Dt></Dt></Bal>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.${version}"><${root}>
  <GrpHdr><MsgId>M1</MsgId><CreDtTm>2026-01-10T20:00:00+01:00</CreDtTm></GrpHdr>
  <Stmt><Id>S-${version}</Id><CreDtTm>2026-01-10T20:00:00+01:00</CreDtTm>
    <Acct><Id>${opts.acctId ?? "<IBAN>NO9386011117947</IBAN>"}</Id><Ccy>NOK</Ccy><Svcr><FinInstnId><BICFI>DNBANOKK</BICFI></FinInstnId></Svcr></Acct>
    ${bal}
    ${entry}
  </Stmt>
</${root}></Document>`;
}

/** Runs `fn` and returns the CamtImportError it throws. */
function camtError(fn: () => unknown): CamtImportError {
  try {
    fn();
  } catch (e) {
    if (e instanceof CamtImportError) return e;
    throw e;
  }
  throw new Error("expected a CamtImportError");
}

describe("parseCamt053: fixtures", () => {
  for (const [name, want] of Object.entries(EXPECTED)) {
    it(`${name}: statements, entries, directions, sums, balances`, () => {
      const stmts = parseFixture(name);
      const entries = entriesOf(stmts);
      expect(stmts.map((s) => s.version)).toEqual(stmts.map(() => want.version));
      expect(stmts).toHaveLength(want.stmts);
      expect(entries).toHaveLength(want.entries);
      expect([count(entries, "credit"), sum(entries, "credit")]).toEqual(want.credits);
      expect([count(entries, "debit"), sum(entries, "debit")]).toEqual(want.debits);
      expect([...new Set(entries.map((e) => e.currency))].sort()).toEqual(want.currencies);
      expect(stmts.map((s) => s.balances.map((b) => b.code))).toEqual(want.balanceCodes);
      expect(entries.filter((e) => e.endToEndId !== null)).toHaveLength(want.e2e);
      for (const e of entries) {
        expect(e.amount).toMatch(/^\d+(\.\d+)?$/);
        expect(e.booked.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        expect(e.booked.at).toMatch(/(Z|[+-]\d{2}:\d{2})$/);
        expect(e.status).toBe("BOOK");
      }
    });
  }

  it("ABN AMRO: IBAN, BIC, batches stay one entry, NOTPROVIDED is dropped, whitespace is collapsed", () => {
    const [stmt] = parseFixture(F.abnamro);
    expect(stmt?.account).toMatchObject({ ref: "NL77ABNA0574908765", refType: "IBAN", currency: "EUR", servicerBic: "ABNANL2A" });
    expect(stmt?.period).toBeNull();
    const e = stmt?.entries ?? [];
    // 26 TxDtls in 13 entries: the batches are summarised, not split.
    expect(fixture(F.abnamro).match(/<TxDtls>/g)).toHaveLength(26);
    expect(e[3]).toMatchObject({ amount: "10.00", direction: "credit", txCount: 10, endToEndId: null });
    expect(e[3]?.remittance).toBe("Batch of 10: /TRTP/SEPA ACCEPTGIRO BATCH/PREF/3095D4322561460S0PS/NRTX/10");
    expect(e[1]).toMatchObject({ counterpartyName: "NAAM", remittance: "OMSCHRIJVING", endToEndId: null });
    // An entry without details takes its AddtlNtryInf as remittance.
    expect(e[0]?.remittance).toBe("11.11.111.111 Naam Adres 7 2960 Dorp");
    expect(e[4]?.remittance).toBe("2305271368 0050001248302363 pid2305271368t Mud Masters Mud Masters");
    // Amount kept exactly as written, leading zero included.
    expect(e[5]?.amount).toBe("01.00");
    expect(e[12]).toMatchObject({ amount: "921.00", direction: "debit", counterpartyName: "Debtor", endToEndId: "1234567X908303804" });
    expect(stmt?.balances.find((b) => b.code === "PRCD")).toEqual({ code: "PRCD", amount: "1000.01", currency: "EUR", date: "2013-03-28" });
  });

  it("Nordea: opening + entries = closing; structured reference as remittance", () => {
    const [stmt] = parseFixture(F.nordea);
    expect(stmt?.account).toMatchObject({ ref: "FI8529501800030574", servicerBic: "NDEAFIHH" });
    const e = stmt?.entries ?? [];
    const net = new Decimal(sum(e, "credit")).minus(sum(e, "debit"));
    const opening = stmt?.balances.find((b) => b.code === "OPBD")?.amount ?? "";
    expect(new Decimal(opening).plus(net).toFixed(2)).toBe(stmt?.balances.find((b) => b.code === "CLBD")?.amount);
    expect(e[0]).toMatchObject({ amount: "10000.00", endToEndId: "20190501-E00005", entryRef: "1", accountServicerRef: "1905082588CEAA0001" });
    expect(e[2]).toMatchObject({ direction: "debit", remittance: "RF332348236", endToEndId: "20190508-E123456" });
  });

  it("Goldman Sachs: Othr account, DtTm booking dates, empty first statement", () => {
    const [first, second] = parseFixture(F.goldman);
    expect(first?.account).toMatchObject({ ref: "60000635", refType: "OTHER", currency: "GBP", servicerBic: "GSCRUS30" });
    expect(first?.entries).toHaveLength(0);
    expect(first?.period).toEqual({ from: "2023-10-09", to: "2023-10-09" });
    expect(second?.account).toMatchObject({ ref: "GB36GSLD04296250000970", refType: "IBAN", servicerBic: "GSLDGB20" });
    expect(second?.balances.find((b) => b.code === "CLBD")).toEqual({ code: "CLBD", amount: "334425126.42", currency: "GBP", date: "2023-10-09" });
    // DtTm: the instant as given, the date its local date part.
    expect(second?.entries[0]?.booked).toEqual({ date: "2023-10-09", at: "2023-10-09T02:00:04.000Z", dateOnly: false });
    expect(second?.entries[2]).toMatchObject({ direction: "credit", counterpartyName: "TEST NAME", endToEndId: "00384068", value: { date: "2022-10-12" } });
    expect(second?.entries.map((e) => e.endToEndId)).toEqual([null, null, "00384068", "CHCSVP1139982", "GSUPGKUAUQ6EJDK", "GSEOOM9QJYXKHLO"]);
  });

  it("VR-Bank: previous closing + entries = closing; a two-transaction batch", () => {
    const [stmt] = parseFixture(F.vrbank);
    const e = stmt?.entries ?? [];
    expect(stmt?.account).toMatchObject({ ref: "DE14740618130000033626", servicerBic: "GENODEF1PFK", servicerName: "VR-Bank Rottal-Inn eG" });
    expect(new Decimal("33.06").plus(sum(e, "credit")).minus(sum(e, "debit")).toFixed(2)).toBe("23.06");
    expect(e[0]).toMatchObject({ amount: "2.00", direction: "debit", counterpartyName: "Testkonto Nummer 2", endToEndId: "EndToEndReference" });
    expect(e[3]).toMatchObject({ amount: "6.00", txCount: 2, remittance: "Batch of 2", endToEndId: null, counterpartyName: "Testkonto Nummer 1" });
  });

  it("PostFinance v4: no Acct/Ccy (taken from the balances), FrToDt without offset, Btch entries", () => {
    const [stmt] = parseFixture(F.postfinance);
    expect(stmt?.account).toMatchObject({ ref: "CH0309000000250090342", currency: "CHF", servicerBic: null });
    expect(stmt?.period).toEqual({ from: "2016-04-30", to: "2016-04-30" });
    const e = stmt?.entries ?? [];
    expect(new Decimal("322152.16").plus(sum(e, "credit")).minus(sum(e, "debit")).toFixed(2)).toBe("322689.77");
    expect(e.filter((x) => x.txCount > 1).map((x) => [x.amount, x.txCount])).toEqual([
      ["1000.00", 10],
      ["620.00", 8],
      ["110.00", 3],
      ["24.00", 2],
    ]);
    expect(e[10]).toMatchObject({ amount: "56.56", counterpartyName: "Bernasconi Maria", endToEndId: "PMT-651727380907030005" });
  });

  it("UBS v8: BICFI, Dbtr/Pty/Nm for credits, Cdtr/Pty/Nm for debits, Strd references, foreign-currency entry", () => {
    const [stmt] = parseFixture(F.ubs);
    expect(stmt?.account).toMatchObject({ ref: "CH1111111111111111111", currency: "CHF", servicerBic: "UBSWCHZH80A" });
    expect(stmt?.entries.map((x) => [x.amount, x.currency, x.direction, x.counterpartyName, x.remittance, x.endToEndId])).toEqual([
      ["474.4", "CHF", "credit", "Jon Doe", "INVOICE R77561", "80000004540000100095"],
      ["88.85", "CHF", "credit", "Finanz AG", "RF38000000000000000000552", "435A9287E088BDB1D97FAABD181C70C8"],
      ["20.97", "EUR", "debit", "DHL Express (Schweiz) AG", "000000270148751802165444888", "1208481"],
    ]);
  });

  it("genkgo: every balance code, Othr account without BIC, amount 8.850 kept as written", () => {
    const [stmt] = parseFixture(F.genkgo);
    expect(stmt?.account).toMatchObject({ ref: "CH2801234000123456789", refType: "OTHER", currency: "EUR", servicerBic: null, servicerName: "AAAA BANKEN" });
    expect(stmt?.entries[0]).toMatchObject({ amount: "8.850", endToEndId: "000000001", remittance: "Transaction Description", booked: { date: "2014-12-31" }, value: { date: "2015-01-02" } });
  });
});

describe("parseCamt053: versions and variants", () => {
  for (const version of ["02", "03", "04", "05", "06", "07", "08"]) {
    it(`reads camt.053.001.${version}`, () => {
      const [stmt] = parseCamt053(makeCamt({ version }), "v.xml");
      expect(stmt?.version).toBe(`camt.053.001.${version}`);
      expect(stmt?.entries[0]).toMatchObject({ amount: "1250.00", currency: "NOK", direction: "credit", counterpartyName: "Kunde AS", remittance: "Faktura 42", endToEndId: "E2E-1" });
      expect(stmt?.entries[0]?.value).toEqual({ date: "2026-01-11", at: "2026-01-11T00:00:00Z", dateOnly: true });
    });
  }

  it("a DBIT balance is negative; a namespace prefix is accepted; ValDt falls back to the booking date", () => {
    const xml = makeCamt({
      bal: `<Bal><Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy="NOK">12.50</Amt><CdtDbtInd>DBIT</CdtDbtInd><Dt><DtTm>2026-01-10T23:59:00+01:00</DtTm></Dt></Bal>`,
      entry: `<Ntry><Amt Ccy="NOK">3</Amt><CdtDbtInd>DBIT</CdtDbtInd><BookgDt><DtTm>2026-01-10T08:15:00+01:00</DtTm></BookgDt></Ntry>`,
    })
      .replace(/<(\/?)([A-Za-z])/g, "<$1ns2:$2")
      .replace('xmlns="', 'xmlns:ns2="')
      .replace("<ns2:?xml", "<?xml");
    const [stmt] = parseCamt053(xml, "prefixed.xml");
    expect(stmt?.balances).toEqual([{ code: "CLBD", amount: "-12.50", currency: "NOK", date: "2026-01-10" }]);
    expect(stmt?.entries[0]).toMatchObject({ amount: "3", direction: "debit", booked: { date: "2026-01-10", at: "2026-01-10T08:15:00+01:00" }, value: { date: "2026-01-10" } });
  });
});

describe("parseCamt053: malformed input", () => {
  const ntry = (inner: string) => `<Ntry>${inner}</Ntry>`;
  const cases: [string, string, RegExp][] = [
    ["truncated XML", makeCamt().slice(0, 600), /^bad\.xml: is not well-formed XML \(line \d+, column \d+/],
    ["not XML at all", "IBAN;amount\nNO93;100", /^bad\.xml: is not well-formed XML/],
    ["wrong root (camt.052)", makeCamt({ root: "BkToCstmrAcctRpt" }), /^bad\.xml: Document\/BkToCstmrStmt is missing: not a camt\.053 statement \(root is Document\/BkToCstmrAcctRpt\)$/],
    ["missing Amt", makeCamt({ entry: ntry(`<CdtDbtInd>CRDT</CdtDbtInd><BookgDt><Dt>2026-01-10</Dt></BookgDt>`) }), /^bad\.xml: Document\/BkToCstmrStmt\/Stmt\[0\]\/Ntry\[0\]\/Amt is missing$/],
    ["bad CdtDbtInd", makeCamt({ entry: ntry(`<Amt Ccy="NOK">1.00</Amt><CdtDbtInd>CREDIT</CdtDbtInd><BookgDt><Dt>2026-01-10</Dt></BookgDt>`) }), /^bad\.xml: Document\/BkToCstmrStmt\/Stmt\[0\]\/Ntry\[0\]\/CdtDbtInd must be CRDT or DBIT, got "CREDIT"$/],
    ["bad date", makeCamt({ entry: ntry(`<Amt Ccy="NOK">1.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><BookgDt><Dt>2026-02-30</Dt></BookgDt>`) }), /^bad\.xml: Document\/BkToCstmrStmt\/Stmt\[0\]\/Ntry\[0\]\/BookgDt\/Dt is not a valid date: "2026-02-30"$/],
    ["bad date-time", makeCamt({ entry: ntry(`<Amt Ccy="NOK">1.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><BookgDt><DtTm>10.01.2026 08:00</DtTm></BookgDt>`) }), /Ntry\[0\]\/BookgDt\/DtTm is not a valid date-time: "10\.01\.2026 08:00"$/],
    ["float-looking amount", makeCamt({ entry: ntry(`<Amt Ccy="NOK">1,5</Amt><CdtDbtInd>CRDT</CdtDbtInd><BookgDt><Dt>2026-01-10</Dt></BookgDt>`) }), /Ntry\[0\]\/Amt is not a decimal amount: "1,5"$/],
    ["Amt without Ccy", makeCamt({ entry: ntry(`<Amt>1.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><BookgDt><Dt>2026-01-10</Dt></BookgDt>`) }), /Ntry\[0\]\/Amt\/@Ccy is missing$/],
    ["no booking or value date", makeCamt({ entry: ntry(`<Amt Ccy="NOK">1.00</Amt><CdtDbtInd>CRDT</CdtDbtInd>`) }), /Ntry\[0\]\/BookgDt is missing$/],
    ["bad balance indicator", makeCamt({ bal: `<Bal><Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy="NOK">1.00</Amt><CdtDbtInd>X</CdtDbtInd><Dt><Dt>2026-01-10</Dt></Dt></Bal>` }), /Stmt\[0\]\/Bal\[0\]\/CdtDbtInd must be CRDT or DBIT, got "X"$/],
    ["account without id", makeCamt({ acctId: "" }), /Stmt\[0\]\/Acct\/Id has neither IBAN nor Othr\/Id$/],
  ];
  for (const [what, xml, message] of cases) {
    it(`${what} throws CamtImportError naming the file and element`, () => {
      const err = camtError(() => parseCamt053(xml, "bad.xml"));
      expect(err.message).toMatch(message);
      expect(err.fileName).toBe("bad.xml");
      expect(err.code).toBe("validation_error");
    });
  }

  it("names the index of the failing entry", () => {
    const good = makeCamt();
    const xml = good.replace("</Stmt>", `${ntry(`<Amt Ccy="NOK">1</Amt><CdtDbtInd>CRDT</CdtDbtInd><BookgDt><Dt>2026-01-10</Dt></BookgDt>`).repeat(2)}<Ntry><CdtDbtInd>CRDT</CdtDbtInd></Ntry></Stmt>`);
    expect(camtError(() => parseCamt053(xml, "statement.xml")).message).toBe("statement.xml: Document/BkToCstmrStmt/Stmt[0]/Ntry[3]/Amt is missing");
  });
});

// ---------------------------------------------------------------- importer

let database: Database;

beforeAll(async () => {
  database = await openDatabase({ dataDir: "memory" });
});

afterAll(async () => {
  await database?.close();
});

/** A fresh tenant with two companies, so that no test sees another's accounts. */
async function newTenant(): Promise<{ tenantId: string; companyId: string; otherCompanyId: string }> {
  const tenantId = newId();
  const companyId = newId();
  const otherCompanyId = newId();
  await database.db.insert(tenants).values({ id: tenantId, name: "Test tenant" });
  await database.db.insert(companies).values([
    { id: companyId, tenantId, orgnr: "910000001", name: "Importer AS", country: "NO" },
    { id: otherCompanyId, tenantId, orgnr: "910000002", name: "Other AS", country: "NO" },
  ]);
  return { tenantId, companyId, otherCompanyId };
}

/** Row counts of every table the importer writes (and the trigger-kept aggregate). */
async function tableCounts(): Promise<Record<string, number>> {
  const res = await database.db.execute<{ t: string; n: number }>(sql`
    select 'accounts' as t, count(*)::int as n from accounts
    union all select 'transactions', count(*)::int from transactions
    union all select 'balance_snapshots', count(*)::int from balance_snapshots
    union all select 'coverage_days', count(*)::int from coverage_days
    union all select 'webhook_events', count(*)::int from webhook_events
    union all select 'account_day_flows', coalesce(sum(tx_count), 0)::int from account_day_flows`);
  return Object.fromEntries(rowsOf<{ t: string; n: number }>(res).map((r) => [r.t, Number(r.n)]));
}

/** PGlite and node-postgres both return `{ rows }` from `execute`. */
function rowsOf<T>(res: unknown): T[] {
  return (res as { rows: T[] }).rows;
}

/** Runs `fn` and returns the error it rejects with. */
async function rejection(fn: () => Promise<unknown>): Promise<Error> {
  try {
    await fn();
  } catch (e) {
    if (e instanceof Error) return e;
  }
  throw new Error("expected a rejection");
}

const FILE_FIGURES: Record<string, Omit<ImportFileSummary, "file" | "accountRefs" | "accountsMatched" | "duplicatesSkipped" | "entriesNotBooked">> = {
  [F.abnamro]: { statements: 1, accountsCreated: 1, transactionsInserted: 13, balancesUpserted: 3, coverageDays: 2, skippedBalanceCodes: { FWAV: 5 } },
  [F.nordea]: { statements: 1, accountsCreated: 1, transactionsInserted: 6, balancesUpserted: 2, coverageDays: 1, skippedBalanceCodes: {} },
  [F.goldman]: { statements: 2, accountsCreated: 2, transactionsInserted: 6, balancesUpserted: 6, coverageDays: 2, skippedBalanceCodes: { OPAV: 2 } },
  [F.vrbank]: { statements: 1, accountsCreated: 1, transactionsInserted: 4, balancesUpserted: 2, coverageDays: 1, skippedBalanceCodes: {} },
  [F.postfinance]: { statements: 1, accountsCreated: 1, transactionsInserted: 13, balancesUpserted: 2, coverageDays: 1, skippedBalanceCodes: {} },
  [F.ubs]: { statements: 1, accountsCreated: 1, transactionsInserted: 3, balancesUpserted: 3, coverageDays: 1, skippedBalanceCodes: {} },
  [F.genkgo]: { statements: 1, accountsCreated: 1, transactionsInserted: 1, balancesUpserted: 5, coverageDays: 3, skippedBalanceCodes: { OPAV: 1, FWAV: 1, INFO: 1, XPCD: 1 } },
};

describe("importCamt053", () => {
  it("imports every fixture in one call: accounts, transactions, balances, coverage, events", async () => {
    const { tenantId, companyId } = await newTenant();
    const names = Object.keys(FILE_FIGURES);
    const summary = await importCamt053(database.db, { companyId, files: names.map((name) => ({ name, content: fixture(name) })) });
    expect(summary.companyId).toBe(companyId);
    for (const file of summary.files) {
      expect(file).toMatchObject({ ...FILE_FIGURES[file.file], accountsMatched: 0, duplicatesSkipped: 0, entriesNotBooked: 0 });
    }

    const accs = await database.db.select().from(accounts).where(eq(accounts.companyId, companyId));
    expect(accs).toHaveLength(8);
    const byRef = new Map(accs.map((a) => [a.externalRef, a]));
    expect(byRef.get("NL77ABNA0574908765")).toMatchObject({ tenantId, bankId: "ABNANL2A", bankName: "ABN AMRO", name: "ABN AMRO EUR ****8765", currency: "EUR", status: "active", externalRefType: "IBAN" });
    expect(byRef.get("60000635")).toMatchObject({ bankId: "GSCRUS30", bankName: "Goldman Sachs", currency: "GBP", externalRefType: "OTHER", name: "Goldman Sachs GBP ****0635" });
    expect(byRef.get("CH2801234000123456789")).toMatchObject({ bankId: "UNKNOWN", bankName: "AAAA BANKEN", currency: "EUR", externalRefType: "OTHER" });
    expect(byRef.get("CH0309000000250090342")).toMatchObject({ bankId: "UNKNOWN", bankName: "Unknown bank", currency: "CHF" });
    expect(byRef.get("DE14740618130000033626")).toMatchObject({ bankId: "GENODEF1PFK", bankName: "VR-Bank Rottal-Inn eG" });

    const txs = await database.db.select().from(transactions).where(eq(transactions.companyId, companyId));
    expect(txs).toHaveLength(46);
    expect(txs.every((t) => t.source === "camt.053" && t.tenantId === tenantId && t.dedupeKey !== null)).toBe(true);
    const accountOf = (ref: string) => byRef.get(ref)?.id;
    const abn = txs.filter((t) => t.accountId === accountOf("NL77ABNA0574908765"));
    expect(abn).toHaveLength(13);
    // numeric keeps the file's scale; "01.00" loses only its leading zero.
    expect(abn.map((t) => t.amount).sort()).toEqual(["1.00", "1.00", "1.00", "1.00", "1.00", "1.00", "10.00", "2.00", "2.00", "7.00", "7.00", "921.00", "1.00"].sort());
    expect(txs.find((t) => t.currency === "EUR" && t.amount === "8.850")).toMatchObject({ direction: "credit", bookedDate: "2014-12-31", valueDate: "2015-01-02", endToEndId: "000000001" });
    const ubs = txs.filter((t) => t.accountId === accountOf("CH1111111111111111111"));
    expect(ubs.map((t) => [t.amount, t.currency, t.direction, t.counterpartyName, t.endToEndId]).sort()).toEqual([
      ["20.97", "EUR", "debit", "DHL Express (Schweiz) AG", "1208481"],
      ["474.4", "CHF", "credit", "Jon Doe", "80000004540000100095"],
      ["88.85", "CHF", "credit", "Finanz AG", "435A9287E088BDB1D97FAABD181C70C8"],
    ]);
    const gsFirst = txs.find((t) => t.endToEndId === "00384068");
    expect(gsFirst).toMatchObject({ bookedDate: "2023-10-09", valueDate: "2022-10-12", direction: "credit", counterpartyName: "TEST NAME" });
    expect(new Date(gsFirst?.bookedAt ?? "").toISOString()).toBe("2023-10-09T02:00:01.000Z");
    expect(new Date(gsFirst?.valueAt ?? "").toISOString()).toBe("2022-10-12T00:00:00.000Z");

    // Exact sums per account and direction, in SQL numeric.
    const sums = rowsOf<{ external_ref: string; direction: string; n: number; total: string }>(
      await database.db.execute(sql`select a.external_ref, t.direction, count(*)::int as n, sum(t.amount)::text as total
        from transactions t join accounts a on a.id = t.account_id where t.company_id = ${companyId}
        group by a.external_ref, t.direction order by 1, 2`),
    );
    expect(sums.map((r) => `${r.external_ref} ${r.direction} ${r.n} ${r.total}`)).toEqual([
      "CH0309000000250090342 credit 5 1810.56",
      "CH0309000000250090342 debit 8 1272.95",
      "CH1111111111111111111 credit 2 563.25",
      "CH1111111111111111111 debit 1 20.97",
      "CH2801234000123456789 credit 1 8.850",
      "DE14740618130000033626 credit 1 1.00",
      "DE14740618130000033626 debit 3 11.00",
      "FI8529501800030574 credit 2 10100.50",
      "FI8529501800030574 debit 4 1500.50",
      "GB36GSLD04296250000970 credit 2 200.00",
      "GB36GSLD04296250000970 debit 4 400.00",
      "NL77ABNA0574908765 credit 7 28.00",
      "NL77ABNA0574908765 debit 6 928.00",
    ]);

    const bals = await database.db
      .select({ accountId: balanceSnapshots.accountId, type: balanceSnapshots.balanceType, date: balanceSnapshots.asOfDate, balance: balanceSnapshots.balance, source: balanceSnapshots.source })
      .from(balanceSnapshots)
      .where(eq(balanceSnapshots.companyId, companyId));
    const balancesOf = (ref: string) =>
      bals
        .filter((b) => b.accountId === accountOf(ref))
        .map((b) => `${b.type} ${b.date} ${b.balance}`)
        .sort();
    expect(balancesOf("FI8529501800030574")).toEqual(["closing_booked 2019-05-07 200.50", "closing_booked 2019-05-08 8800.50"]);
    expect(balancesOf("NL77ABNA0574908765")).toEqual(["closing_available 2013-04-02 100.01", "closing_booked 2013-03-28 1000.01", "closing_booked 2013-04-02 100.01"]);
    expect(balancesOf("CH0309000000250090342")).toEqual(["closing_booked 2016-04-29 322152.16", "closing_booked 2016-04-30 322689.77"]);
    expect(balancesOf("GB36GSLD04296250000970")).toEqual(["closing_available 2023-10-09 334432401.27", "closing_booked 2023-10-08 334425218.07", "closing_booked 2023-10-09 334425126.42"]);
    expect(balancesOf("60000635")).toEqual(["closing_available 2023-10-09 0.00", "closing_booked 2023-10-08 68206.51", "closing_booked 2023-10-09 68206.51"]);
    expect(balancesOf("CH1111111111111111111")).toEqual(["closing_available 2023-06-20 83415.25", "closing_booked 2023-06-19 82721.95", "closing_booked 2023-06-20 84515.25"]);
    expect(balancesOf("DE14740618130000033626")).toEqual(["closing_booked 2013-12-26 33.06", "closing_booked 2013-12-27 23.06"]);
    expect(balancesOf("CH2801234000123456789")).toEqual([
      "closing_available 2015-01-23 5.05",
      "closing_booked 2015-01-21 1.01",
      "closing_booked 2015-01-22 4.04",
      "interim_available 2015-01-28 8.08",
      "interim_booked 2015-01-21 9.09",
    ]);
    expect(bals.every((b) => b.source === "camt.053")).toBe(true);

    const cov = await database.db.select().from(coverageDays).where(eq(coverageDays.companyId, companyId));
    expect(cov).toHaveLength(11);
    expect(cov.every((c) => c.source === "camt.053" && c.completeness === "complete")).toBe(true);
    expect(cov.filter((c) => c.accountId === accountOf("NL77ABNA0574908765")).map((c) => c.date).sort()).toEqual(["2012-04-02", "2013-04-02"]);
    expect(cov.filter((c) => c.accountId === accountOf("CH0309000000250090342")).map((c) => c.date)).toEqual(["2016-04-30"]);

    // One transaction.created event per transaction, carrying the API's Transaction.
    const events = await database.db.select().from(webhookEvents).where(and(eq(webhookEvents.companyId, companyId), eq(webhookEvents.type, "transaction.created")));
    expect(events).toHaveLength(46);
    const payloads = events.map((e) => e.payload as { type: string; data: Record<string, unknown> });
    expect(new Set(payloads.map((p) => p.data.id))).toEqual(new Set(txs.map((t) => t.id)));
    expect(payloads.find((p) => p.data.end_to_end_id === "1208481")?.data).toEqual({
      id: ubs.find((t) => t.endToEndId === "1208481")?.id,
      account_id: accountOf("CH1111111111111111111"),
      amount: "20.97",
      currency: "EUR",
      direction: "debit",
      booked_at: "2023-06-20T00:00:00.000Z",
      value_at: "2023-06-20T00:00:00.000Z",
      counterparty_name: "DHL Express (Schweiz) AG",
      remittance: "000000270148751802165444888",
      end_to_end_id: "1208481",
      booked_date: "2023-06-20",
      value_date: "2023-06-20",
    });
    // Amounts in the API's form: at least the currency's minor units, extra digits kept.
    expect(payloads.find((p) => p.data.end_to_end_id === "80000004540000100095")?.data.amount).toBe("474.40");
    expect(payloads.find((p) => p.data.end_to_end_id === "000000001")?.data.amount).toBe("8.85");
    expect(payloads.find((p) => p.data.end_to_end_id === "00384068")?.data.booked_at).toBe("2023-10-09T02:00:01.000Z");
    expect(payloads.find((p) => p.data.amount === "1.00" && p.data.counterparty_name === "Naam" && p.data.direction === "debit")?.data.remittance).toBe("2013-33");

    // The trigger-kept daily aggregate agrees with the transactions, row for row.
    const flows = rowsOf<{ diff: number }>(
      await database.db.execute(sql`
        with t as (select account_id, booked_date, direction, count(*)::int as n, sum(amount) as total from transactions where company_id = ${companyId} group by 1, 2, 3),
             f as (select account_id, booked_date, direction, tx_count as n, amount_sum as total from account_day_flows where company_id = ${companyId})
        select count(*)::int as diff from (select * from t except select * from f union all (select * from f except select * from t)) x`),
    );
    expect(flows[0]?.diff).toBe(0);
    const flowTotal = rowsOf<{ n: number }>(await database.db.execute(sql`select sum(tx_count)::int as n from account_day_flows where company_id = ${companyId}`));
    expect(flowTotal[0]?.n).toBe(46);
  });

  it("importing the same file twice adds nothing; a second statement day matches the account", async () => {
    const { companyId } = await newTenant();
    const file = { name: F.nordea, content: fixture(F.nordea) };
    await importCamt053(database.db, { companyId, files: [file] });
    const before = await tableCounts();
    const again = await importCamt053(database.db, { companyId, files: [file, { ...file, name: "copy.xml" }] });
    expect(again.files.map((f) => [f.accountsMatched, f.accountsCreated, f.transactionsInserted, f.duplicatesSkipped])).toEqual([
      [1, 0, 0, 6],
      [1, 0, 0, 6],
    ]);
    expect(await tableCounts()).toEqual(before);
    const n = await database.db.select({ n: sql<number>`count(*)::int` }).from(transactions).where(eq(transactions.companyId, companyId));
    expect(n[0]?.n).toBe(6);
  });

  it("a later closing balance replaces the opening-derived one; DBIT balances are negative; pending entries are not booked", async () => {
    const { companyId } = await newTenant();
    const day1 = makeCamt({
      bal: `<Bal><Tp><CdOrPrtry><Cd>OPBD</Cd></CdOrPrtry></Tp><Amt Ccy="NOK">10.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><Dt><Dt>2026-01-10</Dt></Dt></Bal>
            <Bal><Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy="NOK">1240.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2026-01-10</Dt></Dt></Bal>`,
    }).replace("</Stmt>", `<Ntry><Amt Ccy="NOK">99.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts>PDNG</Sts><BookgDt><Dt>2026-01-10</Dt></BookgDt></Ntry></Stmt>`);
    const res = await importCamt053(database.db, { companyId, files: [{ name: "day1.xml", content: day1 }] });
    expect(res.files[0]).toMatchObject({ transactionsInserted: 1, entriesNotBooked: 1, balancesUpserted: 2, coverageDays: 1 });
    const real = makeCamt({ bal: `<Bal><Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy="NOK">7.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><Dt><Dt>2026-01-09</Dt></Dt></Bal>`, entry: "" });
    await importCamt053(database.db, { companyId, files: [{ name: "day0.xml", content: real }] });
    // Re-importing day 1 must not put the opening balance back over the real closing of the 9th.
    await importCamt053(database.db, { companyId, files: [{ name: "day1.xml", content: day1 }] });
    const bals = await database.db.select().from(balanceSnapshots).where(eq(balanceSnapshots.companyId, companyId));
    expect(bals.map((b) => `${b.balanceType} ${b.asOfDate} ${b.balance}`).sort()).toEqual(["closing_booked 2026-01-09 -7.00", "closing_booked 2026-01-10 1240.00"]);
  });

  it("a malformed file leaves the database unchanged, also as the second file of a batch", async () => {
    const { companyId } = await newTenant();
    const good = { name: "good.xml", content: makeCamt({ acctId: "<IBAN>NO8330001234567</IBAN>" }) };
    const malformed: [string, string, RegExp][] = [
      ["truncated.xml", fixture(F.ubs).slice(0, 3000), /^truncated\.xml: is not well-formed XML/],
      ["missing-amt.xml", fixture(F.nordea).replace(/<Amt Ccy="EUR">100\.50<\/Amt>/, ""), /^missing-amt\.xml: Document\/BkToCstmrStmt\/Stmt\[0\]\/Ntry\[1\]\/Amt is missing$/],
      ["wrong-root.xml", fixture(F.vrbank).replace(/BkToCstmrStmt>/g, "BkToCstmrDbtCdtNtfctn>"), /^wrong-root\.xml: Document\/BkToCstmrStmt is missing/],
      ["bad-ind.xml", fixture(F.abnamro).replace(/(<Ntry>[\s\S]*?<CdtDbtInd>)CRDT/, "$1CRED"), /^bad-ind\.xml: Document\/BkToCstmrStmt\/Stmt\[0\]\/Ntry\[0\]\/CdtDbtInd must be CRDT or DBIT, got "CRED"$/],
    ];
    const before = await tableCounts();
    for (const [name, content, message] of malformed) {
      for (const files of [[{ name, content }], [good, { name, content }]]) {
        const err = await rejection(() => importCamt053(database.db, { companyId, files }));
        expect(err).toBeInstanceOf(CamtImportError);
        expect(err.message).toMatch(message);
        expect(await tableCounts()).toEqual(before);
      }
    }
  });

  it("an account of another company of the tenant is refused, naming the IBAN, and nothing is imported", async () => {
    const { tenantId, companyId, otherCompanyId } = await newTenant();
    await database.db.insert(accounts).values({
      id: newId(),
      tenantId,
      companyId: otherCompanyId,
      bankId: "VRBKDEF1",
      externalRef: "DE14740618130000033626",
      name: "Other's account",
      currency: "EUR",
      bankName: "VR-Bank",
    });
    const before = await tableCounts();
    const err = await rejection(() =>
      importCamt053(database.db, {
        companyId,
        files: [
          { name: F.nordea, content: fixture(F.nordea) },
          { name: F.vrbank, content: fixture(F.vrbank) },
        ],
      }),
    );
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe("conflict");
    expect(err.message).toBe(`${F.vrbank}: account IBAN DE14740618130000033626 belongs to another company of this tenant`);
    expect(await tableCounts()).toEqual(before);
  });

  it("the same IBAN in another tenant is a different account", async () => {
    const first = await newTenant();
    const second = await newTenant();
    const file = { name: F.vrbank, content: fixture(F.vrbank) };
    await importCamt053(database.db, { companyId: first.companyId, files: [file] });
    const res = await importCamt053(database.db, { companyId: second.companyId, files: [file] });
    expect(res.files[0]).toMatchObject({ accountsCreated: 1, transactionsInserted: 4 });
  });

  it("an unknown company is not_found and writes nothing", async () => {
    const before = await tableCounts();
    const err = await rejection(() => importCamt053(database.db, { companyId: newId(), files: [{ name: F.ubs, content: fixture(F.ubs) }] }));
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe("not_found");
    expect(await tableCounts()).toEqual(before);
  });
});

// ---------------------------------------------------------------- CLI

describe("runImportCli", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), "camt-cli-"));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  function capture(): CliOutput & { stdout: string; stderr: string } {
    const io = {
      stdout: "",
      stderr: "",
      out: (t: string) => {
        io.stdout += t;
      },
      err: (t: string) => {
        io.stderr += t;
      },
    };
    return io;
  }

  it("imports the files and prints a table with a totals row", async () => {
    const { companyId } = await newTenant();
    const io = capture();
    const code = await runImportCli(database.db, ["--company", companyId, path.join(FIXTURES, F.abnamro), path.join(FIXTURES, F.genkgo)], io);
    expect(io.stderr).toBe("");
    expect(code).toBe(0);
    const lines = io.stdout.trimEnd().split("\n");
    expect(lines[0]).toBe(`camt.053 import for company ${companyId}`);
    expect(lines[1]).toMatch(/^file\s+stmts\s+accts matched\s+accts created\s+tx inserted\s+tx duplicate\s+not booked\s+balances\s+coverage days\s+skipped balance codes$/);
    expect(lines[3]?.split(/\s{2,}/)).toEqual([F.abnamro, "1", "0", "1", "13", "0", "0", "3", "2", "FWAV×5"]);
    expect(lines[4]?.split(/\s{2,}/)).toEqual([F.genkgo, "1", "0", "1", "1", "0", "0", "5", "3", "OPAV FWAV INFO XPCD"]);
    expect(lines[6]?.split(/\s{2,}/)).toEqual(["total", "2", "0", "2", "14", "0", "0", "8", "5", "FWAV×6 OPAV INFO XPCD"]);
    // Again with --company=ID: every entry is a duplicate now, and the closing
    // derived from PRCD is not rewritten over the existing row (2 balances, not 3).
    const again = capture();
    expect(await runImportCli(database.db, [`--company=${companyId}`, path.join(FIXTURES, F.abnamro)], again)).toBe(0);
    expect(again.stdout.split("\n")[3]?.split(/\s{2,}/)).toEqual([F.abnamro, "1", "1", "0", "0", "13", "0", "2", "2", "FWAV×5"]);
  });

  const usageCases: [string, string[], RegExp][] = [
    ["no --company", ["a.xml"], /missing argument --company COMPANY_ID/],
    ["--company without a value", ["--company"], /missing the company id after --company/],
    ["a company that is not a UUID", ["--company", "acme", "a.xml"], /--company must be a UUID, got "acme"/],
    ["no file", ["--company", "7d4b1c3e-4a8f-4c2e-9b1a-0f3e2d1c4b5a"], /missing argument FILE/],
    ["an unknown option", ["--company", "7d4b1c3e-4a8f-4c2e-9b1a-0f3e2d1c4b5a", "--dry-run", "a.xml"], /unknown option --dry-run/],
  ];
  for (const [what, args, message] of usageCases) {
    it(`usage error: ${what}`, async () => {
      const io = capture();
      expect(await runImportCli(database.db, args, io)).toBe(2);
      expect(io.stderr).toMatch(message);
      expect(io.stderr).toContain("usage: import-camt053 --company COMPANY_ID FILE");
      expect(io.stdout).toBe("");
    });
  }

  it("an unreadable file is named and nothing is imported", async () => {
    const { companyId } = await newTenant();
    const before = await tableCounts();
    const io = capture();
    const missing = path.join(dir, "nope.xml");
    expect(await runImportCli(database.db, ["--company", companyId, path.join(FIXTURES, F.ubs), missing], io)).toBe(2);
    expect(io.stderr).toBe(`import-camt053: cannot read file ${missing} (ENOENT)\n`);
    expect(await tableCounts()).toEqual(before);
  });

  it("a malformed file fails the whole run with exit code 1 and the element path", async () => {
    const { companyId } = await newTenant();
    const bad = path.join(dir, "bad.xml");
    writeFileSync(bad, fixture(F.nordea).replace("<CdtDbtInd>DBIT</CdtDbtInd>", "<CdtDbtInd>D</CdtDbtInd>"));
    const before = await tableCounts();
    const io = capture();
    expect(await runImportCli(database.db, ["--company", companyId, path.join(FIXTURES, F.ubs), bad], io)).toBe(1);
    expect(io.stderr).toMatch(/^import-camt053: bad\.xml: Document\/BkToCstmrStmt\/Stmt\[0\]\/Ntry\[2\]\/CdtDbtInd must be CRDT or DBIT, got "D"\nNothing was imported\.\n$/);
    expect(await tableCounts()).toEqual(before);
  });

  it("an unknown company exits 1", async () => {
    const io = capture();
    expect(await runImportCli(database.db, ["--company", newId(), path.join(FIXTURES, F.ubs)], io)).toBe(1);
    expect(io.stderr).toMatch(/Company [0-9a-f-]{36} was not found/);
  });
});
