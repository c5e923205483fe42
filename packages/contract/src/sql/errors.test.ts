import { describe, expect, it } from "vitest";
import { isUniqueViolation } from "./errors";

describe("isUniqueViolation", () => {
  it("finds SQLSTATE 23505 on the error or anywhere along its cause chain", () => {
    expect(isUniqueViolation(Object.assign(new Error("dup"), { code: "23505" }))).toBe(true);
    expect(
      isUniqueViolation(new Error("Failed query", { cause: new Error("wrapped", { cause: { code: "23505" } }) })),
    ).toBe(true);
  });
  it("is false for other codes, plain errors and non-errors", () => {
    expect(isUniqueViolation(Object.assign(new Error("fk"), { code: "23503" }))).toBe(false);
    expect(isUniqueViolation(new Error("plain"))).toBe(false);
    expect(isUniqueViolation(undefined)).toBe(false);
    expect(isUniqueViolation("23505")).toBe(false);
  });
});
