/**
 * The four-eyes threshold per batch currency: the rule (domain/four-eyes.ts), the option and environment value
 * that configure it, and `required_count` of a submitted batch through the real app.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configFromEnv } from "../config";
import { queryRows } from "../db/client";
import {
  DEFAULT_FOUR_EYES_THRESHOLDS,
  parseFourEyesThresholds,
  requiredApprovals,
  thresholdFor,
} from "../domain/four-eyes";
import { parseArgs } from "../server";
import { IDS, createHarness, type Harness } from "./harness";

describe("requiredApprovals per currency", () => {
  const t = DEFAULT_FOUR_EYES_THRESHOLDS;
  it("compares the total with the batch currency's own threshold, exactly at the edge", () => {
    expect(requiredApprovals("99999.99", "EUR", t)).toBe(1);
    expect(requiredApprovals("100000.00", "EUR", t)).toBe(2);
    expect(requiredApprovals("999999.99", "NOK", t)).toBe(1);
    expect(requiredApprovals("1000000.00", "NOK", t)).toBe(2);
    expect(requiredApprovals("999999.99", "SEK", t)).toBe(1);
    expect(requiredApprovals("749999.99", "DKK", t)).toBe(1);
    expect(requiredApprovals("750000", "DKK", t)).toBe(2);
    expect(requiredApprovals("100000.00", "USD", t)).toBe(2);
  });

  it("uses the fallback (100000.00 in the batch currency) for a currency without a threshold", () => {
    expect(thresholdFor("JPY", t)).toBe("100000.00");
    expect(requiredApprovals("100000", "JPY", t)).toBe(2);
    expect(requiredApprovals("99999", "JPY", t)).toBe(1);
    expect(thresholdFor("nok", t)).toBe("1000000.00");
  });
});

describe("parseFourEyesThresholds", () => {
  it("overrides the named currencies and the fallback, keeps the others", () => {
    const r = parseFourEyesThresholds("EUR=50000, nok=400000.5,*=20000");
    expect(r.byCurrency).toMatchObject({ EUR: "50000.00", NOK: "400000.50", SEK: "1000000.00", DKK: "750000.00" });
    expect(r.fallback).toBe("20000.00");
    // Two decimals are allowed, and blanks around the amount are ignored.
    expect(parseFourEyesThresholds("SEK=250000.75,DKK= 90000 ").byCurrency).toMatchObject({
      SEK: "250000.75",
      DKK: "90000.00",
    });
  });

  it("refuses bad pairs, naming them", () => {
    expect(() => parseFourEyesThresholds("EUR")).toThrow(/"EUR": expected CODE=AMOUNT/);
    expect(() => parseFourEyesThresholds("EURO=5")).toThrow(/"EURO=5"/);
    expect(() => parseFourEyesThresholds("NOK=abc")).toThrow(/"NOK=abc": amount must be a positive decimal/);
    expect(() => parseFourEyesThresholds("NOK=0")).toThrow(/"NOK=0"/);
    expect(() => parseFourEyesThresholds("NOK=1.234")).toThrow(/at most 2 decimals/);
    expect(() => parseFourEyesThresholds(" , ")).toThrow(/expected CODE=AMOUNT pairs/);
    // A line break inside a pair (a pasted value) is refused, not read up to the break.
    expect(() => parseFourEyesThresholds("NOK=5\n000")).toThrow(/expected CODE=AMOUNT/);
  });

  it("is read from TREASURY_API_FOUR_EYES_THRESHOLD and --four-eyes-threshold", () => {
    expect(configFromEnv({}).fourEyesThresholds).toBeUndefined();
    expect(configFromEnv({ TREASURY_API_FOUR_EYES_THRESHOLD: "SEK=900000" }).fourEyesThresholds?.byCurrency.SEK).toBe(
      "900000.00",
    );
    expect(() => configFromEnv({ TREASURY_API_FOUR_EYES_THRESHOLD: "SEK=" })).toThrow(
      /TREASURY_API_FOUR_EYES_THRESHOLD/,
    );
    const { opts } = parseArgs(["--four-eyes-threshold", "EUR=100000,NOK=1000000,GBP=85000"]);
    expect(opts.config?.fourEyesThresholds?.byCurrency).toMatchObject({ EUR: "100000.00", GBP: "85000.00" });
  });
});

describe("required_count of a submitted batch", () => {
  let h: Harness;
  let seq = 0;
  beforeAll(async () => {
    h = await createHarness({ fourEyesThresholds: parseFourEyesThresholds("NOK=500000") });
  });
  afterAll(async () => {
    await h?.close();
  });

  async function requiredCount(currency: string, amount: string): Promise<number | undefined> {
    const created = await h.write("POST", "/payments/batches", {
      json: {
        company_id: IDS.companyA,
        currency,
        initiator: "maker@example.com",
        instructions: [
          {
            amount,
            currency,
            creditor_name: "Creditor",
            creditor_iban: "NO9386011117947",
            end_to_end_id: `FE-${++seq}`,
          },
        ],
      },
    });
    expect(created.status).toBe(201);
    const id = ((await created.json()) as { id: string }).id;
    const submit = await h.write("POST", `/payments/batches/${id}/submit`);
    expect(submit.status).toBe(202);
    const rows = await queryRows<{ required_count: number }>(
      h.database.db,
      sql`select required_count from approval_requests where object_id = ${id}`,
    );
    return rows[0]?.required_count;
  }

  it("uses the configured NOK threshold and the EUR default", async () => {
    expect(await requiredCount("NOK", "499999.99")).toBe(1);
    expect(await requiredCount("NOK", "500000.00")).toBe(2);
    expect(await requiredCount("EUR", "99999.99")).toBe(1);
    expect(await requiredCount("EUR", "100000.00")).toBe(2);
  });
});
