// Mutation testing of the risk core (`npm run test:mutation`): Stryker changes one
// thing at a time in the files below and expects a test to fail. Not part of `npm test`
// (slow on 2 cores); concurrency 1 because the machine is shared.
// HTML report: reports/mutation/index.html (git-ignored).
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: "vitest",
  vitest: { configFile: "vitest.mutation.config.ts", related: false },
  plugins: ["@stryker-mutator/vitest-runner"],
  coverageAnalysis: "perTest",
  concurrency: 1,
  timeoutMS: 30_000,
  mutate: [
    // Payment and approval states, four-eyes.
    "treasury-api/domain/payment-states.ts",
    "treasury-api/domain/four-eyes.ts",
    // Role table and company narrowing of the BFF; the per-user Idempotency-Key.
    "lib/auth/roles.ts",
    "lib/bff/queries/cross-company.ts",
    "lib/bff/idempotency.ts",
    // Webhook signing and the retry schedule (retryDelayMs only; the rest of delivery.ts is I/O).
    "treasury-api/webhooks/signing.ts",
    "treasury-api/webhooks/delivery.ts:73-80",
    // Matcher scoring (pure part of matching.ts).
    "treasury-api/domain/matching.ts:55-162",
    // Money sums.
    "lib/totals.ts",
  ],
  reporters: ["html", "clear-text", "progress"],
  htmlReporter: { fileName: "reports/mutation/index.html" },
  thresholds: { high: 90, low: 85, break: null },
  tempDirName: ".stryker-tmp",
  cleanTempDir: true,
};
