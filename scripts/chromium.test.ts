/** Which Chromium the e2e tests use: the order of scripts/chromium.ts, on a fake machine. */
import { describe, expect, it } from "vitest";
import {
  APT_INSTALL,
  ENV_VAR,
  NO_BROWSER_MESSAGE,
  ensureChromium,
  findChromium,
  isDebianLike,
  main,
  resolveChromium,
  type BrowserProbe,
} from "./chromium";

const PW = "/home/kari/.cache/ms-playwright/chromium-1255/chrome-linux64/chrome";
const DEBIAN = 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nID=debian\nVERSION_ID="12"\n';
const UBUNTU = 'NAME="Ubuntu"\nID=ubuntu\nID_LIKE=debian\n';
const FEDORA = 'NAME="Fedora Linux"\nID=fedora\n';

/** A machine with exactly the executables `files`, Playwright's path at `PW`. */
function probe(
  opts: { files?: string[]; env?: Record<string, string>; root?: boolean; os?: string | null; pw?: string | null } = {},
): BrowserProbe & { files: Set<string> } {
  const files = new Set(opts.files ?? []);
  return {
    files,
    env: { PATH: "/usr/local/bin:/usr/bin:/bin", ...opts.env },
    isExecutable: (file) => files.has(file),
    playwrightChromium: () => (opts.pw === undefined ? PW : opts.pw),
    osRelease: () => (opts.os === undefined ? DEBIAN : opts.os),
    isRoot: () => opts.root ?? false,
  };
}

describe("resolveChromium: the order", () => {
  const everything = [
    PW,
    "/usr/bin/chromium",
    "/usr/local/bin/chromium",
    "/usr/bin/google-chrome",
    "/opt/chrome/chrome",
  ];
  const cases: [string, Parameters<typeof probe>[0], string, string][] = [
    [
      "PLAYWRIGHT_CHROMIUM_EXECUTABLE first, whatever else exists",
      { files: everything, env: { [ENV_VAR]: "/opt/chrome/chrome" } },
      "/opt/chrome/chrome",
      ENV_VAR,
    ],
    ["then Playwright's own Chromium", { files: everything }, PW, "playwright"],
    ["then /usr/bin/chromium", { files: everything.filter((f) => f !== PW) }, "/usr/bin/chromium", "system"],
    [
      "Playwright's path that is not installed does not count",
      { files: ["/usr/bin/chromium"], pw: PW },
      "/usr/bin/chromium",
      "system",
    ],
    [
      "Playwright unable to name a path does not count",
      { files: ["/usr/bin/chromium"], pw: null },
      "/usr/bin/chromium",
      "system",
    ],
    [
      "then chromium on PATH",
      { files: ["/usr/local/bin/chromium", "/usr/local/bin/google-chrome"] },
      "/usr/local/bin/chromium",
      "system",
    ],
    [
      "chromium-browser before google-chrome",
      { files: ["/usr/local/bin/google-chrome", "/bin/chromium-browser"] },
      "/bin/chromium-browser",
      "system",
    ],
    ["google-chrome last", { files: ["/bin/google-chrome"] }, "/bin/google-chrome", "system"],
    [
      "PATH order within one name",
      { files: ["/bin/chromium", "/usr/local/bin/chromium"], env: { PATH: "/bin:/usr/local/bin" } },
      "/bin/chromium",
      "system",
    ],
  ];
  for (const [what, machine, executable, source] of cases) {
    it(what, () => {
      expect(resolveChromium(probe(machine), true)).toEqual({ kind: "found", executable, source });
    });
  }

  it("a set but wrong PLAYWRIGHT_CHROMIUM_EXECUTABLE is an error naming it, not a fallback", () => {
    const r = resolveChromium(probe({ files: everything, env: { [ENV_VAR]: "/nope/chrome" } }), true);
    expect(r).toEqual({
      kind: "missing",
      message: `e2e: ${ENV_VAR} is set to /nope/chrome, which is not an executable file. Fix or unset it.`,
    });
  });

  it("an empty PLAYWRIGHT_CHROMIUM_EXECUTABLE counts as unset", () => {
    expect(resolveChromium(probe({ files: ["/usr/bin/chromium"], env: { [ENV_VAR]: "" } }), true)).toMatchObject({
      executable: "/usr/bin/chromium",
    });
  });
});

describe("resolveChromium: none found", () => {
  const apt = ["/usr/bin/apt-get"];
  it("as root on Debian or Ubuntu with apt-get: install Debian's chromium", () => {
    expect(resolveChromium(probe({ files: apt, root: true, os: DEBIAN }), true)).toEqual({
      kind: "install",
      command: APT_INSTALL,
    });
    expect(resolveChromium(probe({ files: apt, root: true, os: UBUNTU }), true)).toEqual({
      kind: "install",
      command: APT_INSTALL,
    });
    expect(APT_INSTALL).toEqual(["apt-get", "install", "-y", "-qq", "chromium"]);
  });

  const missing: [string, Parameters<typeof probe>[0], boolean][] = [
    ["not root", { files: apt, root: false, os: DEBIAN }, true],
    ["another distribution", { files: apt, root: true, os: FEDORA }, true],
    ["no /etc/os-release (macOS)", { files: apt, root: true, os: null }, true],
    ["no apt-get", { files: [], root: true, os: DEBIAN }, true],
    ["installing not allowed (the config only looks)", { files: apt, root: true, os: DEBIAN }, false],
  ];
  for (const [what, machine, allowInstall] of missing) {
    it(`${what}: stops with the message`, () => {
      expect(resolveChromium(probe(machine), allowInstall)).toEqual({ kind: "missing", message: NO_BROWSER_MESSAGE });
    });
  }

  it("the message names the three ways to get a browser", () => {
    expect(NO_BROWSER_MESSAGE).toContain("npx playwright install chromium");
    expect(NO_BROWSER_MESSAGE).toContain("apt-get install -y chromium");
    expect(NO_BROWSER_MESSAGE).toContain("PLAYWRIGHT_CHROMIUM_EXECUTABLE=/path/to/chrome npm test");
    expect(NO_BROWSER_MESSAGE).toMatch(/unit tests ran/);
  });

  it("isDebianLike reads ID and ID_LIKE, quoted or not", () => {
    expect([DEBIAN, UBUNTU, 'ID="linuxmint"\nID_LIKE="ubuntu debian"\n', FEDORA, ""].map(isDebianLike)).toEqual([
      true,
      true,
      true,
      false,
      false,
    ]);
  });
});

describe("ensureChromium and the command line", () => {
  it("runs apt-get update and the install, then uses /usr/bin/chromium", () => {
    const machine = probe({ files: ["/usr/bin/apt-get"], root: true });
    const ran: string[][] = [];
    const result = ensureChromium(
      machine,
      (command) => {
        ran.push(command);
        if (command[1] === "install") machine.files.add("/usr/bin/chromium");
        return 0;
      },
      () => undefined,
    );
    expect(ran).toEqual([["apt-get", "update", "-qq"], APT_INSTALL]);
    expect(result).toEqual({ kind: "found", executable: "/usr/bin/chromium", source: "system" });
  });

  it("a failed install stops with the exit code and the message; nothing is installed when a browser exists", () => {
    const ran: string[][] = [];
    const failing = ensureChromium(
      probe({ files: ["/usr/bin/apt-get"], root: true }),
      (c) => (ran.push(c), c[1] === "update" ? 0 : 100),
      () => undefined,
    );
    expect(failing).toEqual({
      kind: "missing",
      message: `e2e: installing Chromium with apt-get failed (exit 100).\n${NO_BROWSER_MESSAGE}`,
    });
    ran.length = 0;
    ensureChromium(
      probe({ files: ["/usr/bin/apt-get", "/usr/bin/chromium"], root: true }),
      (c) => (ran.push(c), 0),
      () => undefined,
    );
    expect(ran).toEqual([]);
  });

  it("main prints the browser and returns 0, or prints the message on stderr and returns 1 before any e2e run", () => {
    const io = { out: "", err: "" };
    const code = main(
      probe({ files: [PW] }),
      () => 0,
      (t) => (io.out += t),
      (t) => (io.err += t),
    );
    expect([code, io.out, io.err]).toEqual([0, `e2e: Chromium ${PW} (Playwright's own)\n`, ""]);
    const none = { out: "", err: "" };
    const codeNone = main(
      probe({ files: [] }),
      () => 0,
      (t) => (none.out += t),
      (t) => (none.err += t),
    );
    expect([codeNone, none.out, none.err]).toEqual([1, "", `${NO_BROWSER_MESSAGE}\n`]);
  });

  it("findChromium throws the message when there is no browser", () => {
    expect(() => findChromium(probe({ files: [] }))).toThrow(NO_BROWSER_MESSAGE);
    expect(findChromium(probe({ files: ["/usr/bin/chromium"] }))).toBe("/usr/bin/chromium");
  });
});
