/**
 * The four-eyes rule for payment approvals (docs/architecture.md#four-eyes,
 * docs/treasury-api.md#states-and-transitions): `required_count` is 1, or 2 when the batch total is at or
 * above the four-eyes threshold of the batch's currency (compared in that
 * currency, no conversion).
 *
 * Thresholds are configured per currency (`--four-eyes-threshold
 * EUR=100000,NOK=1000000`, `TREASURY_API_FOUR_EYES_THRESHOLD`); the defaults
 * are round amounts worth about EUR 100,000 for the demo currencies
 * (`DEFAULT_FOUR_EYES_THRESHOLDS`). A currency without its own threshold uses
 * the fallback (`*=` in the option; default 100000.00 in the batch currency,
 * the rule before thresholds were per currency), so an unlisted currency is
 * never left without four-eyes.
 */
import { Decimal } from "decimal.js";

/** Four-eyes thresholds: decimal strings by ISO 4217 code, and the fallback for any other currency. */
export interface FourEyesThresholds {
  /** e.g. `{ EUR: "100000.00", NOK: "1000000.00" }`. */
  byCurrency: Readonly<Record<string, string>>;
  /** For a currency not in `byCurrency`, compared in that currency. */
  fallback: string;
}

/**
 * The default thresholds, about EUR 100,000 in each demo currency (rounded to a memorable amount):
 * EUR 100,000; USD 100,000; NOK 1,000,000; SEK 1,000,000; DKK 750,000; any other currency 100,000.
 */
export const DEFAULT_FOUR_EYES_THRESHOLDS: FourEyesThresholds = {
  byCurrency: {
    EUR: "100000.00",
    USD: "100000.00",
    NOK: "1000000.00",
    SEK: "1000000.00",
    DKK: "750000.00",
  },
  fallback: "100000.00",
};

/** The threshold that applies to a batch in `currency` (its own, else the fallback), a decimal string. */
export function thresholdFor(currency: string, thresholds: FourEyesThresholds): string {
  return thresholds.byCurrency[currency.toUpperCase()] ?? thresholds.fallback;
}

/**
 * Approvals a batch needs.
 * @param totalAmount the batch total, a decimal string in the batch currency
 * @param currency the batch currency (ISO 4217)
 * @param thresholds the configured thresholds (AppConfig.fourEyesThresholds)
 * @returns 1 or 2
 */
export function requiredApprovals(totalAmount: string, currency: string, thresholds: FourEyesThresholds): 1 | 2 {
  return new Decimal(totalAmount).gte(new Decimal(thresholdFor(currency, thresholds))) ? 2 : 1;
}

const AMOUNT = /^\d{1,15}(\.\d{1,2})?$/;

/**
 * Parses the option value `EUR=100000,NOK=1000000,*=100000`: comma-separated `CODE=AMOUNT` pairs (ISO 4217 code
 * or `*` for the fallback; a positive decimal amount with at most 2 decimals). The pairs override the defaults
 * one currency at a time; currencies not named keep their default.
 * @throws Error naming the bad pair (e.g. `four-eyes threshold "NOK=abc": amount must be a positive decimal`).
 */
export function parseFourEyesThresholds(
  value: string,
  base: FourEyesThresholds = DEFAULT_FOUR_EYES_THRESHOLDS,
): FourEyesThresholds {
  const byCurrency: Record<string, string> = { ...base.byCurrency };
  let fallback = base.fallback;
  const pairs = value
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean);
  if (pairs.length === 0) throw new Error("four-eyes threshold: expected CODE=AMOUNT pairs, e.g. EUR=100000");
  for (const pair of pairs) {
    const m = /^([A-Za-z]{3}|\*)=(.+)$/.exec(pair);
    if (!m) throw new Error(`four-eyes threshold "${pair}": expected CODE=AMOUNT (e.g. EUR=100000, or *=100000)`);
    const code = (m[1] as string).toUpperCase();
    const amount = (m[2] as string).trim();
    if (!AMOUNT.test(amount) || new Decimal(amount).lte(0))
      throw new Error(`four-eyes threshold "${pair}": amount must be a positive decimal with at most 2 decimals`);
    const normalized = new Decimal(amount).toFixed(2);
    if (code === "*") fallback = normalized;
    else byCurrency[code] = normalized;
  }
  return { byCurrency, fallback };
}
