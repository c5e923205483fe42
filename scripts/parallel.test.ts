import { describe, expect, it } from "vitest";
import { headline, main } from "./parallel";

describe("scripts/parallel.ts", () => {
  it("heads each script's output with its name, result and duration", () => {
    expect(headline({ name: "lint", code: 0, output: "", seconds: 41.26 })).toBe("── lint: ok (41.3 s)");
    expect(headline({ name: "typecheck", code: 2, output: "", seconds: 3 })).toBe(
      "── typecheck: FAILED (exit 2) (3.0 s)",
    );
    expect(headline({ name: "x", code: null, output: "", seconds: 0.04 })).toBe(
      "── x: FAILED (exit by signal) (0.0 s)",
    );
  });

  it("runs every script to the end and exits 1 when any failed, each output under its own heading", async () => {
    let out = "";
    expect(await main(["no-such-script-a", "no-such-script-b"], (t) => (out += t))).toBe(1);
    for (const name of ["no-such-script-a", "no-such-script-b"])
      expect(out).toMatch(
        new RegExp(`── ${name}: FAILED \\(exit 1\\) \\([0-9.]+ s\\)\\n[^]*Missing script: "${name}"`),
      );
  }, 60_000);

  it("prints its usage and exits 2 without script names", async () => {
    let out = "";
    expect(await main([], (t) => (out += t))).toBe(2);
    expect(out).toMatch(/^usage: tsx scripts\/parallel\.ts SCRIPT\.\.\./);
  });
});
