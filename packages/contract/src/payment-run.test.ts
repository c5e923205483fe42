/** The contract's payment-run fields: BIC, remittance information (text ≤ 140 or RF reference), the edit body. */
import { describe, expect, it } from "vitest";
import { Bic, PaymentBatchUpdate, PaymentInstructionCreate, RemittanceInformation, remittanceText } from "./payments";

const ins = {
  amount: "10.00",
  currency: "NOK",
  creditor_name: "Acme AS",
  creditor_iban: "NO9386011117947",
  end_to_end_id: "E1",
};

describe("Bic", () => {
  it("accepts 8 and 11 characters, spaces and lower case, and normalises", () => {
    expect(Bic.parse("dnba nokk")).toBe("DNBANOKK");
    expect(Bic.parse("DNBANOKKXXX")).toBe("DNBANOKKXXX");
  });
  it.each(["DNBANOK", "DNBANOKKXX", "DNB1NOKK", "DNBA12KK", "", "DNBANOKKXXXX"])("refuses %j", (b) => {
    expect(Bic.safeParse(b).success).toBe(false);
  });
});

describe("RemittanceInformation", () => {
  it("free text of 1..140 characters", () => {
    expect(RemittanceInformation.parse({ type: "unstructured", text: "x".repeat(140) })).toMatchObject({
      type: "unstructured",
    });
    expect(RemittanceInformation.safeParse({ type: "unstructured", text: "x".repeat(141) }).success).toBe(false);
    expect(RemittanceInformation.safeParse({ type: "unstructured", text: "  " }).success).toBe(false);
  });
  it("a creditor reference is checked (mod 97) and stored without spaces", () => {
    expect(RemittanceInformation.parse({ type: "creditor_reference", reference: "rf18 5390 0754 7034" })).toEqual({
      type: "creditor_reference",
      reference: "RF18539007547034",
    });
    const bad = RemittanceInformation.safeParse({ type: "creditor_reference", reference: "RF18 5390 0754 7035" });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(["reference"]);
    expect(RemittanceInformation.safeParse({ type: "structured", reference: "RF18539007547034" }).success).toBe(false);
  });
  it("remittanceText gives what travels with the payment", () => {
    expect(remittanceText({ type: "unstructured", text: "Invoice 1" })).toBe("Invoice 1");
    expect(remittanceText({ type: "creditor_reference", reference: "RF712348231" })).toBe("RF712348231");
    expect(remittanceText(null)).toBeNull();
  });
});

describe("instruction and edit bodies", () => {
  it("an instruction takes an optional BIC and remittance; the paths name the field", () => {
    expect(PaymentInstructionCreate.parse({ ...ins, creditor_bic: "DNBANOKK" }).creditor_bic).toBe("DNBANOKK");
    const r = PaymentInstructionCreate.safeParse({ ...ins, creditor_bic: "NOPE" });
    expect(r.error?.issues.map((i) => i.path)).toEqual([["creditor_bic"]]);
  });
  it("an edit needs at least one field, may clear with null, and checks instructions like create", () => {
    expect(PaymentBatchUpdate.safeParse({}).success).toBe(false);
    expect(PaymentBatchUpdate.parse({ reference: null, debtor_account_id: null })).toEqual({
      reference: null,
      debtor_account_id: null,
    });
    const dup = PaymentBatchUpdate.safeParse({ instructions: [ins, { ...ins, amount: "1.001" }] });
    expect(dup.error?.issues.map((i) => i.path.join("."))).toEqual(
      expect.arrayContaining(["instructions.1.end_to_end_id", "instructions.1.amount"]),
    );
    expect(PaymentBatchUpdate.safeParse({ status: "approved" }).success).toBe(false);
  });
});
