/**
 * The four-eyes rule for payment approvals (DESIGN.md "States and
 * transitions"): `required_count` is 1, or 2 when the batch total is at or
 * above the configured threshold (default 100000.00, compared in the batch
 * currency, no conversion).
 */
import { Decimal } from "decimal.js";

/**
 * Approvals a batch needs.
 * @param totalAmount the batch total, a decimal string in the batch currency
 * @param threshold the four-eyes threshold, a decimal string (AppConfig.fourEyesThreshold)
 * @returns 1 or 2
 */
export function requiredApprovals(totalAmount: string, threshold: string): 1 | 2 {
  return new Decimal(totalAmount).gte(new Decimal(threshold)) ? 2 : 1;
}
