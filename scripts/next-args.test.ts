/**
 * The arguments `npm run dev` and `npm start` give Next are ones Next takes: each flag of {@link nextArgs} is listed by
 * the installed `next <mode> --help`. `next dev` once refused `--keepAliveTimeout` as an unknown option, and the
 * README's first command did not start (CI only ever runs `next start`).
 */
import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { nextArgs } from "./next-args";

const NEXT_BIN = path.resolve(__dirname, "..", "node_modules", "next", "dist", "bin", "next");

describe("the Next command line of npm run dev and npm start", () => {
  for (const mode of ["dev", "start"] as const) {
    it(`next ${mode} knows every flag it is given`, () => {
      const help = execFileSync(process.execPath, [NEXT_BIN, mode, "--help"], {
        encoding: "utf8",
        env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
      });
      const flags = nextArgs(mode, "127.0.0.1", "3000").filter((a) => a.startsWith("-"));
      expect(flags.length).toBeGreaterThan(0);
      for (const flag of flags)
        expect(help, `next ${mode} --help lists ${flag}`).toMatch(new RegExp(`(^|[\\s,])${flag}\\b`));
      expect(nextArgs(mode, "127.0.0.1", "3000").slice(0, 1)).toEqual([mode]);
    });
  }

  it("gives only next start the keep-alive timeout", () => {
    expect(nextArgs("start", "127.0.0.1", "3000")).toContain("--keepAliveTimeout");
    expect(nextArgs("dev", "127.0.0.1", "3000")).not.toContain("--keepAliveTimeout");
  });
});
