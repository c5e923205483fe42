/**
 * Test-only: one harness for a whole test file (docs/testing.md "Test helpers": one database per test file, never
 * per test), started in the file's `beforeAll` and closed in its `afterAll`.
 */
import { afterAll, beforeAll } from "vitest";
import type { AppConfig } from "../config";
import { createHarness, type Harness } from "./harness";

/**
 * Registers `beforeAll` (create the harness with `config`) and `afterAll` (close it) in the calling file or
 * `describe` block, and returns a harness that forwards to the one created there.
 * @throws Error when used before the `beforeAll` ran (e.g. at module load)
 */
export function harnessForFile(config: Partial<AppConfig> = {}): Harness {
  let started: Harness | undefined;
  beforeAll(async () => {
    started = await createHarness(config);
  });
  afterAll(() => started?.close());
  const live = (): Harness => {
    if (!started) throw new Error("the file's harness starts in beforeAll");
    return started;
  };
  return {
    get app() {
      return live().app;
    },
    get database() {
      return live().database;
    },
    token: (client, scope) => live().token(client, scope),
    call: (method, path, opts) => live().call(method, path, opts),
    write: (method, path, opts) => live().write(method, path, opts),
    close: () => live().close(),
  };
}
