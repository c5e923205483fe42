import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";
import { pgliteTemplate } from "./vitest.config";

/**
 * The tests Stryker runs against its mutants (stryker.config.mjs): the ones that exercise the risk core, no browser,
 * no e2e. Stryker runs only the files that import the mutated file (vitest `related`), and per mutant only the tests
 * that reached it. `MUTATION_TESTS` (comma-separated paths) narrows the list further while iterating on one file.
 */
const RISK_CORE_TESTS = [
  // Payment and approval states, four-eyes (the rule and the API's initiator check).
  "treasury-api/domain/payment-states.test.ts",
  "treasury-api/routes/approvals/four-eyes.test.ts",
  "treasury-api/test/four-eyes-threshold.test.ts",
  // The caller check of every route, the data scope, the idempotency middleware.
  "treasury-api/routes/define-route.test.ts",
  "treasury-api/lib/scope.test.ts",
  "treasury-api/middleware/idempotency.test.ts",
  // The bank simulator's step and the matcher.
  "treasury-api/domain/bank-simulator.test.ts",
  "treasury-api/domain/bank-simulator.steps.test.ts",
  "treasury-api/domain/matching.test.ts",
  "treasury-api/routes/reconciliation/reconciliation.test.ts",
  // Webhook signing and the retry schedule.
  "treasury-api/webhooks/signing.test.ts",
  "treasury-api/webhooks/retry-delay.test.ts",
  // BFF: role table, company narrowing, the per-user Idempotency-Key, withUser.
  "lib/auth/roles.test.ts",
  "lib/bff/company.test.ts",
  "lib/bff/idempotency.test.ts",
  "lib/bff/queries/cross-company.test.ts",
  "lib/bff/route.test.ts",
  "lib/bff/origin.test.ts",
  "lib/auth/session-rules.test.ts",
  // Money sums.
  "lib/totals.test.ts",
  "lib/money.test.ts",
];

const only = process.env.MUTATION_TESTS?.split(",").filter(Boolean);

export default defineConfig({
  // The same PGlite template as `npm test`: every mutant re-runs its test file, and so opens its database again;
  // unpacking the ready-made cluster instead of running initdb saves seconds per mutant.
  plugins: [pgliteTemplate],
  resolve: { alias: { "@": fileURLToPath(new URL("./", import.meta.url)) } },
  test: {
    include: only?.length ? only : RISK_CORE_TESTS,
    globalSetup: ["treasury-api/test/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "threads",
  },
});
