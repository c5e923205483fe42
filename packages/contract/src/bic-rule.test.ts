/** The payment run's BIC rule, the one owner the BFF, the batch form and the CSV import call. */
import { describe, expect, it } from "vitest";
import { bicMissing, bicRequired } from "./bic-rule";

describe("bicRequired", () => {
  it("asks a BIC for an IBAN outside SEPA only", () => {
    expect(bicRequired("AE070331234567890123456")).toBe(true); // United Arab Emirates
    expect(bicRequired("NO9386011117947")).toBe(false); // Norway: SEPA
    expect(bicRequired("de89 3704 0044 0532 0130 00")).toBe(false); // spaces and lower case as typed
    expect(bicRequired(" ae07 0331 2345 6789 0123 456")).toBe(true);
  });

  it("leaves what is not an IBAN's country to the IBAN check", () => {
    expect(bicRequired("")).toBe(false);
    expect(bicRequired("12345")).toBe(false);
  });
});

describe("bicMissing", () => {
  it("is true for a blank BIC outside SEPA, false once a BIC is given or inside SEPA", () => {
    expect(bicMissing("AE070331234567890123456", undefined)).toBe(true);
    expect(bicMissing("AE070331234567890123456", "  ")).toBe(true);
    expect(bicMissing("AE070331234567890123456", "EBILAEAD")).toBe(false);
    expect(bicMissing("NO9386011117947", null)).toBe(false);
  });
});
