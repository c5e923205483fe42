/**
 * The Chromium that the Playwright e2e tests (and `npm run bench:ui`) run in.
 *
 * Looked for in this order, the first that exists wins:
 *   1. `PLAYWRIGHT_CHROMIUM_EXECUTABLE`, when set (a set but wrong path is an
 *      error, not a reason to try the others);
 *   2. Playwright's own Chromium, as `npx playwright install chromium` puts it
 *      (the path Playwright's browser registry gives for this version);
 *   3. `/usr/bin/chromium`, then `chromium`, `chromium-browser`, `google-chrome` on PATH;
 *   4. on Debian or Ubuntu, as root: `apt-get install -y chromium`, then 3 again.
 * Otherwise the run stops with a message naming the three ways to get one.
 *
 * `npm test` runs this file (`npm run test:e2e` = `tsx scripts/chromium.ts && playwright test`)
 * after lint, typecheck and the unit tests, so those report on their own;
 * `.ci/run` gets its browser the same way. playwright.config.ts calls
 * `findChromium()` (the same order, without installing).
 * `resolveChromium` is pure: every look at the machine goes through a `BrowserProbe`.
 */
import { spawnSync } from "node:child_process";
import { accessSync, constants, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "@playwright/test";

/** What `resolveChromium` may know about the machine. */
export interface BrowserProbe {
  env: Readonly<Record<string, string | undefined>>;
  /** True when `file` is an existing regular file this process may execute. */
  isExecutable(file: string): boolean;
  /** Where Playwright's own Chromium is when installed (whether it is or not), or null when Playwright cannot say. */
  playwrightChromium(): string | null;
  /** The text of /etc/os-release, or null when there is none. */
  osRelease(): string | null;
  isRoot(): boolean;
}

export type ChromiumSource = "PLAYWRIGHT_CHROMIUM_EXECUTABLE" | "playwright" | "system";

export type ChromiumResolution =
  | { kind: "found"; executable: string; source: ChromiumSource }
  | { kind: "install"; command: string[] }
  | { kind: "missing"; message: string };

/** Headless Chromium flags for a quiet, repeatable browser on a shared machine (the e2e tests and the benchmarks). */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export const ENV_VAR = "PLAYWRIGHT_CHROMIUM_EXECUTABLE";
const SYSTEM_CHROMIUM = "/usr/bin/chromium";
const PATH_NAMES = ["chromium", "chromium-browser", "google-chrome"] as const;
/** What step 4 runs (after `apt-get update`). */
export const APT_INSTALL = ["apt-get", "install", "-y", "-qq", "chromium"];

/** The message when no browser is found: the three ways to get one. */
export const NO_BROWSER_MESSAGE = [
  "e2e: no Chromium found, so the Playwright tests cannot run (lint, typecheck and unit tests ran above).",
  "Get one in any of these three ways, then run `npm test` again:",
  "  1. npx playwright install chromium                 Playwright's own Chromium, no root needed",
  "  2. apt-get install -y chromium                     or your system's Chromium / Google Chrome package, so that",
  "                                                     chromium, chromium-browser or google-chrome is on PATH",
  `  3. ${ENV_VAR}=/path/to/chrome npm test   a Chromium or Chrome you already have`,
].join("\n");

/**
 * Decides which Chromium to use, in the order of the module docstring.
 * @param allowInstall whether step 4 may be proposed (the config only looks)
 * @returns found (path and where it came from), install (the apt command to run, then resolve again) or missing (the
 * message)
 */
export function resolveChromium(probe: BrowserProbe, allowInstall: boolean): ChromiumResolution {
  const fromEnv = probe.env[ENV_VAR];
  if (fromEnv) {
    if (probe.isExecutable(fromEnv)) return { kind: "found", executable: fromEnv, source: ENV_VAR };
    return {
      kind: "missing",
      message: `e2e: ${ENV_VAR} is set to ${fromEnv}, which is not an executable file. Fix or unset it.`,
    };
  }
  const own = probe.playwrightChromium();
  if (own && probe.isExecutable(own)) return { kind: "found", executable: own, source: "playwright" };
  if (probe.isExecutable(SYSTEM_CHROMIUM)) return { kind: "found", executable: SYSTEM_CHROMIUM, source: "system" };
  const dirs = (probe.env.PATH ?? "").split(path.delimiter).filter((d) => d !== "");
  for (const name of PATH_NAMES) {
    for (const dir of dirs) {
      const candidate = path.join(dir, name);
      if (probe.isExecutable(candidate)) return { kind: "found", executable: candidate, source: "system" };
    }
  }
  if (
    allowInstall &&
    probe.isRoot() &&
    isDebianLike(probe.osRelease()) &&
    dirs.some((d) => probe.isExecutable(path.join(d, "apt-get")))
  ) {
    return { kind: "install", command: APT_INSTALL };
  }
  return { kind: "missing", message: NO_BROWSER_MESSAGE };
}

/** True for Debian, Ubuntu and their derivatives (`ID` or `ID_LIKE` in /etc/os-release). */
export function isDebianLike(osRelease: string | null): boolean {
  if (osRelease === null) return false;
  const field = (key: string) => new RegExp(`^${key}="?([^"\\n]*)"?$`, "m").exec(osRelease)?.[1] ?? "";
  return `${field("ID")} ${field("ID_LIKE")}`.split(/\s+/).some((id) => id === "debian" || id === "ubuntu");
}

/** Runs a command; returns its exit code (null: killed or not started). */
export type CommandRunner = (command: string[]) => number | null;

/**
 * `resolveChromium` with installing: when it proposes the apt install, runs
 * `apt-get update` and the install, then looks again (without installing).
 * @returns found, or missing with the message (also when the install failed)
 */
export function ensureChromium(
  probe: BrowserProbe,
  run: CommandRunner,
  log: (line: string) => void,
): ChromiumResolution {
  const first = resolveChromium(probe, true);
  if (first.kind !== "install") return first;
  log(`e2e: no Chromium found; installing Debian's: apt-get update && ${first.command.join(" ")}`);
  const updated = run(["apt-get", "update", "-qq"]);
  const installed = updated === 0 ? run(first.command) : updated;
  if (installed !== 0)
    return {
      kind: "missing",
      message: `e2e: installing Chromium with apt-get failed (exit ${String(installed)}).\n${NO_BROWSER_MESSAGE}`,
    };
  return resolveChromium(probe, false);
}

/** The probe of this machine and process. */
export function systemProbe(env: NodeJS.ProcessEnv = process.env): BrowserProbe {
  return {
    env,
    isExecutable(file) {
      try {
        accessSync(file, constants.X_OK);
        return statSync(file).isFile();
      } catch {
        return false;
      }
    },
    playwrightChromium() {
      try {
        return chromium.executablePath() || null;
      } catch {
        return null;
      }
    },
    osRelease() {
      try {
        return readFileSync("/etc/os-release", "utf8");
      } catch {
        return null;
      }
    },
    isRoot: () => typeof process.getuid === "function" && process.getuid() === 0,
  };
}

/**
 * The Chromium to launch, without installing anything (playwright.config.ts, bench:ui).
 * @throws Error with the message naming the ways to get one when there is none
 */
export function findChromium(probe: BrowserProbe = systemProbe()): string {
  const found = resolveChromium(probe, false);
  if (found.kind !== "found") throw new Error(found.kind === "missing" ? found.message : NO_BROWSER_MESSAGE);
  return found.executable;
}

/**
 * The command line: finds or installs Chromium, prints which one, and exits 0;
 * prints the message and exits 1 when there is none.
 */
export function main(
  probe: BrowserProbe,
  run: CommandRunner,
  out: (text: string) => void,
  err: (text: string) => void,
): number {
  const result = ensureChromium(probe, run, (line) => out(`${line}\n`));
  if (result.kind === "found") {
    const where = {
      PLAYWRIGHT_CHROMIUM_EXECUTABLE: `from ${ENV_VAR}`,
      playwright: "Playwright's own",
      system: "system",
    }[result.source];
    out(`e2e: Chromium ${result.executable} (${where})\n`);
    return 0;
  }
  err(`${result.kind === "missing" ? result.message : NO_BROWSER_MESSAGE}\n`);
  return 1;
}

/**
 * Runs apt quietly, as .ci/run does: its progress (hundreds of "Unpacking …" lines even with -qq) is
 * dropped, its errors (stderr) are shown, and a failure is reported with the exit code by `ensureChromium`.
 */
const runCommand: CommandRunner = (command) => {
  const [file, ...args] = command;
  if (file === undefined) return null;
  return spawnSync(file, args, {
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  }).status;
};

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(
    systemProbe(),
    runCommand,
    (t) => process.stdout.write(t),
    (t) => process.stderr.write(t),
  );
}
