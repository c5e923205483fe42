/**
 * The server's field errors land on the form's fields under the path the server names, with no rewriting: the
 * API's bracket form and the BFF's dotted form, the remittance's text and RF reference among them.
 */
import { describe, expect, it } from "vitest";
import { createFormControl } from "react-hook-form";
import { emptyRow, type BatchFormValues } from "./batch-form-schema";
import { putServerErrors } from "./use-save-batch";

describe("putServerErrors", () => {
  it("sets each named path as it is, messages joined", () => {
    const form = createFormControl<BatchFormValues>({
      defaultValues: {
        company_id: "c",
        currency: "NOK",
        requested_execution_date: "",
        instructions: [emptyRow("NOK"), emptyRow("NOK"), emptyRow("NOK"), emptyRow("NOK")],
      },
    });
    putServerErrors(form.setError, {
      "instructions[3].remittance_information.text": ["must be at most 140 characters"],
      "instructions[2].remittance_information.reference": ["has wrong check digits (ISO 11649 mod 97)"],
      "instructions.0.end_to_end_id": ["is already used", "in another batch"],
      requested_execution_date: ["must not be before 2026-11-28"],
    });
    const errors = form.getErrors();
    const rows = errors.instructions as unknown as Record<string, unknown>[];
    expect(rows[3]).toMatchObject({
      remittance_information: { text: { type: "server", message: "must be at most 140 characters" } },
    });
    expect(rows[2]).toMatchObject({
      remittance_information: { reference: { message: "has wrong check digits (ISO 11649 mod 97)" } },
    });
    expect(rows[0]).toMatchObject({ end_to_end_id: { message: "is already used; in another batch" } });
    expect(errors.requested_execution_date?.message).toBe("must not be before 2026-11-28");
    expect(form.getFieldState("instructions.3.remittance_information.text").invalid).toBe(true);
  });

  it("ignores an answer without field errors", () => {
    const form = createFormControl<BatchFormValues>();
    putServerErrors(form.setError, undefined);
    putServerErrors(form.setError, "nope");
    expect(form.getErrors()).toEqual({});
  });
});
