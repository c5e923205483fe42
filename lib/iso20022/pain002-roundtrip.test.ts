/**
 * Our pain.001 export and the pain.002 importer agree (docs/bank-files.md "pain.002 status reports"): the bank's
 * report built for an exported file (test builder) names the batch by its message id and payment information id,
 * and every instruction by its end-to-end id, in both pain.001 versions and both pain.002 versions.
 */
import { describe, expect, it } from "vitest";
import { batchIdFromReference, parsePain002 } from "@treasury/test-support/pain002";
import { pain002For } from "@treasury/test-support/pain002";
import { buildPain001, PAIN001_VERSIONS } from "./pain001";

const batch = {
  id: "0f4c2a9e-5b1d-4e7f-9a3c-6b8d2e1f0a7c",
  currency: "EUR",
  requested_execution_date: "2026-03-03",
  created_at: "2026-03-02T09:00:00Z",
};
const instructions = ["INV-1", "INV-2", "INV-3"].map((e2e, i) => ({
  amount: `${i + 1}00.00`,
  creditor_name: `Creditor ${i + 1}`,
  creditor_iban: "DE89370400440532013000",
  end_to_end_id: e2e,
}));

describe("pain.001 export → pain.002 import", () => {
  it.each(PAIN001_VERSIONS.flatMap((v) => [[v, "03"] as const, [v, "10"] as const]))(
    "%s answered by pain.002.001.%s",
    (v, p) => {
      const pain001 = buildPain001(
        batch,
        instructions,
        { name: "Nordlys AS", iban: "DE89370400440532013000" },
        { version: v },
      ).xml;
      const report = parsePain002(
        pain002For(pain001, { "INV-1": { code: "ACSC" }, "INV-3": { code: "RJCT", reason: "AC04" } }, { version: p }),
        "status.xml",
      );
      expect(report.version).toBe(`pain.002.001.${p}`);
      expect(batchIdFromReference(report.originalMessageId, "TD")).toBe(batch.id);
      expect(report.payments.map((x) => batchIdFromReference(x.paymentInformationId, "TDP"))).toEqual([batch.id]);
      expect(report.payments[0]?.transactions.map((t) => [t.endToEndId, t.status?.code, t.status?.reasonCode])).toEqual(
        [
          ["INV-1", "ACSC", null],
          ["INV-3", "RJCT", "AC04"],
        ],
      );
    },
  );
});
