/**
 * pain.001 builder: exact control sums, transliteration and truncation notes,
 * deterministic ids, and documents of many shapes validated against the
 * official XSDs in ISO20022_XSD_DIR (read by treasury-api/test/xsd.ts) with
 * Debian's xmllint. Without the folder or xmllint the schema
 * suite is skipped with one printed reason.
 */
import { XMLParser } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { validateAgainstXsd, xsdFor, xsdSkipReason } from "@treasury/test-support/xsd";
import {
  buildPain001,
  controlSum,
  Pain001Error,
  toSepaLatin,
  type Pain001Instruction,
  type Pain001Version,
} from "./pain001";
import { PAIN001_BATCH as BATCH, PAIN001_DEBTOR as DEBTOR } from "@treasury/test-support/pain001-batch";

const schemas = { "pain.001.001.09": xsdFor("pain.001.001.09"), "pain.001.001.03": xsdFor("pain.001.001.03") };
const skipReason =
  xsdSkipReason() ??
  (schemas["pain.001.001.09"] && schemas["pain.001.001.03"]
    ? null
    : "the XSD folder lacks pain.001.001.03.xsd or pain.001.001.09.xsd");
if (skipReason) console.log(`pain.001 schema validation skipped: ${skipReason}`);

const AT = new Date("2026-11-23T08:15:30.000Z");

const IBANS = [
  "DE89370400440532013000",
  "NO9386011117947",
  "SE4550000000058398257466",
  "DK5000400440116243",
  "GB29NWBK60161331926819",
  "FR1420041010050500013M02606",
];
function instructions(n: number, over: Partial<Pain001Instruction> = {}): Pain001Instruction[] {
  return Array.from({ length: n }, (_, i) => ({
    amount: `${(i % 997) + 1}.${String(i % 100).padStart(2, "0")}`,
    creditor_name: `Supplier ${i}`,
    creditor_iban: IBANS[i % IBANS.length] ?? "DE89370400440532013000",
    end_to_end_id: `E2E-${i}`,
    ...over,
  }));
}

const parser = new XMLParser({ ignoreAttributes: false, parseTagValue: false });
type Doc = {
  Document: {
    CstmrCdtTrfInitn: { GrpHdr: Record<string, unknown>; PmtInf: Record<string, unknown> & { CdtTrfTxInf: unknown } };
  };
};
const parse = (xml: string) => parser.parse(xml) as Doc;

describe("controlSum", () => {
  it("adds amounts that floats get wrong, exactly", () => {
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(controlSum(["0.1", "0.2"])).toBe("0.3");
    expect(controlSum(["999999999999999999.99", "999999999999999999.99"])).toBe("1999999999999999999.98");
    expect(controlSum(["999999999999999999.99", "0.01"])).toBe("1000000000000000000.00");
    expect(controlSum(Array.from({ length: 10 }, () => "0.1"))).toBe("1.0");
  });
});

describe("toSepaLatin", () => {
  it("transliterates Nordic, German and non-Latin letters and drops what the set lacks", () => {
    expect(toSepaLatin("Ørsted Æblegård Åse Straße")).toBe("Orsted Aeblegard Ase Strasse");
    expect(toSepaLatin("ООО Ромашка & Co; <x>")).toBe("OOO Romashka Co x");
  });
});

describe("buildPain001", () => {
  it("writes header, debtor, execution date and each instruction with exact sums and deterministic ids", () => {
    const ins = [
      {
        amount: "0.1",
        creditor_name: "A",
        creditor_iban: "DE89 3704 0044 0532 0130 00",
        end_to_end_id: "E1",
        creditor_bic: "COBADEFFXXX",
        remittance: "Invoice 1",
      },
      { amount: "0.2", creditor_name: "B", creditor_iban: "NO9386011117947", end_to_end_id: "E2" },
    ];
    const a = buildPain001(BATCH, ins, DEBTOR, { createdAt: AT });
    const b = buildPain001(BATCH, ins, DEBTOR, { createdAt: new Date("2027-01-01T00:00:00Z") });
    expect(a.messageId).toBe(b.messageId);
    expect(a.messageId).toBe("TD0b7f3c2e4a1d4e5f9a8b1c2d3e4f5a6b");
    expect(a.paymentInformationId).toBe("TDP0b7f3c2e4a1d4e5f9a8b1c2d3e4f5a6b");
    const doc = parse(a.xml).Document.CstmrCdtTrfInitn;
    expect(doc.GrpHdr).toMatchObject({ NbOfTxs: "2", CtrlSum: "0.3", CreDtTm: "2026-11-23T08:15:30.000Z" });
    expect(doc.PmtInf).toMatchObject({
      NbOfTxs: "2",
      CtrlSum: "0.3",
      ReqdExctnDt: { Dt: "2026-12-01" },
      Dbtr: { Nm: "Nordlys Holding AS" },
    });
    expect(doc.PmtInf.DbtrAcct).toMatchObject({ Id: { IBAN: "NO9386011117947" }, Ccy: "EUR" });
    expect(doc.PmtInf.DbtrAgt).toEqual({ FinInstnId: { BICFI: "DNBANOKKXXX" } });
    expect(doc.PmtInf.CdtTrfTxInf).toEqual([
      {
        PmtId: { EndToEndId: "E1" },
        Amt: { InstdAmt: { "@_Ccy": "EUR", "#text": "0.1" } },
        CdtrAgt: { FinInstnId: { BICFI: "COBADEFFXXX" } },
        Cdtr: { Nm: "A" },
        CdtrAcct: { Id: { IBAN: "DE89370400440532013000" } },
        RmtInf: { Ustrd: "Invoice 1" },
      },
      {
        PmtId: { EndToEndId: "E2" },
        Amt: { InstdAmt: { "@_Ccy": "EUR", "#text": "0.2" } },
        Cdtr: { Nm: "B" },
        CdtrAcct: { Id: { IBAN: "NO9386011117947" } },
      },
    ]);
    expect(a.notes).toEqual([]);
  });

  it("notes every transliterated and truncated field, and a missing debtor BIC", () => {
    const long = "Ø".repeat(150);
    const r = buildPain001(
      BATCH,
      [{ amount: "10", creditor_name: long, creditor_iban: "DE89370400440532013000", end_to_end_id: "Å-1" }],
      { ...DEBTOR, bic: null },
    );
    expect(r.notes.map((n) => `${n.field}:${n.kind}`)).toEqual([
      "instructions[0].end_to_end_id:transliterated",
      "instructions[0].creditor_name:transliterated",
      "instructions[0].creditor_name:truncated",
      "debtor.bic:agent_not_provided",
    ]);
    const pmt = parse(r.xml).Document.CstmrCdtTrfInitn.PmtInf;
    expect(pmt.DbtrAgt).toEqual({ FinInstnId: { Othr: { Id: "NOTPROVIDED" } } });
    expect(r.xml).toContain(`<Nm>${"O".repeat(140)}</Nm>`);
  });

  it("keeps Unicode outside SEPA when asked, never for EUR", () => {
    const ins = [{ amount: "1", creditor_name: "Bjørn", creditor_iban: "NO9386011117947", end_to_end_id: "E1" }];
    expect(buildPain001({ ...BATCH, currency: "NOK" }, ins, DEBTOR, { charset: "unicode" }).xml).toContain(
      "<Nm>Bjørn</Nm>",
    );
    expect(buildPain001(BATCH, ins, DEBTOR, { charset: "unicode" }).xml).toContain("<Nm>Bjorn</Nm>");
  });

  it("writes an RF creditor reference as structured remittance (SCOR), free text as Ustrd", () => {
    const r = buildPain001(
      BATCH,
      [
        ...instructions(1, { creditor_reference: "rf18 5390 0754 7034" }),
        ...instructions(1, { end_to_end_id: "E2E-T", remittance: "Invoice 4711" }),
      ],
      DEBTOR,
      { createdAt: AT },
    );
    const txs = parse(r.xml).Document.CstmrCdtTrfInitn.PmtInf.CdtTrfTxInf as { RmtInf: unknown }[];
    expect(txs[0]?.RmtInf).toEqual({
      Strd: { CdtrRefInf: { Tp: { CdOrPrtry: { Cd: "SCOR" }, Issr: "ISO" }, Ref: "RF18539007547034" } },
    });
    expect(txs[1]?.RmtInf).toEqual({ Ustrd: "Invoice 4711" });
  });

  it("refuses what the schema cannot carry, naming the field", () => {
    expect(() => buildPain001(BATCH, [], DEBTOR)).toThrow(Pain001Error);
    expect(() => buildPain001(BATCH, instructions(1, { amount: "1234567890123456789" }), DEBTOR)).toThrow(
      "instructions[0].amount",
    );
    expect(() => buildPain001(BATCH, instructions(2, { amount: "999999999999999999" }), DEBTOR)).toThrow("control_sum");
    expect(() => buildPain001(BATCH, instructions(1, { creditor_name: "東" }), DEBTOR)).not.toThrow();
    expect(() => buildPain001(BATCH, instructions(1, { creditor_name: "&&&" }), DEBTOR)).toThrow(
      "instructions[0].creditor_name",
    );
  });
});

describe.skipIf(skipReason !== null)("pain.001 against the official XSDs", () => {
  /** xmllint's messages when the document is invalid, "" when valid. */
  function validate(xml: string, version: Pain001Version): string {
    const xsd = schemas[version];
    if (!xsd) throw new Error(`no schema for ${version}`);
    const r = validateAgainstXsd(xml, xsd);
    return r.valid ? "" : r.errors || "invalid";
  }

  const shapes: [string, () => Pain001Instruction[], string][] = [
    ["one instruction", () => instructions(1), "EUR"],
    ["1,000 instructions", () => instructions(1000), "EUR"],
    [
      "long names and remittances",
      () =>
        instructions(3, {
          creditor_name: "Long Name ".repeat(30),
          remittance: "Invoice ".repeat(40),
          end_to_end_id: "x".repeat(35),
        }),
      "EUR",
    ],
    [
      "non-Latin characters",
      () =>
        instructions(3, {
          creditor_name: "Østfold Kraftlag — Ærø & Åland ß 東京 Москва",
          remittance: "Faktura nr. 42 / Æ",
        }),
      "NOK",
    ],
    ["creditor BICs", () => instructions(3, { creditor_bic: "DEUTDEFF" }), "EUR"],
    [
      "RF creditor references (structured remittance)",
      () =>
        instructions(2, { creditor_reference: "RF18 5390 0754 7034", remittance: "ignored when a reference is given" }),
      "EUR",
    ],
    ...["NOK", "SEK", "DKK", "USD", "JPY"].map((c): [string, () => Pain001Instruction[], string] => [
      c,
      () => instructions(5, c === "JPY" ? { amount: "1500" } : {}),
      c,
    ]),
  ];

  for (const version of ["pain.001.001.09", "pain.001.001.03"] as const) {
    for (const [name, make, currency] of shapes) {
      it(`${version}: ${name} (${currency})`, () => {
        const r = buildPain001({ ...BATCH, currency }, make(), DEBTOR, { version, createdAt: AT });
        expect(validate(r.xml, version)).toBe("");
      });
    }
    it(`${version}: Unicode text outside SEPA and no debtor BIC`, () => {
      const r = buildPain001(
        { ...BATCH, currency: "SEK" },
        instructions(2, { creditor_name: "Åke Ström" }),
        { ...DEBTOR, bic: undefined },
        { version, charset: "unicode" },
      );
      expect(validate(r.xml, version)).toBe("");
    });
  }

  it("xmllint refuses a document the builder did not write (the check can fail)", () => {
    const r = buildPain001(BATCH, instructions(1), DEBTOR, { createdAt: AT });
    expect(validate(r.xml.replace("<ChrgBr>SLEV</ChrgBr>", "<ChrgBr>XXXX</ChrgBr>"), "pain.001.001.09")).toMatch(
      /ChrgBr/,
    );
  });
});
