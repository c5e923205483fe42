/**
 * Test-only fixtures of the group reports' tests (docs/guides/fx-and-group-reporting.md; imported by `*.test.ts` only): numbered
 * ids, companies, and a rate loader that records what it was asked.
 */
import type { Company } from "@treasury/contract";
import type { FxRates } from "../fx/convert";

let n = 0;

/** A fresh UUID-shaped id, numbered in the order asked (`00000000-0000-4000-8000-000000000001`, …). */
export function testId(): string {
  return `00000000-0000-4000-8000-${String(++n).padStart(12, "0")}`;
}

/** A Norwegian-registered company named `name` with a fresh id. */
export function testCompany(name: string): Company {
  return { id: testId(), name, orgnr: "123456789", country: "NO" };
}

/** One question a report put to its rate loader: these currencies over these dates (YYYY-MM-DD). */
export interface RateQuestion {
  currencies: string[];
  from: string;
  to: string;
}

/** A rate loader that answers `rates` and keeps each question in `asked`, in order. */
export function recordingRates(rates: FxRates): {
  asked: RateQuestion[];
  loadRates: (q: RateQuestion) => Promise<FxRates>;
} {
  const asked: RateQuestion[] = [];
  return {
    asked,
    loadRates: async (q) => {
      asked.push(q);
      return rates;
    },
  };
}
