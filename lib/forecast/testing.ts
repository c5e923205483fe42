/**
 * Test fixtures of the forecast engine's unit tests (not used by the app).
 */
import type { Flow } from "./types";

/**
 * A manual forecast flow whose band is the amount itself (P10 = P50 = P90).
 * `amount` is a signed decimal string in `currency`; `date` is `YYYY-MM-DD`.
 */
export function manualFlow(date: string, amount: string, category: string, company: string, currency: string): Flow {
  return { date, company, currency, category, amount, p10: amount, p90: amount, source: "manual" };
}
