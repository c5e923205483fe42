/** Failpoints are inert unless a test arms them outside production (lib/failpoints.ts). */
import { describe, expect, it } from "vitest";
import { parseFailpoints } from "./failpoints";

describe("parseFailpoints", () => {
  const named = { TREASURY_API_FAILPOINT: "idempotency.after-commit, bank.before-commit@3" };

  it(
    "arms the named points, first hit by default or the N-th with @N, only with TREASURY_API_TEST_FAILPOINTS=1 " +
      "outside production",
    () => {
      expect([...parseFailpoints({ ...named, TREASURY_API_TEST_FAILPOINTS: "1", NODE_ENV: "test" })]).toEqual([
        ["idempotency.after-commit", 1],
        ["bank.before-commit", 3],
      ]);
    },
  );

  it.each([
    ["production", { ...named, TREASURY_API_TEST_FAILPOINTS: "1", NODE_ENV: "production" }],
    ["no test switch", { ...named, NODE_ENV: "test" }],
    ["a switch other than 1", { ...named, TREASURY_API_TEST_FAILPOINTS: "true" }],
  ])("arms nothing with %s", (_, env) => {
    expect(parseFailpoints(env).size).toBe(0);
  });
});
