/**
 * The new-batch editor's pure parts: the exact running total
 * and count (decimal.js, never floats), the body sent to the BFF (the form's values, in the
 * contract's shape), a stored batch loaded for editing, and where the schema's errors land.
 */
import { describe, expect, it } from "vitest";
import type { PaymentBatch, PaymentInstruction } from "@treasury/contract";
import {
  batchFormValues,
  batchResolver,
  emptyRow,
  remittanceError,
  remittanceOfKind,
  remittanceValue,
  runningTotal,
  toBody,
  type InstructionRow,
  type RemittanceErrors,
} from "./batch-form-schema";

const rows = (...amounts: string[]) => amounts.map((amount) => ({ amount }));

describe("runningTotal", () => {
  it("sums exactly where floats would not (0.1 + 0.2)", () => {
    expect(runningTotal(rows("0.10", "0.20"), "EUR")).toEqual({ total: "0.30", count: 2, invalid: 0 });
    expect(runningTotal(rows("0.1", "0.2"), "EUR").total).toBe("0.30");
  });

  it("gives the total in the currency's digits", () => {
    expect(runningTotal(rows("60000.5", "45000.25", "1200"), "NOK").total).toBe("106200.75");
    expect(runningTotal(rows("1500", "2500"), "JPY").total).toBe("4000");
    expect(runningTotal(rows("1.005", "2"), "KWD").total).toBe("3.005");
  });

  it("sums huge amounts exactly (beyond decimal.js's default 20 digits)", () => {
    expect(runningTotal(rows("999999999999999999.99", "999999999999999999.99"), "EUR").total).toBe(
      "1999999999999999999.98",
    );
    expect(runningTotal(rows("999999999999999999.999", "0.001"), "KWD").total).toBe("1000000000000000000.000");
    // 10,000 instructions at the largest amount: 22 integer digits, every cent kept.
    const many = Array.from({ length: 10_000 }, () => ({ amount: "999999999999999999.99" }));
    expect(runningTotal(many, "EUR").total).toBe("9999999999999999999900.00");
    expect(runningTotal([...many, { amount: "0.01" }], "EUR").total).toBe("9999999999999999999900.01");
  });

  it("leaves out and counts rows whose amount the contract refuses", () => {
    const r = runningTotal(rows("100.00", "", "abc", "-5.00", "0.00", "1,5", "1e3", " 7.50 "), "EUR");
    expect(r).toEqual({ total: "107.50", count: 8, invalid: 6 });
  });

  it("counts amounts with more decimals than the currency allows as invalid (JPY 0, EUR 2)", () => {
    expect(runningTotal(rows("1000", "1000.5"), "JPY")).toEqual({ total: "1000", count: 2, invalid: 1 });
    expect(runningTotal(rows("10.50", "10.505"), "EUR")).toEqual({ total: "10.50", count: 2, invalid: 1 });
  });

  it("is zero in the currency's digits for no rows or only empty rows", () => {
    expect(runningTotal([], "EUR")).toEqual({ total: "0.00", count: 0, invalid: 0 });
    expect(runningTotal([emptyRow("JPY")], "JPY")).toEqual({ total: "0", count: 1, invalid: 1 });
  });

  it("keeps the written digits for an unknown currency code (the schema reports the code)", () => {
    expect(runningTotal(rows("1.5", "1.25"), "XYZ").total).toBe("2.75");
  });
});

describe("toBody", () => {
  it("puts the batch currency on every row, trims amounts and leaves out an empty date", () => {
    const body = toBody({
      company_id: "00000000-0000-4000-8000-000000000001",
      currency: "SEK",
      requested_execution_date: "",
      instructions: [
        {
          amount: " 12.00 ",
          creditor_name: "A",
          creditor_iban: "SE45 5000 0000 0583 9825 7466",
          end_to_end_id: "E-1",
          currency: "NOK",
        },
      ],
    });
    expect(body).toEqual({
      company_id: "00000000-0000-4000-8000-000000000001",
      currency: "SEK",
      instructions: [
        {
          amount: "12.00",
          currency: "SEK",
          creditor_name: "A",
          creditor_iban: "SE45 5000 0000 0583 9825 7466",
          end_to_end_id: "E-1",
        },
      ],
    });
  });
});

describe("the form's values are the contract's body", () => {
  const NO = "NO93 8601 1117 947";
  const RF = "RF18 5390 0754 7034";
  const values = (rows: InstructionRow[]) => ({
    company_id: "00000000-0000-4000-8000-000000000001",
    currency: "NOK",
    requested_execution_date: "",
    instructions: rows,
  });
  const row = (extra: Partial<InstructionRow>): InstructionRow => ({
    ...emptyRow("NOK", "E-1"),
    amount: "10.00",
    creditor_name: "A",
    creditor_iban: NO,
    ...extra,
  });

  it("sends a row's remittance information as the form holds it, and leaves out a blank one and none", () => {
    const text = { type: "unstructured" as const, text: "Invoice 4711" };
    const ref = { type: "creditor_reference" as const, reference: RF };
    const body = toBody(
      values([
        row({ remittance_information: text }),
        row({ end_to_end_id: "E-2", remittance_information: ref }),
        row({ end_to_end_id: "E-3", remittance_information: { type: "unstructured", text: "  " } }),
        row({ end_to_end_id: "E-4" }),
        row({ end_to_end_id: "E-5", remittance_information: null }),
      ]),
      true,
    );
    expect(body.instructions.map((i) => i.remittance_information)).toEqual([
      text,
      ref,
      undefined,
      undefined,
      undefined,
    ]);
    expect(body.instructions[2]).not.toHaveProperty("remittance_information");
    // Without the payment-run fields it is never sent.
    expect(toBody(values([row({ remittance_information: text })])).instructions[0]).not.toHaveProperty(
      "remittance_information",
    );
  });

  it("loads a stored batch's instructions as they are, and sends them back unchanged", () => {
    const stored = {
      amount: "10.00",
      currency: "NOK",
      creditor_name: "A",
      creditor_iban: "NO9386011117947",
      end_to_end_id: "E-1",
      creditor_bic: "DNBANOKK",
      remittance_information: { type: "creditor_reference" as const, reference: "RF18539007547034" },
    };
    const batch = { company_id: "00000000-0000-4000-8000-000000000001", currency: "NOK" } as PaymentBatch;
    const form = batchFormValues(batch, [{ ...stored } as PaymentInstruction]);
    expect(form.instructions[0]).toMatchObject(stored);
    expect(toBody(form, true).instructions[0]).toEqual(stored);
  });

  it("the selector keeps what was typed under the key of the chosen kind; none is no object", () => {
    expect(remittanceOfKind("creditor_reference", "RF18")).toEqual({ type: "creditor_reference", reference: "RF18" });
    expect(remittanceOfKind("unstructured", "RF18")).toEqual({ type: "unstructured", text: "RF18" });
    expect(remittanceOfKind("none", "RF18")).toBeUndefined();
    expect(remittanceValue({ type: "creditor_reference", reference: "RF18" })).toBe("RF18");
    expect(remittanceValue({ type: "unstructured", text: "Hi" })).toBe("Hi");
    expect(remittanceValue(null)).toBe("");
  });

  it("puts the schema's remittance errors on the contract's path, the field that shows them", async () => {
    const r = await batchResolver(
      values([
        row({ remittance_information: { type: "creditor_reference", reference: "RF19 5390 0754 7034" } }),
        row({ end_to_end_id: "E-2", remittance_information: { type: "unstructured", text: "x".repeat(141) } }),
      ]),
      { runFields: true },
      { fields: {}, shouldUseNativeValidation: false },
    );
    const rows = r.errors.instructions as unknown as RemittanceErrors[];
    expect(remittanceError(rows[0])).toBe("has wrong check digits (ISO 11649 mod 97)");
    expect(rows[0]?.remittance_information?.reference?.message).toBe("has wrong check digits (ISO 11649 mod 97)");
    expect(rows[1]?.remittance_information?.text?.message).toBe("must be at most 140 characters");
    expect(remittanceError({ remittance_information: { message: "is not supported" } })).toBe("is not supported");
  });
});
