// Mutation testing of the risk core (`npm run test:mutation`): Stryker changes one
// thing at a time in the files below and expects a test to fail. Not part of `npm test`
// (slow on 2 cores); concurrency 1 because the machine is shared. Stryker runs only
// the test files that import the mutated file (`related`), per mutant only the tests that reach it.
// HTML report: reports/mutation/index.html (git-ignored).
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: "vitest",
  vitest: { configFile: "vitest.mutation.config.ts", related: true },
  plugins: ["@stryker-mutator/vitest-runner"],
  coverageAnalysis: "perTest",
  concurrency: 1,
  timeoutMS: 30_000,
  mutate: [
    // Payment and approval states, four-eyes (the threshold rule and the API's initiator / one-client checks).
    "treasury-api/domain/payment-states.ts",
    "treasury-api/domain/four-eyes.ts",
    "treasury-api/db/repos/approvals.ts:88-139",
    // The caller check every route runs (scope, write approval, tenant and company headers) and the data scope.
    "treasury-api/middleware/access.ts",
    "treasury-api/lib/scope.ts",
    // Idempotency of every write.
    "treasury-api/middleware/idempotency.ts",
    // The bank simulator's step (verdict, pace, take and settle).
    "treasury-api/domain/bank-simulator.ts",
    // The matcher: scoring and the proposals (threshold, best first, at most three per transaction).
    "treasury-api/domain/matching.ts:55-182",
    "treasury-api/domain/matching.ts:272-325",
    // Webhook signing and the retry schedule (retryDelayMs only; the rest of delivery.ts is I/O).
    "packages/contract/src/webhook-signing.ts",
    "treasury-api/webhooks/delivery.ts:81-84",
    // BFF: the withUser wrapper, the role table, company narrowing, the per-user Idempotency-Key.
    "lib/bff/route.ts",
    "lib/bff/origin.ts",
    "lib/auth/session-rules.ts",
    "lib/auth/roles.ts",
    "lib/bff/company.ts:36-71",
    "lib/bff/queries/cross-company.ts",
    "lib/bff/idempotency.ts",
    // Money sums.
    "lib/totals.ts",
  ],
  reporters: ["html", "clear-text", "progress"],
  htmlReporter: { fileName: "reports/mutation/index.html" },
  thresholds: { high: 90, low: 85, break: null },
  tempDirName: ".stryker-tmp",
  cleanTempDir: true,
};
