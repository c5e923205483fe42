import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";

/** The unit tests Stryker runs against its mutants (stryker.config.mjs): the pure risk core, no browser, no e2e. */
export default defineConfig({
  resolve: { alias: { "@": fileURLToPath(new URL("./", import.meta.url)) } },
  test: {
    include: [
      "treasury-api/domain/payment-states.test.ts",
      "treasury-api/domain/matching.test.ts",
      "treasury-api/webhooks/signing.test.ts",
      "treasury-api/webhooks/retry-delay.test.ts",
      "lib/auth/roles.test.ts",
      "lib/bff/idempotency.test.ts",
      "lib/bff/queries/cross-company.test.ts",
      "lib/totals.test.ts",
      "lib/money.test.ts",
    ],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "threads",
  },
});
