/** The reconciliation scoring function (pure): each part, the weights, the threshold. */
import { describe, expect, it } from "vitest";
import {
  PROPOSE_THRESHOLD,
  SCORE_WEIGHTS,
  amountScore,
  dateScore,
  nameScore,
  normalizeName,
  referenceScore,
  remittanceScore,
  scoreMatch,
} from "./matching";

describe("amountScore", () => {
  it.each([
    ["1000.00", "1000.00", 100],
    ["1000.00", "1000", 100],
    ["1000.00", "999.99", 95], // 0.001 % off
    ["1000.00", "995.00", 73], // 0.5 %
    ["1000.00", "1010.00", 50], // 1 %
    ["1000.00", "1030.00", 25], // 3 %
    ["1000.00", "1050.00", 0], // 5 %
    ["1000.00", "2000.00", 0],
    ["0", "0.01", 0],
  ])("%s vs %s → %i", (a, b, want) => {
    expect(amountScore(a, b)).toBe(want);
  });

  it("exact on decimals: 0.1 + 0.2 style values compare as decimals", () => {
    expect(amountScore("0.30", "0.3")).toBe(100);
  });
});

describe("dateScore", () => {
  it.each([
    ["2026-01-10", "2026-01-10", 100],
    ["2026-01-10", "2026-01-11", 80],
    ["2026-01-10", "2026-01-08", 60],
    ["2026-01-10", "2026-01-14", 20],
    ["2026-01-10", "2026-01-15", 0],
    ["2026-01-10", "2026-03-01", 0],
  ])("%s vs %s → %i", (a, b, want) => {
    expect(dateScore(a, b)).toBe(want);
  });
});

describe("referenceScore", () => {
  it.each([
    ["E2E-2026-0001", { endToEndId: "E2E-2026-0001", remittance: "" }, 100],
    ["e2e-2026-0001", { endToEndId: "E2E-2026-0001 ", remittance: "" }, 100],
    ["E2E-2026-0001", { endToEndId: null, remittance: "Payment E2E-2026-0001 invoice 77" }, 100],
    ["E2E-2026-0001", { endToEndId: null, remittance: "e2e 2026 0001" }, 90],
    ["E2E-2026-0001", { endToEndId: "OTHER", remittance: "invoice 77" }, 0],
    ["AB1", { endToEndId: null, remittance: "AB1 AB12" }, 0], // too short to find in text
    ["AB1", { endToEndId: "AB1", remittance: "" }, 100], // but equal ids still match
    ["NOTPROVIDED", { endToEndId: "NOTPROVIDED", remittance: "NOTPROVIDED" }, 0],
    ["", { endToEndId: "", remittance: "" }, 0],
  ])("%s in %o → %i", (id, tx, want) => {
    expect(referenceScore(id, tx)).toBe(want);
  });
});

describe("remittanceScore", () => {
  it("matches the instruction's remittance text or creditor reference in the bank's remittance", () => {
    expect(remittanceScore("Invoice 4711-A", "Payment INVOICE  4711-A thanks")).toBe(100);
    expect(remittanceScore("Invoice 4711-A", "INV: invoice4711a")).toBe(90);
    // A creditor reference printed in groups of four is as good as written: its check digits make it unique.
    expect(remittanceScore("RF18539007547034", "Betaling rf18 5390 0754 7034")).toBe(100);
    expect(remittanceScore("RF18539007547034", "RF18539007547035")).toBe(0);
  });

  it("'as written' ignores the text's outer spaces but not a space between its words", () => {
    // Trailing space on the instruction's text: still as written (100), even at the very end of the bank's text.
    expect(remittanceScore("Invoice 12345 ", "Paid invoice 12345")).toBe(100);
    expect(remittanceScore("  Invoice 12345", "invoice 12345 paid")).toBe(100);
    // A space the bank left out is only found once spaces are ignored: 90.
    expect(remittanceScore("Order 123456", "Paid order123456")).toBe(90);
  });

  it("ignores texts under six letters / digits and missing remittance", () => {
    expect(remittanceScore("Rent", "Rent December")).toBe(0);
    expect(remittanceScore("Rent 1", "Rent 1")).toBe(0);
    expect(remittanceScore("Rent 12", "Rent 12")).toBe(100);
    expect(remittanceScore(null, "anything")).toBe(0);
    expect(remittanceScore("", "")).toBe(0);
  });

  it("counts in scoreMatch as the reference part when the end-to-end id is missing", () => {
    const r = scoreMatch({
      instruction: {
        amount: "10.00",
        endToEndId: "E2E-XYZ-1",
        creditorName: "Acme AS",
        remittance: "Invoice 99812",
        date: "2026-01-05",
      },
      transaction: {
        amount: "10.00",
        bookedDate: "2026-01-05",
        remittance: "invoice 99812",
        endToEndId: null,
        counterpartyName: "Acme",
      },
    });
    expect(r.breakdown.reference).toBe(100);
  });
});

describe("name similarity", () => {
  it("normalizes case, diacritics, punctuation and legal forms", () => {
    expect(normalizeName("Müller & Søn GmbH")).toBe("muller and son");
    expect(normalizeName("NORDIC SUPPLY A/S")).toBe("nordic supply");
    expect(normalizeName("Kontorservice AB (publ)")).toBe("kontorservice");
    expect(normalizeName("  ")).toBe("");
  });

  it.each([
    ["Nordic Supply AS", "NORDIC SUPPLY AS", 100],
    ["Nordic Supply AS", "Nordic Supply", 100],
    ["Supply Nordic", "Nordic Supply", 100], // word order
    ["Bergen Kontorservice AS", "Bergen Kontorservice og Trykk AS", 90], // one contains the other
    ["Acme Ltd", "", 0],
  ])("%s vs %s → %i", (a, b, want) => {
    expect(nameScore(a, b)).toBe(want);
  });

  it("a typo scores high, a different party low", () => {
    expect(nameScore("Fjordkraft AS", "Fjordkarft AS")).toBeGreaterThanOrEqual(80);
    expect(nameScore("Fjordkraft AS", "Telenor Norge AS")).toBeLessThan(40);
  });
});

describe("scoreMatch", () => {
  const instruction = {
    amount: "12500.00",
    endToEndId: "E2E-77-0001",
    creditorName: "Nordic Supply AS",
    date: "2026-01-10",
  };
  const transaction = {
    amount: "12500.00",
    bookedDate: "2026-01-10",
    remittance: "E2E-77-0001",
    endToEndId: "E2E-77-0001",
    counterpartyName: "NORDIC SUPPLY AS",
  };

  it("a perfect pair scores 100 with every part 100", () => {
    expect(scoreMatch({ instruction, transaction })).toEqual({
      score: 100,
      breakdown: { amount: 100, date: 100, reference: 100, name: 100 },
    });
  });

  it("weights add up to 100 and combine the parts", () => {
    expect(SCORE_WEIGHTS.amount + SCORE_WEIGHTS.date + SCORE_WEIGHTS.reference + SCORE_WEIGHTS.name).toBe(100);
    const r = scoreMatch({
      instruction,
      transaction: {
        ...transaction,
        bookedDate: "2026-01-12",
        counterpartyName: "Someone Else",
        remittance: "",
        endToEndId: null,
      },
    });
    expect(r.breakdown).toMatchObject({ amount: 100, date: 60, reference: 0 });
    expect(r.score).toBe(Math.round((100 * 35 + 60 * 15 + 0 * 35 + r.breakdown.name * 15) / 100));
  });

  it("the threshold: amount + date + name without a reference is proposed; amount + date alone is not", () => {
    const noRef = { ...transaction, remittance: "", endToEndId: null };
    expect(scoreMatch({ instruction, transaction: noRef }).score).toBeGreaterThanOrEqual(PROPOSE_THRESHOLD);
    expect(
      scoreMatch({ instruction, transaction: { ...noRef, counterpartyName: "Unrelated Party Oy" } }).score,
    ).toBeLessThan(PROPOSE_THRESHOLD);
  });

  it("reference and amount alone are enough even when the bank shortened the name", () => {
    expect(
      scoreMatch({ instruction, transaction: { ...transaction, counterpartyName: "NSUP", bookedDate: "2026-01-20" } })
        .score,
    ).toBeGreaterThanOrEqual(PROPOSE_THRESHOLD);
  });
});

describe("scoring edges", () => {
  it("a non-positive instruction amount scores 0 unless equal", () => {
    expect(amountScore("-100.00", "-99.50")).toBe(0);
    expect(amountScore("0", "5.00")).toBe(0);
    expect(amountScore("-100.00", "-100.00")).toBe(100);
  });

  it("reference: the id is trimmed; 4 characters is long enough; the compact form needs 4 letters or digits", () => {
    expect(referenceScore(" E2E-1 ", { endToEndId: "E2E-1", remittance: "" })).toBe(100);
    expect(referenceScore("AB12", { endToEndId: null, remittance: "PAY AB12" })).toBe(100);
    // Without punctuation and case: found as "AB12" in "ab 12".
    expect(referenceScore("AB-12", { endToEndId: null, remittance: "ab 12" })).toBe(90);
    expect(referenceScore("AB-CD-12", { endToEndId: null, remittance: "abcd12" })).toBe(90);
    // "A-B-C" compacts to three characters: never matched by text.
    expect(referenceScore("A-B-C", { endToEndId: null, remittance: "XABCX" })).toBe(0);
  });

  it("every legal form is dropped from a name", () => {
    const forms = ["as", "asa", "ab", "publ", "aps", "oy", "oyj", "gmbh", "ag", "kg", "ltd", "limited", "inc"];
    const more = ["llc", "bv", "nv", "sa", "sarl", "plc", "co", "corp", "se", "hf", "ehf"];
    for (const form of [...forms, ...more]) {
      expect(normalizeName(`Acme ${form.toUpperCase()}`), form).toBe("acme");
      expect(normalizeName(`${form} Acme`), form).toBe("acme");
    }
  });

  it("letters are folded: æ → ae, ß → ss, diacritics dropped; A/S between other letters splits words", () => {
    expect(normalizeName("Ærø Straße Škoda")).toBe("aero strasse skoda");
    // ł is a letter outside \w, so "a/s" between two of them is still a separate legal form.
    expect(normalizeName("Ła/słowo")).toBe("ł łowo");
  });

  it("names: word order counts through the sorted form; containment needs 4 characters on the shorter side", () => {
    expect(nameScore("Berg Ola", "Ola Bergh")).toBe(89);
    expect(nameScore("Ola", "Ola Nordmann Holding")).toBeLessThan(30);
    expect(nameScore("Berg", "Berg Eiendom Holding")).toBe(90);
  });
});
