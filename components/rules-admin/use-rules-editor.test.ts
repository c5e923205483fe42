/**
 * The rule form's refusal text: a 400's field errors one by one (named in words where the kind of rule names them),
 * the BFF's message otherwise, and a plain sentence for anything that is not a BFF answer.
 */
import { describe, expect, it } from "vitest";
import { BffRequestError } from "@/components/data/bff-fetch";
import { ruleProblem } from "./use-rules-editor";

const refusal = (details: Record<string, unknown>, message = "The request is not valid.") =>
  new BffRequestError(400, "validation_failed", message, details, "req-1");

describe("ruleProblem", () => {
  it("lists each field's messages, fields in the given words and others by their name", () => {
    const err = refusal({
      errors: {
        min_score: ["must be a whole number from 0 to 100"],
        name: ["is required", "too short"],
        iban: ["bad"],
      },
    });
    expect(ruleProblem(err, { min_score: "Minimum score", name: "Name" })).toBe(
      "Minimum score: must be a whole number from 0 to 100; Name: is required, too short; iban: bad",
    );
    expect(ruleProblem(err)).toBe(
      "min_score: must be a whole number from 0 to 100; name: is required, too short; iban: bad",
    );
  });

  it("keeps the BFF's message when no field is named (a 404, a 409 without errors)", () => {
    expect(ruleProblem(new BffRequestError(404, "not_found", "There is no such category rule.", {}, undefined))).toBe(
      "There is no such category rule.",
    );
    expect(ruleProblem(refusal({ reason: "x" }, "Refused."))).toBe("Refused.");
  });

  it("says something went wrong for an error that is no BFF answer", () => {
    expect(ruleProblem(new TypeError("Failed to fetch"))).toBe("Something went wrong.");
    expect(ruleProblem("boom", { x: "X" })).toBe("Something went wrong.");
  });
});
