/**
 * A throw-away OpenSSH server on 127.0.0.1 for the SFTP bank-channel tests (docs/testing.md): Debian's
 * `openssh-server` (`.ci/run` installs it), started as `sshd -D -e -f <generated config> -p <free port>` with a
 * generated ed25519 host key and one authorized key, serving `internal-sftp`. The login is the current user
 * (root in CI). `findSshd()` returns null (the tests skip, printing why) when there is no sshd or ssh-keygen.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir, userInfo } from "node:os";
import path from "node:path";
import { freePort } from "./free-port";

export interface TempSshd {
  host: string;
  port: number;
  username: string;
  /** The client's private key (OpenSSH PEM) whose public half is authorized. */
  privateKey: string;
  /** The server's host key fingerprint as `ssh-keygen -lf` prints it (`SHA256:…`). */
  hostKeyFingerprint: string;
  /** A fingerprint of another, freshly generated key (the "bank changed its key" case). */
  otherFingerprint: string;
  /** A scratch folder the login can read and write (holds inbox/ and outbox/). */
  root: string;
  stop(): Promise<void>;
}

/**
 * The `sftp` channel of a bank-connection create body (docs/bank-channels.md) for this server: its address, the
 * login with the authorized key, its inbox/ and outbox/ folders and its host key pinned. `fingerprint` pins another
 * key (a bank that changed its key), `port` goes through a proxy instead.
 */
export function sftpChannelOf(sshd: TempSshd, over: { fingerprint?: string; port?: number } = {}) {
  return {
    channel: "sftp" as const,
    host: sshd.host,
    port: over.port ?? sshd.port,
    username: sshd.username,
    private_key: sshd.privateKey,
    host_key_fingerprint: over.fingerprint ?? sshd.hostKeyFingerprint,
    inbox: path.join(sshd.root, "inbox"),
    outbox: path.join(sshd.root, "outbox"),
  };
}

/** The sshd binary, or null. */
export function findSshd(): string | null {
  for (const p of ["/usr/sbin/sshd", "/usr/local/sbin/sshd", "/sbin/sshd"]) if (existsSync(p)) return p;
  return null;
}

/** Why SFTP tests cannot run here, or null when they can. */
export function sshdSkipReason(): string | null {
  if (findSshd() === null) return "no sshd (apt-get install -y openssh-server)";
  if (spawnSync("ssh-keygen", ["-?"], { stdio: "ignore" }).error) return "no ssh-keygen";
  return null;
}

function keygen(file: string): string {
  const r = spawnSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", file], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`ssh-keygen failed: ${r.stderr}`);
  const fp = spawnSync("ssh-keygen", ["-l", "-E", "sha256", "-f", `${file}.pub`], { encoding: "utf8" });
  const m = /(SHA256:[A-Za-z0-9+/]+)/.exec(fp.stdout);
  if (!m?.[1]) throw new Error(`no fingerprint from ssh-keygen: ${fp.stdout}${fp.stderr}`);
  return m[1];
}

async function waitForBanner(port: number, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`sshd exited (${child.exitCode}): ${log()}`);
    const ok = await new Promise<boolean>((resolve) => {
      const s = connect(port, "127.0.0.1");
      s.once("data", (d) => {
        s.destroy();
        resolve(d.toString().startsWith("SSH-"));
      });
      s.once("error", () => resolve(false));
      setTimeout(() => {
        s.destroy();
        resolve(false);
      }, 2000);
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`sshd did not answer on port ${port}: ${log()}`);
}

/** Starts sshd. @throws when it cannot start (callers skip with the message). */
export async function startTempSshd(): Promise<TempSshd> {
  const sshd = findSshd();
  if (sshd === null) throw new Error("no sshd");
  const dir = mkdtempSync(path.join(tmpdir(), "treasury-sshd-"));
  const hostKeyFingerprint = keygen(path.join(dir, "host_key"));
  keygen(path.join(dir, "client_key"));
  const otherFingerprint = keygen(path.join(dir, "other_key"));
  writeFileSync(path.join(dir, "authorized_keys"), readFileSync(path.join(dir, "client_key.pub")), { mode: 0o600 });
  const root = path.join(dir, "files");
  mkdirSync(path.join(root, "inbox"), { recursive: true });
  mkdirSync(path.join(root, "outbox"), { recursive: true });
  if (process.getuid?.() === 0) mkdirSync("/run/sshd", { recursive: true }); // privilege separation directory
  const port = await freePort();
  const config = [
    "ListenAddress 127.0.0.1",
    `HostKey ${path.join(dir, "host_key")}`,
    `AuthorizedKeysFile ${path.join(dir, "authorized_keys")}`,
    "PasswordAuthentication no",
    "KbdInteractiveAuthentication no",
    "PubkeyAuthentication yes",
    "PermitRootLogin prohibit-password",
    "StrictModes no",
    "UsePAM no",
    "PidFile none",
    "Subsystem sftp internal-sftp",
    "LogLevel ERROR",
  ].join("\n");
  writeFileSync(path.join(dir, "sshd_config"), `${config}\n`);
  let log = "";
  const child = spawn(sshd, ["-D", "-e", "-f", path.join(dir, "sshd_config"), "-p", String(port)], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  child.stderr?.on("data", (d: Buffer) => (log = (log + d.toString()).slice(-4000)));
  try {
    await waitForBanner(port, child, () => log);
  } catch (err) {
    child.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    host: "127.0.0.1",
    port,
    username: userInfo().username,
    privateKey: readFileSync(path.join(dir, "client_key"), "utf8"),
    hostKeyFingerprint,
    otherFingerprint,
    root,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
