import { defineConfig, type Plugin } from "vitest/config";
import { fileURLToPath } from "node:url";

const PGLITE_TEMPLATE = fileURLToPath(new URL("./treasury-api/test/pglite-template.ts", import.meta.url));

/**
 * `@electric-sql/pglite` in the code under test resolves to the template-backed PGlite of
 * treasury-api/test/pglite-template.ts (a new database unpacked from one `initdb` made in the
 * global setup rather than running `initdb` again: about 4 s less per database).
 */
export const pgliteTemplate: Plugin = {
  name: "pglite-template",
  enforce: "pre",
  resolveId(id, importer) {
    if (id !== "@electric-sql/pglite" || !importer || importer.split("?")[0] === PGLITE_TEMPLATE) return null;
    return PGLITE_TEMPLATE;
  },
};

export default defineConfig({
  plugins: [pgliteTemplate],
  resolve: { alias: { "@": fileURLToPath(new URL("./", import.meta.url)) } },
  test: {
    include: ["**/*.test.ts", "**/*.test.tsx"],
    exclude: ["node_modules/**", ".next/**", "e2e/**", ".data/**", ".stryker-tmp/**", "reports/**"],
    globalSetup: ["treasury-api/test/global-setup.ts"],
    // Two files share the cores (maxWorkers below), and the tests that start a server process need more
    // than 30 s on a loaded 2-core machine.
    testTimeout: 60_000,
    // A harness that starts within 3 minutes of UTC midnight waits for the next day (treasury-api/test/harness.ts).
    hookTimeout: 300_000,
    pool: "forks",
    // vitest's default is one worker less than the cores: a single worker on a 2-core machine. Much of a test
    // file's time is spent waiting (child servers, PGlite start, sleeps in crash and restart tests), so two
    // files at a time keep both cores busy.
    maxWorkers: 2,
  },
});
