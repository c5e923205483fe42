/** The reason rule of review decisions: required for an approval's rejection, optional for a match's. */
import { describe, expect, it } from "vitest";
import { REASON_MIN, reasonAccepted } from "./decision-dialog";

describe("reasonAccepted", () => {
  it("requires at least REASON_MIN characters, not counting surrounding spaces, when required", () => {
    expect(REASON_MIN).toBe(3);
    expect(reasonAccepted("", "required")).toBe(false);
    expect(reasonAccepted("  ab  ", "required")).toBe(false);
    expect(reasonAccepted("abc", "required")).toBe(true);
  });

  it("accepts anything, including nothing, when optional or not asked", () => {
    expect(reasonAccepted("", "optional")).toBe(true);
    expect(reasonAccepted("x", "optional")).toBe(true);
    expect(reasonAccepted("", "none")).toBe(true);
  });
});
