/**
 * Tests of the camt.053 parser, importer and import CLI on
 * statements this repository writes: the demo-like files of
 * test/camt053-demo.ts (camt.053.001.02 and .08, built by
 * test/camt053-builder.ts), small hand-written documents for the versions
 * 001.02–001.08 and variants, and malformed files. The published bank samples
 * are an extra suite in camt053-bank-samples.test.ts.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Decimal } from "decimal.js";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../db/client";
import { accounts, balanceSnapshots, coverageDays, transactions, webhookEvents } from "../db/schema";
import { ApiError } from "../lib/errors";
import { newId } from "../lib/secrets";
import { toTransaction } from "../db/repos/ledger";
import { buildCamt053, type CamtBalance, type CamtEntry, type CamtStatement } from "../test/camt053-builder";
import { DAY, DNB_FILE, IBANS, NORDEA_FILE, TAX_ACCOUNT } from "../test/camt053-demo";
import {
  flowMismatches,
  newTenant as newTenantIn,
  rejection,
  rowsOf,
  tableCounts as tableCountsIn,
  captureCliOutput,
  importTableRows,
  companyBalances,
} from "../test/import-db";
import { importCamt053 } from "./camt053-import";
import { runImportCli } from "./cli";
import { CamtImportError, parseCamt053, type ParsedEntry, type ParsedStatement } from "./camt053-parse";

function entriesOf(stmts: ParsedStatement[]): ParsedEntry[] {
  return stmts.flatMap((s) => s.entries);
}

/** The sum of the booked (BOOK) entries in one direction, as a fixed-2 string. */
function bookedSum(entries: ParsedEntry[], direction: "credit" | "debit"): string {
  return entries
    .filter((e) => e.direction === direction && e.status === "BOOK")
    .reduce((acc, e) => acc.plus(e.amount), new Decimal(0))
    .toFixed(2);
}

/** A minimal camt.053 document; `entry` replaces the one Ntry, `root` the root element name. */
function makeCamt(
  opts: { version?: string; entry?: string; root?: string; acctId?: string; bal?: string } = {},
): string {
  const version = opts.version ?? "02";
  const root = opts.root ?? "BkToCstmrStmt";
  const entry =
    opts.entry ??
    `<Ntry><Amt Ccy="NOK">1250.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts>` +
      `<BookgDt><Dt>2026-01-10</Dt></BookgDt><ValDt><Dt>2026-01-11</Dt></ValDt><AcctSvcrRef>REF-1</AcctSvcrRef>
      <NtryDtls><TxDtls><Refs><EndToEndId>E2E-1</EndToEndId></Refs><RltdPties><Dbtr><Nm>Kunde ` +
      `AS</Nm></Dbtr></RltdPties><RmtInf><Ustrd>Faktura 42</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>`;
  const bal =
    opts.bal ??
    `<Bal><Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp><Amt ` +
      `Ccy="NOK">5000.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2026-01-10</Dt></Dt></Bal>`;
  return (
    `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.${version}"><${root}>
  <GrpHdr><MsgId>M1</MsgId><CreDtTm>2026-01-10T20:00:00+01:00</CreDtTm></GrpHdr>
  <Stmt><Id>S-${version}</Id><CreDtTm>2026-01-10T20:00:00+01:00</CreDtTm>
    <Acct><Id>${opts.acctId ?? "<IBAN>NO9386011117947</IBAN>"}</Id><Ccy>NOK</Ccy>` +
    `<Svcr><FinInstnId><BICFI>DNBANOKK</BICFI></FinInstnId></Svcr></Acct>
    ${bal}
    ${entry}
  </Stmt>
</${root}></Document>`
  );
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

describe("parseCamt053: the demo statement files", () => {
  it("both files are read as their version, statement by statement, entry by entry", () => {
    const dnb = parseCamt053(DNB_FILE.content, DNB_FILE.name);
    const nordea = parseCamt053(NORDEA_FILE.content, NORDEA_FILE.name);
    expect(dnb.map((s) => [s.version, s.id, s.index, s.fileName, s.entries.length])).toEqual([
      ["camt.053.001.02", "DNB-OP-20260112", 0, DNB_FILE.name, 10],
      ["camt.053.001.02", "DNB-TAX-20260112", 1, DNB_FILE.name, 1],
      ["camt.053.001.02", "DNB-EUR-20260112", 2, DNB_FILE.name, 0],
    ]);
    expect(nordea.map((s) => [s.version, s.id, s.entries.length])).toEqual([
      ["camt.053.001.08", "NDEA-SE-20260112", 7],
    ]);
    for (const e of entriesOf([...dnb, ...nordea])) {
      expect(e.amount).toMatch(/^\d+(\.\d+)?$/);
      expect(e.booked?.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(e.booked?.at).toMatch(/(Z|[+-]\d{2}:\d{2})$/);
    }
  });

  it(
    "DNB operating account (001.02): IBAN and BIC, opening + booked entries = closing, DBIT opening is " + "negative",
    () => {
      const [stmt] = parseCamt053(DNB_FILE.content, DNB_FILE.name);
      expect(stmt?.account).toEqual({
        ref: IBANS.dnbOperating,
        refType: "IBAN",
        currency: "NOK",
        servicerBic: "DNBANOKK",
        servicerName: null,
        name: "Nordlys Energi AS driftskonto",
      });
      expect(stmt?.period).toBeNull();
      expect(stmt?.balances).toMatchObject([
        { code: "OPBD", amount: "-1500.00", currency: "NOK", date: DAY },
        { code: "CLBD", amount: "27937.00", currency: "NOK", date: DAY },
        { code: "CLAV", amount: "27937.00", currency: "NOK", date: DAY },
        { code: "FWAV", amount: "27937.00", currency: "NOK", date: "2026-01-13" },
        { code: "FWAV", amount: "27937.00", currency: "NOK", date: "2026-01-14" },
      ]);
      const e = stmt?.entries ?? [];
      expect([bookedSum(e, "credit"), bookedSum(e, "debit")]).toEqual(["140512.50", "111075.50"]);
      expect(new Decimal("-1500.00").plus(bookedSum(e, "credit")).minus(bookedSum(e, "debit")).toFixed(2)).toBe(
        "27937.00",
      );
    },
  );

  it("DNB entries: single payments, batches, AddtlNtryInf, NOTPROVIDED, whitespace, amounts as written", () => {
    const e = parseCamt053(DNB_FILE.content, DNB_FILE.name)[0]?.entries ?? [];
    // Ustrd spread over two lines becomes one line; the debtor is the other side of a credit.
    expect(e[0]).toEqual({
      index: 0,
      amount: "125000.00",
      currency: "NOK",
      direction: "credit",
      status: "BOOK",
      pending: false,
      booked: { date: DAY, at: `${DAY}T00:00:00Z`, dateOnly: true },
      value: { date: "2026-01-13", at: "2026-01-13T00:00:00Z", dateOnly: true },
      accountServicerRef: "DNB2026011200001",
      entryRef: "1",
      counterpartyName: "Kunde Bergen AS",
      remittance: "Faktura 1042 januar",
      endToEndId: "NORDLYS-INV-1042",
      txCount: 1,
      additionalInfo: null,
    });
    // The creditor of a debit; a structured reference (KID) as remittance; NOTPROVIDED is no end-to-end id.
    expect(e[1]).toMatchObject({
      direction: "debit",
      counterpartyName: "Fjordkraft AS",
      remittance: "2345678901234",
      endToEndId: null,
    });
    // Batches stay one entry: three salaries to three people have no single counterparty.
    expect(DNB_FILE.content.match(/<TxDtls>/g)).toHaveLength(11);
    expect(e[2]).toMatchObject({
      amount: "98000.00",
      direction: "debit",
      txCount: 3,
      counterpartyName: "",
      remittance: "Batch of 3: Lønn januar 2026",
      endToEndId: null,
    });
    expect(e[3]).toMatchObject({
      amount: "3000.00",
      direction: "credit",
      txCount: 2,
      counterpartyName: "Vipps MobilePay AS",
      remittance: "Batch of 2",
      endToEndId: null,
    });
    // An entry without details takes its AddtlNtryInf (whitespace collapsed) as remittance.
    expect(e[4]).toMatchObject({
      txCount: 1,
      counterpartyName: "",
      remittance: "Gebyr januar",
      additionalInfo: "Gebyr januar",
      accountServicerRef: "DNB-FEE-0112",
    });
    expect(e[5]).toMatchObject({ amount: e[4]?.amount, accountServicerRef: "DNB-FEE-0112" });
    expect(e[7]).toMatchObject({ status: "PDNG", amount: "4000.00" });
    // Amounts are kept exactly as written.
    expect(e[8]?.amount).toBe("075.50");
    expect(e[9]).toMatchObject({ amount: "12.500", remittance: "Renter", accountServicerRef: null, entryRef: "10" });
  });

  it(
    "a reversal (RvslInd) is an entry in the direction the bank booked it, with its own counterparty and " +
      "references",
    () => {
      const e = parseCamt053(DNB_FILE.content, DNB_FILE.name)[0]?.entries ?? [];
      expect(DNB_FILE.content.match(/<RvslInd>true<\/RvslInd>/g)).toHaveLength(1);
      expect(e[6]).toMatchObject({
        amount: "12500.00",
        direction: "credit",
        status: "BOOK",
        accountServicerRef: "DNB2026011200002",
        counterpartyName: "Fjordkraft AS",
        remittance: "Retur: konto lukket",
        endToEndId: "NORDLYS-PAY-0007",
      });
      const [nordea] = parseCamt053(NORDEA_FILE.content, NORDEA_FILE.name);
      expect(nordea?.entries[4]).toMatchObject({
        amount: "500.00",
        direction: "debit",
        counterpartyName: "Kund Göteborg AB",
        endToEndId: "SE-INV-2188",
      });
    },
  );

  it(
    "DNB tax account: Othr id, servicer name without BIC, DtTm booking, DBIT closing, a period [D 00:00, D+1 " +
      "00:00) is day D",
    () => {
      const [, stmt] = parseCamt053(DNB_FILE.content, DNB_FILE.name);
      expect(stmt?.account).toMatchObject({
        ref: TAX_ACCOUNT,
        refType: "OTHER",
        currency: "NOK",
        servicerBic: null,
        servicerName: "DNB Bank ASA",
      });
      expect(stmt?.period).toEqual({ from: DAY, to: DAY });
      expect(stmt?.balances).toMatchObject([{ code: "CLBD", amount: "-7.00", currency: "NOK", date: DAY }]);
      // DtTm: the instant as given, the date its local date part; without ValDt the value date is the booking date.
      expect(stmt?.entries[0]).toMatchObject({
        booked: { date: DAY, at: `${DAY}T08:15:00+01:00`, dateOnly: false },
        value: { date: DAY, at: `${DAY}T08:15:00+01:00` },
      });
      expect(stmt?.entries[0]).toMatchObject({
        direction: "debit",
        counterpartyName: "Skatteetaten",
        remittance: "Forskuddstrekk",
        endToEndId: null,
        accountServicerRef: null,
      });
    },
  );

  it("DNB EUR account: a statement without entries, over a weekend, without servicer", () => {
    const [, , stmt] = parseCamt053(DNB_FILE.content, DNB_FILE.name);
    expect(stmt?.entries).toEqual([]);
    expect(stmt?.period).toEqual({ from: "2026-01-10", to: DAY });
    expect(stmt?.account).toMatchObject({ ref: IBANS.dnbEur, currency: "EUR", servicerBic: null, servicerName: null });
  });

  it("Nordea (001.08): BICFI, no Acct/Ccy, FrToDt without offset, Pty/Nm, Sts/Cd, Strd, Btch, foreign currency", () => {
    const [stmt] = parseCamt053(NORDEA_FILE.content, NORDEA_FILE.name);
    expect(NORDEA_FILE.content).not.toContain("<Ccy>");
    expect(stmt?.account).toMatchObject({
      ref: IBANS.nordeaSe,
      refType: "IBAN",
      currency: "SEK",
      servicerBic: "NDEASESS",
      servicerName: "Nordea Bank Abp, filial i Sverige",
    });
    expect(stmt?.period).toEqual({ from: DAY, to: DAY });
    expect(stmt?.balances.map((b) => b.code)).toEqual(["PRCD", "OPAV", "ITBD", "ITAV", "CLBD", "CLAV", "INFO", "XPCD"]);
    expect(
      stmt?.entries.map((x) => [
        x.amount,
        x.currency,
        x.direction,
        x.status,
        x.counterpartyName,
        x.remittance,
        x.endToEndId,
        x.txCount,
      ]),
    ).toEqual([
      ["45000.5", "SEK", "credit", "BOOK", "Kund Stockholm AB", "RF18539007547034", "SE-INV-2201", 1],
      ["1200.00", "EUR", "debit", "BOOK", "Lufthansa AG", "Flight LH 4711", "NORDLYS-TRV-0042", 1],
      ["30000.00", "SEK", "debit", "BOOK", "", "Batch of 12: Leverantörsbetalningar", null, 12],
      ["8400.00", "SEK", "debit", "BOOK", "Skatteverket", "Batch of 2", null, 2],
      ["500.00", "SEK", "debit", "BOOK", "Kund Göteborg AB", "Återbetalning", "SE-INV-2188", 1],
      ["15000.00", "SEK", "credit", "PDNG", "Kund Malmö AB", "", null, 1],
      ["99.00", "SEK", "debit", "INFO", "", "Kommande kortavgift", null, 1],
    ]);
    expect(stmt?.entries[1]?.value.date).toBe("2026-01-14");
    const sek = stmt?.entries.filter((x) => x.currency === "SEK") ?? [];
    expect(new Decimal("80000.00").plus(bookedSum(sek, "credit")).minus(bookedSum(sek, "debit")).toFixed(2)).toBe(
      stmt?.balances.find((b) => b.code === "CLBD")?.amount,
    );
  });

  it("the builder escapes text: names with & < > and quotes come back as written", () => {
    const name = `Smith & Sønner <"AS"> 'Øst'`;
    const statement = (entries: CamtEntry[], balances: CamtBalance[]): CamtStatement => ({
      id: "S-1",
      createdAt: `${DAY}T20:00:00Z`,
      account: { iban: IBANS.nordeaSe },
      balances,
      entries,
    });
    const closing: CamtBalance = { code: "CLBD", amount: "1.00", currency: "SEK", date: DAY };
    const entry: CamtEntry = {
      amount: "1.00",
      currency: "SEK",
      direction: "credit",
      booked: DAY,
      txs: [{ counterparty: name, remittance: ["a < b & c"] }],
    };
    for (const version of ["02", "08"] as const) {
      const xml = buildCamt053({
        version,
        messageId: "M-1",
        createdAt: `${DAY}T20:00:00Z`,
        statements: [statement([entry], [closing])],
      });
      expect(xml).toContain("Smith &amp; Sønner &lt;");
      expect(parseCamt053(xml, "escaped.xml")[0]?.entries[0]).toMatchObject({
        counterpartyName: name,
        remittance: "a < b & c",
      });
    }
    expect(() =>
      buildCamt053({
        version: "02",
        messageId: "M-1",
        createdAt: `${DAY}T20:00:00Z`,
        statements: [statement([entry], [])],
      }),
    ).toThrow(/at least one balance/);
    // A bank may write any character as a character reference: it is the character, decimal or hexadecimal.
    const xml = buildCamt053({
      version: "08",
      messageId: "M-1",
      createdAt: `${DAY}T20:00:00Z`,
      statements: [statement([{ ...entry, txs: [{ counterparty: "CHARREF", remittance: ["x"] }] }], [closing])],
    }).replace("CHARREF", "Bl&#229;b&#xE6;r &#38; S&#248;nner");
    expect(parseCamt053(xml, "charref.xml")[0]?.entries[0]?.counterpartyName).toBe("Blåbær & Sønner");
  });
});

describe("parseCamt053: versions and variants", () => {
  for (const version of ["02", "03", "04", "05", "06", "07", "08"]) {
    it(`reads camt.053.001.${version}`, () => {
      const [stmt] = parseCamt053(makeCamt({ version }), "v.xml");
      expect(stmt?.version).toBe(`camt.053.001.${version}`);
      expect(stmt?.entries[0]).toMatchObject({
        amount: "1250.00",
        currency: "NOK",
        direction: "credit",
        counterpartyName: "Kunde AS",
        remittance: "Faktura 42",
        endToEndId: "E2E-1",
      });
      expect(stmt?.entries[0]?.value).toEqual({ date: "2026-01-11", at: "2026-01-11T00:00:00Z", dateOnly: true });
    });
  }

  it("a DBIT balance is negative; a namespace prefix is accepted; ValDt falls back to the booking date", () => {
    const xml = makeCamt({
      bal:
        `<Bal><Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp><Amt ` +
        `Ccy="NOK">12.50</Amt><CdtDbtInd>DBIT</CdtDbtInd><Dt><DtTm>2026-01-10T23:59:00+01:00</DtTm></Dt></Bal>`,
      entry:
        `<Ntry><Amt Ccy="NOK">3</Amt><CdtDbtInd>DBIT</CdtDbtInd>` +
        `<BookgDt><DtTm>2026-01-10T08:15:00+01:00</DtTm></BookgDt></Ntry>`,
    })
      .replace(/<(\/?)([A-Za-z])/g, "<$1ns2:$2")
      .replace('xmlns="', 'xmlns:ns2="')
      .replace("<ns2:?xml", "<?xml");
    const [stmt] = parseCamt053(xml, "prefixed.xml");
    expect(stmt?.balances).toMatchObject([{ code: "CLBD", amount: "-12.50", currency: "NOK", date: "2026-01-10" }]);
    expect(stmt?.entries[0]).toMatchObject({
      amount: "3",
      direction: "debit",
      booked: { date: "2026-01-10", at: "2026-01-10T08:15:00+01:00" },
      value: { date: "2026-01-10" },
    });
  });
});

describe("parseCamt053: malformed input", () => {
  const ntry = (inner: string) => `<Ntry>${inner}</Ntry>`;
  const cases: [string, string, RegExp][] = [
    ["truncated XML", makeCamt().slice(0, 600), /^bad\.xml: is not well-formed XML \(line \d+, column \d+/],
    ["not XML at all", "IBAN;amount\nNO93;100", /^bad\.xml: is not well-formed XML/],
    [
      "wrong root (pain.001)",
      makeCamt({ root: "CstmrCdtTrfInitn" }),
      new RegExp(
        String.raw`^bad\.xml: Document\/BkToCstmrStmt is missing: not a camt\.052, camt\.053 or camt\.054 message ` +
          String.raw`\(root is Document\/CstmrCdtTrfInitn\)$`,
      ),
    ],
    [
      "camt.052 root in a camt.053 namespace",
      makeCamt({ root: "BkToCstmrAcctRpt" }),
      /^bad\.xml: Document\/@xmlns is the namespace of camt\.053 but the message is camt\.052/,
    ],
    [
      "unsupported version",
      makeCamt({ version: "13" }),
      /^bad\.xml: Document\/@xmlns has version camt\.053\.001\.13; supported are 001\.02 to 001\.12$/,
    ],
    [
      "missing Amt",
      makeCamt({ entry: ntry(`<CdtDbtInd>CRDT</CdtDbtInd><BookgDt><Dt>2026-01-10</Dt></BookgDt>`) }),
      /^bad\.xml: Document\/BkToCstmrStmt\/Stmt\[0\]\/Ntry\[0\]\/Amt is missing$/,
    ],
    [
      "bad CdtDbtInd",
      makeCamt({
        entry: ntry(`<Amt Ccy="NOK">1.00</Amt><CdtDbtInd>CREDIT</CdtDbtInd><BookgDt><Dt>2026-01-10</Dt></BookgDt>`),
      }),
      /^bad\.xml: Document\/BkToCstmrStmt\/Stmt\[0\]\/Ntry\[0\]\/CdtDbtInd must be CRDT or DBIT, got "CREDIT"$/,
    ],
    [
      "bad date",
      makeCamt({
        entry: ntry(`<Amt Ccy="NOK">1.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><BookgDt><Dt>2026-02-30</Dt></BookgDt>`),
      }),
      /^bad\.xml: Document\/BkToCstmrStmt\/Stmt\[0\]\/Ntry\[0\]\/BookgDt\/Dt is not a valid date: "2026-02-30"$/,
    ],
    [
      "bad date-time",
      makeCamt({
        entry: ntry(
          `<Amt Ccy="NOK">1.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><BookgDt><DtTm>10.01.2026 08:00</DtTm></BookgDt>`,
        ),
      }),
      /Ntry\[0\]\/BookgDt\/DtTm is not a valid date-time: "10\.01\.2026 08:00"$/,
    ],
    [
      "float-looking amount",
      makeCamt({
        entry: ntry(`<Amt Ccy="NOK">1,5</Amt><CdtDbtInd>CRDT</CdtDbtInd><BookgDt><Dt>2026-01-10</Dt></BookgDt>`),
      }),
      /Ntry\[0\]\/Amt is not a decimal amount: "1,5"$/,
    ],
    [
      "Amt without Ccy",
      makeCamt({ entry: ntry(`<Amt>1.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><BookgDt><Dt>2026-01-10</Dt></BookgDt>`) }),
      /Ntry\[0\]\/Amt\/@Ccy is missing$/,
    ],
    [
      "no booking, value or statement date",
      makeCamt({ entry: ntry(`<Amt Ccy="NOK">1.00</Amt><CdtDbtInd>CRDT</CdtDbtInd>`) }).replace(
        /<CreDtTm>[^<]*<\/CreDtTm>/g,
        "",
      ),
      /Ntry\[0\]\/BookgDt is missing, and neither ValDt nor the statement's FrToDt or CreDtTm gives a date$/,
    ],
    [
      "bad balance indicator",
      makeCamt({
        bal:
          `<Bal><Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp><Amt ` +
          `Ccy="NOK">1.00</Amt><CdtDbtInd>X</CdtDbtInd><Dt><Dt>2026-01-10</Dt></Dt></Bal>`,
      }),
      /Stmt\[0\]\/Bal\[0\]\/CdtDbtInd must be CRDT or DBIT, got "X"$/,
    ],
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
    const xml = good.replace(
      "</Stmt>",
      `${ntry(`<Amt Ccy="NOK">1</Amt><CdtDbtInd>CRDT</CdtDbtInd><BookgDt><Dt>2026-01-10</Dt></BookgDt>`).repeat(2)}` +
        `<Ntry><CdtDbtInd>CRDT</CdtDbtInd></Ntry></Stmt>`,
    );
    expect(camtError(() => parseCamt053(xml, "statement.xml")).message).toBe(
      "statement.xml: Document/BkToCstmrStmt/Stmt[0]/Ntry[3]/Amt is missing",
    );
  });

  it("reports problems in document order although entries are read while the file streams", () => {
    // A bad entry after a statement without an account: the account is named, as when the whole tree was read first.
    const badEntry = `<Ntry><Amt Ccy="NOK">1,5</Amt><CdtDbtInd>CRDT</CdtDbtInd></Ntry>`;
    const noAcct = makeCamt({ entry: badEntry }).replace(/<Acct>.*?<\/Acct>/s, "");
    expect(camtError(() => parseCamt053(noAcct, "bad.xml")).elementPath).toBe("Document/BkToCstmrStmt/Stmt[0]/Acct");
    // A truncated file whose entries were fine so far is not well-formed, whatever an entry said.
    const truncated = makeCamt({ entry: badEntry + badEntry.repeat(3) });
    expect(camtError(() => parseCamt053(truncated.slice(0, -30), "bad.xml")).message).toMatch(/is not well-formed XML/);
    // The first bad entry of two is named.
    const twoBad = makeCamt({ entry: `${ntry("<CdtDbtInd>CRDT</CdtDbtInd>")}${badEntry}` });
    expect(camtError(() => parseCamt053(twoBad, "bad.xml")).elementPath).toBe(
      "Document/BkToCstmrStmt/Stmt[0]/Ntry[0]/Amt",
    );
    // An entry without dates takes the statement's day even when FrToDt comes after the entries.
    const late = makeCamt({
      entry: `<Ntry><Amt Ccy="NOK">5.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts>PDNG</Sts></Ntry>`,
    })
      .replace(/<CreDtTm>2026-01-10T20:00:00\+01:00<\/CreDtTm>\s*<Acct>/, "<Acct>")
      .replace(
        "</Ntry>",
        "</Ntry><FrToDt><FrDtTm>2026-01-09T00:00:00</FrDtTm><ToDtTm>2026-01-09T23:59:59</ToDtTm></FrToDt>",
      );
    const [stmt] = parseCamt053(late, "late.xml");
    expect(stmt?.entries[0]?.value).toEqual({ date: "2026-01-09", at: "2026-01-09T00:00:00Z", dateOnly: true });
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

const newTenant = () => newTenantIn(database);
const tableCounts = () => tableCountsIn(database);

describe("importCamt053", () => {
  it("imports both demo files in one call: accounts, transactions, balances, coverage, events", async () => {
    const { tenantId, companyId } = await newTenant();
    const summary = await importCamt053(database.db, { companyId, files: [DNB_FILE, NORDEA_FILE] });
    expect(summary).toEqual({
      companyId,
      files: [
        {
          file: DNB_FILE.name,
          messageType: "camt.053",
          version: "camt.053.001.02",
          format: "camt.053.001.02",
          statementFigures: expect.any(Array),
          statements: 3,
          entries: 11,
          pending: 1,
          pendingReplaced: 0,
          entriesSkipped: 0,
          intradayPoints: 0,
          accountRefs: [IBANS.dnbOperating, TAX_ACCOUNT, IBANS.dnbEur],
          accountsMatched: 0,
          accountsCreated: 3,
          // 10 entries in the operating statement, one of them pending, plus the tax account's one.
          transactionsInserted: 10,
          duplicatesSkipped: 0,
          entriesNotBooked: 1,
          // Operating: CLBD, CLAV, the OPBD as the 11th's closing; tax: CLBD; EUR: CLBD and the OPBD of the 9th.
          balancesUpserted: 6,
          // Operating: the 12th (entries and closing); tax: its one-day period; EUR: its three-day period.
          coverageDays: 5,
          skippedBalanceCodes: { FWAV: 2 },
        },
        {
          file: NORDEA_FILE.name,
          messageType: "camt.053",
          version: "camt.053.001.08",
          format: "camt.053.001.08",
          statementFigures: expect.any(Array),
          statements: 1,
          entries: 7,
          pending: 1,
          pendingReplaced: 0,
          entriesSkipped: 1,
          intradayPoints: 0,
          accountRefs: [IBANS.nordeaSe],
          accountsMatched: 0,
          accountsCreated: 1,
          transactionsInserted: 5,
          duplicatesSkipped: 0,
          entriesNotBooked: 2,
          balancesUpserted: 5,
          coverageDays: 1,
          skippedBalanceCodes: { OPAV: 1, INFO: 1, XPCD: 1 },
        },
      ],
    });

    const accs = await database.db.select().from(accounts).where(eq(accounts.companyId, companyId));
    expect(accs).toHaveLength(4);
    const byRef = new Map(accs.map((a) => [a.externalRef, a]));
    const last4 = (ref: string) => ref.slice(-4);
    // The bank's name from the BIC when known (over the servicer's own name), else the servicer's name, else "Unknown
    // bank".
    expect(byRef.get(IBANS.dnbOperating)).toMatchObject({
      tenantId,
      bankId: "DNBANOKK",
      bankName: "DNB",
      name: `DNB NOK ****${last4(IBANS.dnbOperating)}`,
      currency: "NOK",
      status: "active",
      externalRefType: "IBAN",
    });
    expect(byRef.get(IBANS.nordeaSe)).toMatchObject({
      bankId: "NDEASESS",
      bankName: "Nordea",
      name: `Nordea SEK ****${last4(IBANS.nordeaSe)}`,
      currency: "SEK",
      externalRefType: "IBAN",
    });
    expect(byRef.get(TAX_ACCOUNT)).toMatchObject({
      bankId: "UNKNOWN",
      bankName: "DNB Bank ASA",
      name: "DNB Bank ASA NOK ****2345",
      currency: "NOK",
      externalRefType: "OTHER",
    });
    expect(byRef.get(IBANS.dnbEur)).toMatchObject({
      bankId: "UNKNOWN",
      bankName: "Unknown bank",
      currency: "EUR",
      externalRefType: "IBAN",
    });
    const accountOf = (ref: string) => byRef.get(ref)?.id;

    const txs = await database.db.select().from(transactions).where(eq(transactions.companyId, companyId));
    expect(txs).toHaveLength(15);
    expect(txs.every((t) => t.source === "camt.053" && t.tenantId === tenantId && t.dedupeKey !== null)).toBe(true);
    // Pending and informational entries are not booked, so not stored.
    expect(txs.filter((t) => ["4000.00", "15000.00", "99.00"].includes(t.amount))).toEqual([]);
    const operating = txs.filter((t) => t.accountId === accountOf(IBANS.dnbOperating));
    // numeric keeps the file's scale; "075.50" loses only its leading zeros.
    expect(operating.map((t) => t.amount).sort()).toEqual(
      ["125000.00", "12500.00", "98000.00", "3000.00", "250.00", "250.00", "12500.00", "75.50", "12.500"].sort(),
    );
    expect(operating.find((t) => t.endToEndId === "NORDLYS-INV-1042")).toMatchObject({
      direction: "credit",
      bookedDate: DAY,
      valueDate: "2026-01-13",
      counterpartyName: "Kunde Bergen AS",
      remittance: "Faktura 1042 januar",
    });
    // The fee booked twice under one reference is two transactions; an entry without reference gets a content key.
    expect(
      operating
        .filter((t) => t.dedupeKey?.startsWith("asr:DNB-FEE-0112|"))
        .map((t) => t.dedupeKey)
        .sort(),
    ).toEqual([`asr:DNB-FEE-0112|debit|250|${DAY}#0`, `asr:DNB-FEE-0112|debit|250|${DAY}#1`]);
    expect(operating.find((t) => t.amount === "12.500")?.dedupeKey).toMatch(/^sha256:[0-9a-f]{64}$/);
    const tax = txs.find((t) => t.accountId === accountOf(TAX_ACCOUNT));
    expect(tax).toMatchObject({ amount: "7.00", direction: "debit", bookedDate: DAY, valueDate: DAY });
    expect(new Date(tax?.bookedAt ?? "").toISOString()).toBe("2026-01-12T07:15:00.000Z");
    expect(txs.find((t) => t.currency === "EUR")).toMatchObject({
      accountId: accountOf(IBANS.nordeaSe),
      amount: "1200.00",
      direction: "debit",
      valueDate: "2026-01-14",
    });

    // Exact sums per account, currency and direction, in SQL numeric.
    const sums = rowsOf<{ external_ref: string; currency: string; direction: string; n: number; total: string }>(
      await database.db
        .execute(sql`select a.external_ref, t.currency, t.direction, count(*)::int as n, sum(t.amount)::text as total
        from transactions t join accounts a on a.id = t.account_id where t.company_id = ${companyId}
        group by 1, 2, 3`),
    );
    expect(sums.map((r) => `${r.external_ref} ${r.currency} ${r.direction} ${r.n} ${r.total}`).sort()).toEqual(
      [
        `${IBANS.dnbOperating} NOK credit 4 140512.500`,
        `${IBANS.dnbOperating} NOK debit 5 111075.50`,
        `${TAX_ACCOUNT} NOK debit 1 7.00`,
        `${IBANS.nordeaSe} SEK credit 1 45000.5`,
        `${IBANS.nordeaSe} SEK debit 3 38900.00`,
        `${IBANS.nordeaSe} EUR debit 1 1200.00`,
      ].sort(),
    );

    const { rows: bals, of: balancesOf } = await companyBalances(database, companyId, accountOf);
    // OPBD dated the statement day is the previous day's closing; DBIT balances are negative.
    expect(balancesOf(IBANS.dnbOperating)).toEqual([
      `closing_available ${DAY} 27937.00`,
      "closing_booked 2026-01-11 -1500.00",
      `closing_booked ${DAY} 27937.00`,
    ]);
    expect(balancesOf(TAX_ACCOUNT)).toEqual([`closing_booked ${DAY} -7.00`]);
    // OPBD dated before the statement's first day is that day's closing.
    expect(balancesOf(IBANS.dnbEur)).toEqual(["closing_booked 2026-01-09 50000.00", `closing_booked ${DAY} 50000.00`]);
    // PRCD likewise; ITBD / ITAV are the interim balances; OPAV, INFO and XPCD map to nothing.
    expect(balancesOf(IBANS.nordeaSe)).toEqual([
      `closing_available ${DAY} 85100.50`,
      "closing_booked 2026-01-11 80000.00",
      `closing_booked ${DAY} 86100.50`,
      `interim_available ${DAY} 124000.50`,
      `interim_booked ${DAY} 125000.50`,
    ]);
    expect(bals.every((b) => b.source === "camt.053")).toBe(true);

    const cov = await database.db.select().from(coverageDays).where(eq(coverageDays.companyId, companyId));
    expect(cov.every((c) => c.source === "camt.053" && c.completeness === "complete")).toBe(true);
    const coverageOf = (ref: string) =>
      cov
        .filter((c) => c.accountId === accountOf(ref))
        .map((c) => c.date)
        .sort();
    expect(coverageOf(IBANS.dnbOperating)).toEqual([DAY]);
    expect(coverageOf(TAX_ACCOUNT)).toEqual([DAY]);
    expect(coverageOf(IBANS.dnbEur)).toEqual(["2026-01-10", "2026-01-11", DAY]);
    expect(coverageOf(IBANS.nordeaSe)).toEqual([DAY]);

    // One transaction.created event per transaction, carrying the API's Transaction.
    const events = await database.db
      .select()
      .from(webhookEvents)
      .where(and(eq(webhookEvents.companyId, companyId), eq(webhookEvents.type, "transaction.created")));
    expect(events).toHaveLength(15);
    const payloads = events.map((e) => e.payload as { type: string; data: Record<string, unknown> });
    expect(new Set(payloads.map((p) => p.data.id))).toEqual(new Set(txs.map((t) => t.id)));
    expect(payloads.find((p) => p.data.end_to_end_id === "NORDLYS-TRV-0042")?.data).toEqual({
      id: txs.find((t) => t.endToEndId === "NORDLYS-TRV-0042")?.id,
      account_id: accountOf(IBANS.nordeaSe),
      amount: "1200.00",
      currency: "EUR",
      direction: "debit",
      booked_at: `${DAY}T00:00:00.000Z`,
      value_at: "2026-01-14T00:00:00.000Z",
      counterparty_name: "Lufthansa AG",
      remittance: "Flight LH 4711",
      end_to_end_id: "NORDLYS-TRV-0042",
      booked_date: DAY,
      value_date: "2026-01-14",
    });
    // Amounts in the API's form: at least the currency's minor units, extra digits kept.
    expect(payloads.find((p) => p.data.end_to_end_id === "SE-INV-2201")?.data.amount).toBe("45000.50");
    expect(payloads.find((p) => p.data.remittance === "Renter")?.data.amount).toBe("12.50");
    expect(payloads.find((p) => p.data.remittance === "Porto")?.data.amount).toBe("75.50");
    expect(payloads.find((p) => p.data.remittance === "Forskuddstrekk")?.data.booked_at).toBe(
      "2026-01-12T07:15:00.000Z",
    );

    // The trigger-kept daily aggregate agrees with the transactions, row for row.
    expect(await flowMismatches(database, companyId)).toBe(0);
    const flowTotal = rowsOf<{ n: number }>(
      await database.db.execute(
        sql`select sum(tx_count)::int as n from account_day_flows where company_id = ${companyId}`,
      ),
    );
    expect(flowTotal[0]?.n).toBe(15);
  });

  it(
    "a reversal is stored as its own transaction in the booked direction, next to the payment it " + "reverses",
    async () => {
      const { companyId } = await newTenant();
      await importCamt053(database.db, { companyId, files: [DNB_FILE, NORDEA_FILE] });
      const txs = await database.db.select().from(transactions).where(eq(transactions.companyId, companyId));
      // Same reference, amount and day as the payment; the direction keeps the two apart, so neither is a duplicate.
      const sameRef = txs
        .filter((t) => t.dedupeKey?.startsWith("asr:DNB2026011200002|"))
        .map((t) => [t.direction, t.amount, t.counterpartyName, t.endToEndId, t.remittance]);
      expect(sameRef.sort()).toEqual([
        ["credit", "12500.00", "Fjordkraft AS", "NORDLYS-PAY-0007", "Retur: konto lukket"],
        ["debit", "12500.00", "Fjordkraft AS", null, "2345678901234"],
      ]);
      // A reversed customer payment is money going out: a debit, the customer as counterparty.
      expect(txs.find((t) => t.endToEndId === "SE-INV-2188")).toMatchObject({
        direction: "debit",
        amount: "500.00",
        counterpartyName: "Kund Göteborg AB",
      });
    },
  );

  it("importing the same file twice adds nothing; the closing derived from an opening is not rewritten", async () => {
    const { companyId } = await newTenant();
    await importCamt053(database.db, { companyId, files: [DNB_FILE] });
    const before = await tableCounts();
    const again = await importCamt053(database.db, { companyId, files: [DNB_FILE, { ...DNB_FILE, name: "copy.xml" }] });
    expect(
      again.files.map((f) => [
        f.accountsMatched,
        f.accountsCreated,
        f.transactionsInserted,
        f.duplicatesSkipped,
        f.entriesNotBooked,
        f.balancesUpserted,
      ]),
    ).toEqual([
      // 10 booked entries and the stored pending one are duplicates.
      [3, 0, 0, 11, 1, 4],
      [3, 0, 0, 11, 1, 4],
    ]);
    expect(await tableCounts()).toEqual(before);
    const n = await database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(transactions)
      .where(eq(transactions.companyId, companyId));
    expect(n[0]?.n).toBe(10);
  });

  it(
    "a later closing balance replaces the opening-derived one; DBIT balances are negative; pending entries are not " +
      "booked",
    async () => {
      const { companyId } = await newTenant();
      const day1 = makeCamt({
        bal:
          `<Bal><Tp><CdOrPrtry><Cd>OPBD</Cd></CdOrPrtry></Tp><Amt ` +
          `Ccy="NOK">10.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><Dt><Dt>2026-01-10</Dt></Dt></Bal>
            <Bal><Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp><Amt ` +
          `Ccy="NOK">1240.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2026-01-10</Dt></Dt></Bal>`,
      }).replace(
        "</Stmt>",
        `<Ntry><Amt Ccy="NOK">99.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts>PDNG</Sts>` +
          `<BookgDt><Dt>2026-01-10</Dt></BookgDt></Ntry></Stmt>`,
      );
      const res = await importCamt053(database.db, { companyId, files: [{ name: "day1.xml", content: day1 }] });
      expect(res.files[0]).toMatchObject({
        transactionsInserted: 1,
        entriesNotBooked: 1,
        balancesUpserted: 2,
        coverageDays: 1,
      });
      const real = makeCamt({
        bal:
          `<Bal><Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp><Amt ` +
          `Ccy="NOK">7.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><Dt><Dt>2026-01-09</Dt></Dt></Bal>`,
        entry: "",
      });
      await importCamt053(database.db, { companyId, files: [{ name: "day0.xml", content: real }] });
      // Re-importing day 1 must not put the opening balance back over the real closing of the 9th.
      await importCamt053(database.db, { companyId, files: [{ name: "day1.xml", content: day1 }] });
      const bals = await database.db.select().from(balanceSnapshots).where(eq(balanceSnapshots.companyId, companyId));
      expect(bals.map((b) => `${b.balanceType} ${b.asOfDate} ${b.balance}`).sort()).toEqual([
        "closing_booked 2026-01-09 -7.00",
        "closing_booked 2026-01-10 1240.00",
      ]);
    },
  );

  it("of two opening balances for the same previous day, the first one in the statement is kept", async () => {
    const { companyId } = await newTenant();
    const opening = (code: string, amount: string) =>
      `<Bal><Tp><CdOrPrtry><Cd>${code}</Cd></CdOrPrtry></Tp><Amt ` +
      `Ccy="NOK">${amount}</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2026-01-09</Dt></Dt></Bal>`;
    const xml = makeCamt({
      bal: `${opening("OPBD", "1.01")}${opening("PRCD", "2.02")}`,
      acctId: "<IBAN>NO8330001234567</IBAN>",
    });
    const res = await importCamt053(database.db, { companyId, files: [{ name: "two-openings.xml", content: xml }] });
    expect(res.files[0]?.balancesUpserted).toBe(1);
    const bals = await database.db.select().from(balanceSnapshots).where(eq(balanceSnapshots.companyId, companyId));
    expect(bals.map((b) => `${b.balanceType} ${b.asOfDate} ${b.balance}`)).toEqual(["closing_booked 2026-01-09 1.01"]);
  });

  it("a malformed file leaves the database unchanged, also as the second file of a batch", async () => {
    const { companyId } = await newTenant();
    const good = { name: "good.xml", content: makeCamt({ acctId: "<IBAN>NO8330001234567</IBAN>" }) };
    const malformed: [string, string, RegExp][] = [
      ["truncated.xml", NORDEA_FILE.content.slice(0, 3000), /^truncated\.xml: is not well-formed XML/],
      [
        "missing-amt.xml",
        DNB_FILE.content.replace('<Amt Ccy="NOK">12500.00</Amt>', ""),
        /^missing-amt\.xml: Document\/BkToCstmrStmt\/Stmt\[0\]\/Ntry\[1\]\/Amt is missing$/,
      ],
      [
        "wrong-root.xml",
        DNB_FILE.content.replace(/BkToCstmrStmt>/g, "BkToCstmrDbtCdtNtfctn>"),
        /^wrong-root\.xml: Document\/@xmlns is the namespace of camt\.053 but the message is camt\.054/,
      ],
      [
        "bad-ind.xml",
        DNB_FILE.content.replace(/(<Ntry>[\s\S]*?<CdtDbtInd>)CRDT/, "$1CRED"),
        /^bad-ind\.xml: Document\/BkToCstmrStmt\/Stmt\[0\]\/Ntry\[0\]\/CdtDbtInd must be CRDT or DBIT, got "CRED"$/,
      ],
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

  it("an account of another company of the tenant is refused like any refused account (no existence leak), and nothing is imported", async () => {
    const { tenantId, companyId, otherCompanyId } = await newTenant();
    await database.db.insert(accounts).values({
      id: newId(),
      tenantId,
      companyId: otherCompanyId,
      bankId: "NDEASESS",
      externalRef: IBANS.nordeaSe,
      name: "Other's account",
      currency: "SEK",
      bankName: "Nordea",
    });
    const before = await tableCounts();
    const err = await rejection(() => importCamt053(database.db, { companyId, files: [DNB_FILE, NORDEA_FILE] }));
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe("validation_error");
    expect(err.message).toBe(
      `${NORDEA_FILE.name}: Document/BkToCstmrStmt/Stmt[0]/Acct/Id names account ${IBANS.nordeaSe}, which cannot be ` +
        "imported for this company (it is not one of the company's accounts and cannot be added as one)",
    );
    expect(err.message).not.toMatch(/another company|belongs/);
    expect(await tableCounts()).toEqual(before);
  });

  it("the same IBAN in another tenant is a different account", async () => {
    const first = await newTenant();
    const second = await newTenant();
    await importCamt053(database.db, { companyId: first.companyId, files: [NORDEA_FILE] });
    const res = await importCamt053(database.db, { companyId: second.companyId, files: [NORDEA_FILE] });
    expect(res.files[0]).toMatchObject({ accountsCreated: 1, transactionsInserted: 5 });
  });

  it("each transaction.created event carries the stored transaction as the ledger returns it, whatever the digits", async () => {
    // The events are built by the database in the insert (docs/bank-files.md "Speed and memory"): amounts get the
    // currency's minor units and keep extra digits, exactly as toTransaction formats them.
    const { companyId } = await newTenant();
    const amounts: [string, string][] = [
      ["1500", "JPY"],
      ["12.5", "KWD"],
      ["8.855", "NOK"],
      ["3.100", "NOK"],
      ["100", "NOK"],
      ["7.5", "NOK"],
      ["0070.10", "NOK"],
    ];
    const xml = buildCamt053({
      version: "08",
      messageId: "DIGITS",
      createdAt: "2026-03-02T22:00:00+01:00",
      statements: [
        {
          id: "DIGITS-1",
          createdAt: "2026-03-02T22:00:00+01:00",
          account: { iban: "NO9386011117947", currency: "NOK" },
          balances: [{ code: "CLBD", amount: "1000.00", currency: "NOK", date: "2026-03-02" }],
          entries: amounts.map(([amount, currency], i) => ({
            amount,
            currency,
            direction: i % 2 === 0 ? "credit" : "debit",
            booked: "2026-03-02",
            value: "2026-03-03T10:15:00+01:00",
            servicerRef: `DIGITS-${i}`,
            txs: [{ endToEndId: i === 0 ? undefined : `E2E-D${i}`, counterparty: "Someone AS", remittance: ["Inv"] }],
          })),
        },
      ],
    });
    await importCamt053(database.db, { companyId, files: [{ name: "digits.xml", content: xml }] });
    const stored = await database.db.select().from(transactions).where(eq(transactions.companyId, companyId));
    const events = await database.db
      .select()
      .from(webhookEvents)
      .where(and(eq(webhookEvents.companyId, companyId), eq(webhookEvents.type, "transaction.created")));
    expect(stored).toHaveLength(amounts.length);
    expect(events).toHaveLength(amounts.length);
    const byId = new Map(stored.map((t) => [t.id, toTransaction(t)]));
    for (const e of events) {
      const payload = e.payload as { id: string; type: string; created_at: string; data: { id: string } };
      expect(payload.id).toBe(e.id);
      expect(payload.type).toBe("transaction.created");
      expect(new Date(payload.created_at).toISOString()).toBe(payload.created_at);
      expect(payload.data).toEqual(byId.get(payload.data.id));
    }
    expect(new Set(events.map((e) => e.id)).size).toBe(amounts.length);
    expect(events.map((e) => (e.payload as { data: { amount: string } }).data.amount).sort()).toEqual(
      ["1500", "12.500", "8.855", "3.10", "100.00", "7.50", "70.10"].sort(),
    );
  });

  it("an unknown company is not_found and writes nothing", async () => {
    const before = await tableCounts();
    const err = await rejection(() => importCamt053(database.db, { companyId: newId(), files: [NORDEA_FILE] }));
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe("not_found");
    expect(await tableCounts()).toEqual(before);
  });
});

// ---------------------------------------------------------------- CLI

describe("runImportCli", () => {
  let dir: string;
  let dnbPath: string;
  let nordeaPath: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), "camt-cli-"));
    dnbPath = path.join(dir, DNB_FILE.name);
    nordeaPath = path.join(dir, NORDEA_FILE.name);
    writeFileSync(dnbPath, DNB_FILE.content);
    writeFileSync(nordeaPath, NORDEA_FILE.content);
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it("imports the files and prints a table with a totals row", async () => {
    const { companyId } = await newTenant();
    const io = captureCliOutput();
    const code = await runImportCli(database.db, ["--company", companyId, dnbPath, nordeaPath], io);
    const rows = importTableRows(io, code, companyId);
    expect(rows[3]).toEqual([DNB_FILE.name, "3", "0", "3", "10", "0", "1", "6", "5", "FWAV×2"]);
    expect(rows[4]).toEqual([NORDEA_FILE.name, "1", "0", "1", "5", "0", "2", "5", "1", "OPAV INFO XPCD"]);
    expect(rows[6]).toEqual(["total", "4", "0", "4", "15", "0", "3", "11", "6", "FWAV×2 OPAV INFO XPCD"]);
    // Again with --company=ID: every booked entry is a duplicate now, and the closings
    // derived from the openings are not rewritten over the existing rows (4 balances, not 6).
    const again = captureCliOutput();
    expect(await runImportCli(database.db, [`--company=${companyId}`, dnbPath], again)).toBe(0);
    expect(again.stdout.split("\n")[3]?.split(/\s{2,}/)).toEqual([
      DNB_FILE.name,
      "3",
      "3",
      "0",
      "0",
      "11",
      "1",
      "4",
      "5",
      "FWAV×2",
    ]);
  });

  const usageCases: [string, string[], RegExp][] = [
    ["no --company", ["a.xml"], /missing argument --company COMPANY_ID/],
    ["--company without a value", ["--company"], /missing the company id after --company/],
    ["a company that is not a UUID", ["--company", "acme", "a.xml"], /--company must be a UUID, got "acme"/],
    ["no file", ["--company", "7d4b1c3e-4a8f-4c2e-9b1a-0f3e2d1c4b5a"], /missing argument FILE/],
    [
      "an unknown option",
      ["--company", "7d4b1c3e-4a8f-4c2e-9b1a-0f3e2d1c4b5a", "--frobnicate", "a.xml"],
      /unknown option --frobnicate/,
    ],
  ];
  for (const [what, args, message] of usageCases) {
    it(`usage error: ${what}`, async () => {
      const io = captureCliOutput();
      expect(await runImportCli(database.db, args, io)).toBe(2);
      expect(io.stderr).toMatch(message);
      expect(io.stderr).toContain("usage: import-statements --company COMPANY_ID FILE");
      expect(io.stdout).toBe("");
    });
  }

  it("--help and -h print the usage and exit 0", async () => {
    for (const flag of ["--help", "-h"]) {
      const io = captureCliOutput();
      expect(await runImportCli(database.db, [flag], io)).toBe(0);
      expect(io.stdout).toMatch(/^usage: import-statements --company COMPANY_ID FILE/);
      expect(io.stderr).toBe("");
    }
  });

  it("an unreadable file is named and nothing is imported", async () => {
    const { companyId } = await newTenant();
    const before = await tableCounts();
    const io = captureCliOutput();
    const missing = path.join(dir, "nope.xml");
    expect(await runImportCli(database.db, ["--company", companyId, nordeaPath, missing], io)).toBe(2);
    expect(io.stderr).toBe(`import-statements: cannot read file ${missing} (ENOENT)\n`);
    expect(await tableCounts()).toEqual(before);
  });

  it("a malformed file fails the whole run with exit code 1 and the element path", async () => {
    const { companyId } = await newTenant();
    const bad = path.join(dir, "bad.xml");
    writeFileSync(bad, NORDEA_FILE.content.replace("<CdtDbtInd>DBIT</CdtDbtInd>", "<CdtDbtInd>D</CdtDbtInd>"));
    const before = await tableCounts();
    const io = captureCliOutput();
    expect(await runImportCli(database.db, ["--company", companyId, nordeaPath, bad], io)).toBe(1);
    expect(io.stderr).toMatch(
      new RegExp(
        String.raw`^import-statements: bad\.xml: Document\/BkToCstmrStmt\/Stmt\[0\]\/Ntry\[1\]\/CdtDbtInd ` +
          String.raw`must be CRDT or DBIT, got "D"\nNothing was imported\.\n$`,
      ),
    );
    expect(await tableCounts()).toEqual(before);
  });

  it("an unknown company exits 1", async () => {
    const io = captureCliOutput();
    expect(await runImportCli(database.db, ["--company", newId(), nordeaPath], io)).toBe(1);
    expect(io.stderr).toMatch(/Company [0-9a-f-]{36} was not found/);
  });
});
