/**
 * CSV import of payment instructions: parsing with papaparse and
 * the per-row, per-cell checks of the preview, with the bad inputs a person
 * really sends — wrong headers, bad IBANs, too many decimals for the
 * currency, blank rows, duplicate end-to-end ids, a BOM, semicolons.
 */
import { describe, expect, it } from "vitest";
import {
  amountFormatNote,
  NOT_SENDABLE,
  notSendableMessage,
  parseInstructionsCsv,
  toInstructionRows,
  validateCsvRows,
} from "./csv-import";

const HEADER = "creditor_name,creditor_iban,amount,end_to_end_id";
const NO = "NO9386011117947";
const SE = "SE4550000000058398257466";
const DE = "DE89370400440532013000";

/** A valid IBAN outside SEPA (United Arab Emirates): needs a BIC. */
const AE = "AE070331234567890123456";
const RF = "RF18 5390 0754 7034";
/** The optional columns empty, as every row of a file without them has. */
const NO_RUN = { creditor_bic: "", remittance_information: "", creditor_reference: "" };

/** Parses and checks in one go, as the dialog does. */
function importCsv(text: string, currency = "EUR", taken: readonly string[] = [], runFields = false) {
  const parsed = parseInstructionsCsv(text, currency);
  return { ...parsed, errors: validateCsvRows(parsed.rows, currency, new Set(taken), runFields) };
}

describe("parseInstructionsCsv", () => {
  it("reads rows in the batch currency, trimming cells", () => {
    const r = parseInstructionsCsv(`${HEADER}\n  Fjord AS , ${NO} , 100.50 , E-1 \n`, "NOK");
    expect(r.fileErrors).toEqual([]);
    expect(r.rows).toEqual([
      {
        creditor_name: "Fjord AS",
        creditor_iban: NO,
        amount: "100.50",
        end_to_end_id: "E-1",
        currency: "NOK",
        ...NO_RUN,
      },
    ]);
    expect(r.runColumns).toEqual([]);
  });

  it("accepts header aliases in any case, spacing and order, and ignores unknown columns", () => {
    const r = parseInstructionsCsv(`Reference;Amount;IBAN;Name;Note\nE-1;5.00;${SE};Nordic AB;paid late\n`, "SEK");
    expect(r.fileErrors).toEqual([]);
    expect(r.rows[0]).toEqual({
      creditor_name: "Nordic AB",
      creditor_iban: SE,
      amount: "5.00",
      end_to_end_id: "E-1",
      currency: "SEK",
      ...NO_RUN,
    });
  });

  it("names the missing columns when the header is wrong", () => {
    const r = parseInstructionsCsv(`payee,account,sum\nFjord AS,${NO},1.00\n`, "NOK");
    expect(r.fileErrors).toHaveLength(1);
    expect(r.fileErrors[0]).toContain("lacks creditor_name, creditor_iban, amount, end_to_end_id");
    // The rows are still shown, every required cell marked.
    expect(validateCsvRows(r.rows, "NOK", new Set())[0]).toMatchObject({
      creditor_name: "is required",
      end_to_end_id: "is required",
    });
  });

  it("names one missing column among the right ones", () => {
    const r = parseInstructionsCsv(`creditor_name,creditor_iban,amount\nFjord AS,${NO},1.00\n`, "NOK");
    expect(r.fileErrors).toEqual([expect.stringContaining("lacks end_to_end_id.")]);
  });

  it("reports a file without data rows, and an empty file", () => {
    expect(parseInstructionsCsv(`${HEADER}\n`, "EUR").fileErrors).toEqual(["The file holds no rows."]);
    const empty = parseInstructionsCsv("", "EUR");
    expect(empty.rows).toEqual([]);
    expect(empty.fileErrors).toContain("The file holds no rows.");
  });

  it("strips a UTF-8 byte order mark before the header", () => {
    const r = parseInstructionsCsv(`\uFEFF${HEADER}\nFjord AS,${NO},1.00,E-1\n`, "NOK");
    expect(r.fileErrors).toEqual([]);
    expect(r.rows[0]?.creditor_name).toBe("Fjord AS");
  });

  it("skips blank lines and rows of empty cells, with CRLF line ends", () => {
    const r = parseInstructionsCsv(
      `${HEADER}\r\nA AS,${NO},1.00,E-1\r\n\r\n,,,\r\n  ,  , ,\r\nB AS,${NO},2.00,E-2\r\n`,
      "NOK",
    );
    expect(r.rows.map((x) => x.end_to_end_id)).toEqual(["E-1", "E-2"]);
    expect(r.rows[1]?.end_to_end_id).toBe("E-2");
  });

  it("detects semicolon and tab separators", () => {
    const semi = parseInstructionsCsv(
      `creditor_name;creditor_iban;amount;end_to_end_id\nFjord AS;${NO};12.30;E-1\n`,
      "NOK",
    );
    expect(semi.rows[0]).toMatchObject({ creditor_iban: NO, amount: "12.30", end_to_end_id: "E-1" });
    const tab = parseInstructionsCsv(
      `creditor_name\tcreditor_iban\tamount\tend_to_end_id\nFjord AS\t${NO}\t12.30\tE-1\n`,
      "NOK",
    );
    expect(tab.rows[0]).toMatchObject({ amount: "12.30" });
  });

  it("keeps a quoted separator inside a name", () => {
    const r = parseInstructionsCsv(`${HEADER}\n"Müller, Hans GmbH",${DE},10.00,E-1\n`, "EUR");
    expect(r.rows[0]?.creditor_name).toBe("Müller, Hans GmbH");
  });
});

describe("validateCsvRows", () => {
  it("passes good rows", () => {
    const r = importCsv(`${HEADER}\nFjord AS,${NO},100.00,E-1\nNordic AB,SE45 5000 0000 0583 9825 7466,0.01,E-2\n`);
    expect(r.errors).toEqual({});
  });

  it("marks a bad IBAN (check digits, too short, garbage) on its cell only", () => {
    const r = importCsv(
      `${HEADER}\nA,NO9386011117948,1.00,E-1\nB,FI00 1234,1.00,E-2\nC,not an iban,1.00,E-3\nD,${NO},1.00,E-4\n`,
    );
    expect(r.errors).toEqual({
      0: { creditor_iban: "is not a valid IBAN" },
      1: { creditor_iban: "is not a valid IBAN" },
      2: { creditor_iban: "is not a valid IBAN" },
    });
  });

  it("allows no decimals in JPY", () => {
    const ok = importCsv(`${HEADER}\nA,${NO},1500,E-1\n`, "JPY");
    expect(ok.errors).toEqual({});
    const bad = importCsv(`${HEADER}\nA,${NO},1500.5,E-1\nB,${NO},1500.00,E-2\n`, "JPY");
    expect(bad.errors[0]?.amount).toBe("has more than 0 fraction digits for JPY");
    expect(bad.errors[1]?.amount).toBe("has more than 0 fraction digits for JPY");
  });

  it("allows two decimals in EUR and three in KWD", () => {
    const r = importCsv(`${HEADER}\nA,${DE},10.5,E-1\nB,${DE},10.50,E-2\nC,${DE},10.505,E-3\n`, "EUR");
    expect(Object.keys(r.errors)).toEqual(["2"]);
    expect(r.errors[2]?.amount).toBe("has more than 2 fraction digits for EUR");
    expect(importCsv(`${HEADER}\nA,${DE},10.505,E-1\n`, "KWD").errors).toEqual({});
  });

  it("refuses amounts that are not positive decimal strings with a point", () => {
    const r = importCsv(
      `creditor_name;creditor_iban;amount;end_to_end_id\nA;${DE};1200,50;E-1\nB;${DE};-5.00;E-2\n` +
        `C;${DE};0.00;E-3\nD;${DE};1,200.00;E-4\nE;${DE};1e3;E-5\nF;${DE};;E-6\n`,
    );
    expect(r.errors[0]?.amount).toMatch(/positive decimal string/);
    expect(r.errors[1]?.amount).toMatch(/positive decimal string/);
    expect(r.errors[2]?.amount).toBe("must be greater than zero");
    expect(r.errors[3]?.amount).toMatch(/positive decimal string/);
    expect(r.errors[4]?.amount).toMatch(/positive decimal string/);
    expect(r.errors[5]?.amount).toMatch(/positive decimal string/);
  });

  it("requires a creditor name and an end-to-end id, and bounds their length", () => {
    const long = "X".repeat(36);
    const r = importCsv(`${HEADER}\n,${DE},1.00,E-1\nB,${DE},1.00,\nC,${DE},1.00,${long}\n`);
    expect(r.errors).toEqual({
      0: { creditor_name: "is required" },
      1: { end_to_end_id: "is required" },
      2: { end_to_end_id: "must be at most 35 characters" },
    });
  });

  it("marks an end-to-end id repeated in the file on the later row, naming the first", () => {
    const r = importCsv(`${HEADER}\nA,${DE},1.00,E-1\nB,${DE},2.00,E-2\nC,${DE},3.00,E-1\n`);
    expect(r.errors).toEqual({ 2: { end_to_end_id: "duplicates instructions[0].end_to_end_id" } });
  });

  it("marks an end-to-end id already used by a row in the editor", () => {
    const r = importCsv(`${HEADER}\nA,${DE},1.00,E-1\nB,${DE},2.00,E-9\n`, "EUR", ["E-9"]);
    expect(r.errors).toEqual({ 1: { end_to_end_id: "is already used by a row in the editor" } });
  });

  it("keeps the first problem of a cell and marks several cells of one row", () => {
    const r = importCsv(`${HEADER}\n,bad,abc,\n`);
    expect(r.errors[0]).toEqual({
      creditor_name: "is required",
      creditor_iban: "is not a valid IBAN",
      amount: expect.stringMatching(/positive decimal/),
      end_to_end_id: "is required",
    });
  });

  it("checks every row of a large file", () => {
    const lines = Array.from({ length: 2000 }, (_, i) => `Payee ${i},${DE},${i + 1}.00,E-${i}`);
    lines[1500] = `Payee x,${DE},1.001,E-1500`;
    const r = importCsv(`${HEADER}\n${lines.join("\n")}\n`);
    expect(r.rows).toHaveLength(2000);
    expect(r.errors).toEqual({ 1500: { amount: "has more than 2 fraction digits for EUR" } });
  });
});

describe("BIC and remittance columns", () => {
  const RUN_HEADER = `${HEADER},creditor_bic,remittance_information,creditor_reference`;

  it("reads them, and their aliases bic / swift, remittance / message, rf", () => {
    const r = parseInstructionsCsv(
      `${RUN_HEADER}\nFjord AS,${NO}, 1.00 ,E-1, dnbanokk ,Invoice 4711,\nGulf LLC,${AE},2.00,E-2,NBADAEAAXXX,,${RF}\n`,
      "NOK",
    );
    expect(r.fileErrors).toEqual([]);
    expect(r.runColumns).toEqual(["creditor_bic", "remittance_information", "creditor_reference"]);
    expect(r.rows[0]).toMatchObject({ creditor_bic: "dnbanokk", remittance_information: "Invoice 4711" });
    expect(r.rows[1]).toMatchObject({ creditor_bic: "NBADAEAAXXX", creditor_reference: RF });
    for (const [bic, text, rf] of [
      ["BIC", "Remittance", "RF"],
      ["swift", "message", "rf"],
      ["Creditor BIC", "Remittance Information", "Creditor-Reference"],
    ]) {
      const a = parseInstructionsCsv(`${HEADER},${bic},${text},${rf}\nA,${NO},1.00,E-1,DNBANOKK,Hello,${RF}\n`, "NOK");
      expect(a.runColumns).toEqual(["creditor_bic", "remittance_information", "creditor_reference"]);
      expect(a.rows[0]).toMatchObject({
        creditor_bic: "DNBANOKK",
        remittance_information: "Hello",
        creditor_reference: RF,
      });
    }
  });

  it("passes a good file and turns it into editor rows (text, RF reference, none)", () => {
    const r = importCsv(
      `${RUN_HEADER}\nFjord AS,${NO},1.00,E-1,,Invoice 4711,\nGulf LLC,${AE},2.00,E-2,NBADAEAAXXX,,${RF}\n` +
        `Müller GmbH,${DE},3.00,E-3,,,\n`,
      "EUR",
      [],
      true,
    );
    expect(r.errors).toEqual({});
    expect(toInstructionRows(r.rows)).toEqual([
      expect.objectContaining({
        creditor_bic: "",
        remittance_information: { type: "unstructured", text: "Invoice 4711" },
      }),
      expect.objectContaining({
        creditor_bic: "NBADAEAAXXX",
        remittance_information: { type: "creditor_reference", reference: RF },
      }),
      expect.objectContaining({ creditor_bic: "" }),
    ]);
    // A row with neither text nor RF reference has no remittance information at all (none is its absence).
    expect(toInstructionRows(r.rows)[2]).not.toHaveProperty("remittance_information");
  });

  it("requires a BIC for an IBAN outside SEPA, and checks a given BIC", () => {
    const r = importCsv(
      `${RUN_HEADER}\nGulf LLC,${AE},1.00,E-1,,,\nFjord AS,${NO},1.00,E-2,DNBA,,\nNordic AB,${SE},1.00,E-3,,,\n`,
      "EUR",
      [],
      true,
    );
    expect(r.errors).toEqual({
      0: { creditor_bic: "is required for an IBAN outside SEPA" },
      1: { creditor_bic: "is not a valid BIC (8 or 11 characters, ISO 9362)" },
    });
  });

  it("marks an RF reference with wrong check digits, or of the wrong shape, on its cell", () => {
    const r = importCsv(
      `${RUN_HEADER}\nA,${DE},1.00,E-1,,,RF19 5390 0754 7034\nB,${DE},1.00,E-2,,,RF00X\nC,${DE},1.00,E-3,,,4711\n`,
      "EUR",
      [],
      true,
    );
    expect(r.errors).toEqual({
      0: { creditor_reference: "has wrong check digits (ISO 11649 mod 97)" },
      1: { creditor_reference: "has invalid check digits (00 and 01 are never used)" },
      2: { creditor_reference: "must start with RF (ISO 11649 creditor reference)" },
    });
  });

  it("bounds remittance text to 140 characters", () => {
    const ok = "x".repeat(140);
    const r = importCsv(`${RUN_HEADER}\nA,${DE},1.00,E-1,,${ok},\nB,${DE},1.00,E-2,,${ok}y,\n`, "EUR", [], true);
    expect(r.errors).toEqual({ 1: { remittance_information: "must be at most 140 characters" } });
  });

  it("refuses text and an RF reference in one row, naming the RF cell", () => {
    const r = importCsv(`${RUN_HEADER}\nA,${DE},1.00,E-1,,Invoice 4711,${RF}\n`, "EUR", [], true);
    expect(r.errors).toEqual({
      0: { creditor_reference: "must be empty when remittance_information is filled (text or RF reference, not both)" },
    });
  });

  it("without the API's extensions marks every filled cell and says they cannot be sent", () => {
    const text = `${RUN_HEADER}\nGulf LLC,${AE},1.00,E-1,NBADAEAAXXX,,\nFjord AS,${NO},1.00,E-2,,Invoice 4711,\n`;
    const r = importCsv(text, "NOK", [], false);
    expect(r.errors).toEqual({
      0: { creditor_bic: NOT_SENDABLE },
      1: { remittance_information: NOT_SENDABLE },
    });
    // The values stay in the rows: nothing is dropped behind the user's back.
    expect(r.rows[0]?.creditor_bic).toBe("NBADAEAAXXX");
    expect(notSendableMessage(r.rows, false)).toBe(
      "The file fills creditor_bic, remittance_information, but the connected Treasury API does not take BIC or " +
        "remittance information (its OpenAPI document does not list them), so they cannot be sent. Empty those " +
        "cells or remove the columns to import the rows without them.",
    );
    expect(notSendableMessage(r.rows, true)).toBeNull();
    // Emptied cells (or empty columns) import; no BIC is asked for an IBAN outside SEPA then.
    const emptied = r.rows.map((x) => ({ ...x, creditor_bic: "", remittance_information: "" }));
    expect(validateCsvRows(emptied, "NOK", new Set(), false)).toEqual({});
    expect(notSendableMessage(emptied, false)).toBeNull();
  });
});

describe("amounts written the European way", () => {
  const read = (amounts: string[], locale: string, currency = "EUR") => {
    const text = `creditor_name;creditor_iban;amount;end_to_end_id\n${amounts
      .map((a, i) => `Fjord AS;${DE};${a};E-${i}`)
      .join("\n")}\n`;
    const parsed = parseInstructionsCsv(text, currency, locale);
    const errors = validateCsvRows(parsed.rows, currency, new Set(), false, parsed.amountFormat);
    return { parsed, errors, rows: toInstructionRows(parsed.rows, parsed.amountFormat) };
  };
  it("reads 1.234,50 · 1 234,50 · 1,234.50 and says which form it assumed", () => {
    const comma = read(["1.234,50", "1 234,50", "1.000"], "en-GB");
    expect(comma.errors).toEqual({});
    expect(comma.rows.map((r) => r.amount)).toEqual(["1234.50", "1234.50", "1000"]);
    expect(comma.parsed.amountFormat).toMatchObject({ decimal: ",", from: "file", conflict: false });
    expect(amountFormatNote(comma.parsed.amountFormat)).toBe(
      "Amounts read with a decimal comma (1.234,50 · 1 234,50), as the file writes them.",
    );
    const point = read(["1,234.50", "1,000"], "de-DE");
    expect(point.rows.map((r) => r.amount)).toEqual(["1234.50", "1000"]);
    expect(amountFormatNote(point.parsed.amountFormat)).toMatch(/decimal point \(1,234\.50\), as the file writes them/);
  });
  it("lets the browser's language decide a file that could be read either way, and says so", () => {
    const de = read(["1.000", "2.500"], "de-DE");
    expect(de.rows.map((r) => r.amount)).toEqual(["1000", "2500"]);
    expect(amountFormatNote(de.parsed.amountFormat)).toMatch(/browser's language \(de-DE\).*either way/);
    // In English "1.000" is one: three decimals are too many for EUR, and the cell says so.
    const en = read(["1.000"], "en-GB");
    expect(en.errors[0]?.amount).toMatch(/fraction digits/);
  });
  it("marks amounts it cannot read with the form to use, and empty ones as required", () => {
    const r = read(["12a", "", "1.5", "2,5"], "en-GB");
    expect(r.parsed.amountFormat.conflict).toBe(true);
    expect(r.errors[0]?.amount).toBe("is not an amount: write it like 1,250.00");
    expect(r.errors[1]?.amount).toBe("is required");
    expect(amountFormatNote(r.parsed.amountFormat)).toMatch(/both with a decimal comma and with a decimal point/);
  });
});
