/**
 * Tests of the camt.053 parser and importer (issue 2 item 13) against every
 * bank statement fixture in shared/fixtures/statements (figures from its
 * SOURCES.md) and hand-made malformed files.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Decimal } from "decimal.js";
import { describe, expect, it } from "vitest";
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
