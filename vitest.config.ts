import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";

export default defineConfig({
  resolve: { alias: { "@": fileURLToPath(new URL("./", import.meta.url)) } },
  test: {
    include: ["**/*.test.ts", "**/*.test.tsx"],
    exclude: ["node_modules/**", ".next/**", "e2e/**", ".data/**", ".stryker-tmp/**", "reports/**"],
    testTimeout: 30_000,
    // A harness that starts within 3 minutes of UTC midnight waits for the next day (treasury-api/test/harness.ts).
    hookTimeout: 300_000,
    pool: "forks",
  },
});
