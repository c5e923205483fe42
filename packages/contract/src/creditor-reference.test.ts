import { describe, expect, it } from "vitest";
import {
  creditorReferenceProblem,
  electronicCreditorReference,
  isValidCreditorReference,
  makeCreditorReference,
} from "./creditor-reference";

describe("ISO 11649 creditor references", () => {
  it("accepts the standard's examples, with spaces and lower case", () => {
    expect(isValidCreditorReference("RF18539007547034")).toBe(true);
    expect(isValidCreditorReference("RF18 5390 0754 7034")).toBe(true);
    expect(isValidCreditorReference("rf18 5390 0754 7034")).toBe(true);
    expect(isValidCreditorReference("RF712348231")).toBe(true);
    expect(electronicCreditorReference(" rf71 2348 231 ")).toBe("RF712348231");
  });

  it("refuses a changed digit or swapped check digits", () => {
    expect(creditorReferenceProblem("RF18539007547035")).toMatch(/check digits/);
    expect(creditorReferenceProblem("RF81539007547034")).toMatch(/check digits/);
    expect(isValidCreditorReference("RF19539007547034")).toBe(false);
  });

  it("checks the shape: prefix, length 5..25, characters", () => {
    expect(creditorReferenceProblem("XX18539007547034")).toMatch(/start with RF/);
    expect(creditorReferenceProblem("RF18")).toMatch(/1–21/);
    expect(creditorReferenceProblem("RF1A5390")).toMatch(/check digits and/);
    expect(creditorReferenceProblem("RF18-5390")).toMatch(/letters or digits/);
    expect(creditorReferenceProblem("")).toMatch(/start with RF/);
    // 21 characters after the check digits is the most; 22 is refused before the check.
    const longest = makeCreditorReference("A".repeat(21));
    expect(longest).toHaveLength(25);
    expect(isValidCreditorReference(longest)).toBe(true);
    expect(creditorReferenceProblem(`${longest}1`)).toMatch(/at most 25/);
  });

  it("computes check digits that validate, including letters and a one-character body", () => {
    for (const body of ["1", "Z", "INV2026001", "539007547034", "000000000000000000001"]) {
      const ref = makeCreditorReference(body);
      expect(ref.slice(4)).toBe(body);
      expect(isValidCreditorReference(ref), ref).toBe(true);
    }
    expect(makeCreditorReference("539007547034")).toBe("RF18539007547034");
  });

  it("refuses check digits 00 and 01 whatever the body", () => {
    expect(creditorReferenceProblem("RF00539007547034")).toMatch(/00 and 01/);
    expect(creditorReferenceProblem("RF01539007547034")).toMatch(/00 and 01/);
  });
});
