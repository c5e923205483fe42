import { describe, expect, it } from "vitest";
import { amountExample, fileDecimalMark, localeSeparators, parseAmount } from "./amount-input";

const value = (text: string, locale = "en-GB", decimal?: "," | ".") => {
  const p = parseAmount(text, locale, decimal);
  return p.ok ? p.value : p.reason;
};

describe("parseAmount", () => {
  it("reads the three European forms and the English one to the same decimal string", () => {
    for (const locale of ["en-GB", "de-DE", "fr-FR", "nb-NO"]) {
      expect(value("1.234,50", locale)).toBe("1234.50");
      expect(value("1 234,50", locale)).toBe("1234.50");
      expect(value("1\u00a0234,50", locale)).toBe("1234.50");
      expect(value("1\u202f234,50", locale)).toBe("1234.50");
      expect(value("1,234.50", locale)).toBe("1234.50");
      expect(value("1'234.50", locale)).toBe("1234.50");
      expect(value("1234.50", locale)).toBe("1234.50");
      expect(value("1234,50", locale)).toBe("1234.50");
      expect(value("1.234.567,89", locale)).toBe("1234567.89");
      expect(value("1,234,567", locale)).toBe("1234567");
    }
  });
  it("keeps every digit (no float): large amounts and many decimals", () => {
    expect(value("123 456 789 012 345,67", "fr-FR")).toBe("123456789012345.67");
    expect(value("0,1")).toBe("0.1");
    expect(value("0.125")).toBe("0.125");
    expect(value("007,50")).toBe("7.50");
  });
  it("lets the locale decide the ambiguous '1.234' and '1,234', and says it assumed", () => {
    expect(parseAmount("1.234", "de-DE")).toEqual({ ok: true, value: "1234", decimal: ",", assumed: true });
    expect(parseAmount("1.234", "en-GB")).toEqual({ ok: true, value: "1.234", decimal: ".", assumed: true });
    expect(parseAmount("1,234", "en-GB")).toEqual({ ok: true, value: "1234", decimal: ".", assumed: true });
    expect(parseAmount("1,234", "fr-FR")).toEqual({ ok: true, value: "1.234", decimal: ",", assumed: true });
    // The file's convention wins over the locale.
    expect(value("1.234", "en-GB", ",")).toBe("1234");
    // Not ambiguous: other than 3 digits after, or a leading zero, or more than 3 before.
    expect(parseAmount("1.23", "de-DE")).toMatchObject({ value: "1.23", assumed: false });
    expect(parseAmount("0,125", "en-GB")).toMatchObject({ value: "0.125", assumed: false });
    expect(parseAmount("1234,567", "en-GB")).toMatchObject({ value: "1234.567", assumed: false });
  });
  it("refuses what is not an amount", () => {
    expect(value("")).toBe("empty");
    expect(value("   ")).toBe("empty");
    for (const bad of [
      "abc",
      "12a",
      "-5",
      "+5",
      "1,2,3.4.5",
      "1.23.456",
      "12,34,567",
      "1.234,5.6",
      "1,234.5,6",
      "1 23,50",
      "1.",
      ",5",
      "1e5",
      "NaN",
      "Infinity",
      "1 234 5",
      "１２３",
      "12..5",
    ])
      expect([bad, value(bad)]).toEqual([bad, "invalid"]);
  });
});

describe("locale helpers", () => {
  it("knows the separators and writes the hint the locale's way", () => {
    expect(localeSeparators("de-DE")).toEqual({ decimal: ",", group: "." });
    expect(localeSeparators("en-GB")).toEqual({ decimal: ".", group: "," });
    expect(localeSeparators("not a locale")).toEqual({ decimal: ".", group: "," });
    expect(amountExample("en-GB")).toBe("1,250.00");
    expect(amountExample("de-DE")).toBe("1.250,00");
    expect(amountExample("fr-FR").replaceAll(/[\u00a0\u202f]/g, " ")).toBe("1 250,00");
  });
  it("finds a file's decimal separator from its unambiguous cells, else the locale's", () => {
    expect(fileDecimalMark(["1.234", "12,50"], "en-GB")).toEqual({ decimal: ",", from: "file", conflict: false });
    expect(fileDecimalMark(["1.234", "1,234"], "de-DE")).toEqual({ decimal: ",", from: "locale", conflict: false });
    expect(fileDecimalMark(["1.5", "2,5"], "en-GB")).toEqual({ decimal: ".", from: "locale", conflict: true });
    expect(fileDecimalMark(["100"], "fr-FR")).toEqual({ decimal: ",", from: "locale", conflict: false });
  });
});
