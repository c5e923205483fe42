/**
 * Bank channel transports (docs/bank-channels.md): the two ways files travel between us and a bank.
 * `folder`: two local directories (a portal that syncs to a share; the demo). `sftp`: the bank's SFTP
 * server through ssh2-sftp-client, its host key pinned by SHA-256 fingerprint.
 *
 * Every operation names files by a checked bare name (`safeBankFileName`): a name from the bank that is not
 * one (a slash, `..`, a leading dot, control characters, longer than 200) is never joined to a path. Every
 * read is bounded (`maxBytes`) and every remote operation times out (`timeoutMs`): a stalled server ends the
 * connection instead of hanging the worker.
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { Writable } from "node:stream";
import SftpClient from "ssh2-sftp-client";

/** A file listed in a bank's outbox. */
export interface ListedFile {
  name: string;
  size: number;
}

/** An open channel; `close()` always ends it (also after an error). */
export interface ChannelSession {
  /** The regular files in the outbox (the bank's side), names as listed (not yet checked). */
  listOutbox(): Promise<ListedFile[]>;
  /** The file's bytes. @throws ChannelError when it is larger than `maxBytes` (nothing more is read). */
  readOutbox(name: string, maxBytes: number): Promise<Buffer>;
  /** Removes the file from the outbox. */
  deleteOutbox(name: string): Promise<void>;
  /** Moves the file into the archive folder (created when missing). */
  archiveOutbox(name: string, archiveDir: string): Promise<void>;
  /** True when the inbox (the bank's side for payment files) holds `name`. */
  inboxHas(name: string): Promise<boolean>;
  /** Writes `name` into the inbox atomically: a temporary dot-name first, renamed once complete. */
  writeInbox(name: string, data: Buffer): Promise<void>;
  close(): Promise<void>;
}

/** Channel settings as stored (no secrets). */
export type ChannelSettings =
  | { channel: "folder"; inbox_dir: string; outbox_dir: string }
  | {
      channel: "sftp";
      host: string;
      port: number;
      username: string;
      host_key_fingerprint: string;
      inbox: string;
      outbox: string;
      /** Which credential the sealed secret holds (shown as has_password / has_private_key). */
      auth?: "password" | "private_key";
    };

/** Decrypted credentials of an sftp connection. */
export interface ChannelSecret {
  password?: string;
  private_key?: string;
  passphrase?: string;
}

/** A transport failure with a message fit for the connection's status (no secrets in it). */
export class ChannelError extends Error {
  constructor(
    message: string,
    readonly kind: "host_key" | "timeout" | "too_large" | "unsafe_name" | "io" = "io",
  ) {
    super(message);
    this.name = "ChannelError";
  }
}

/** Longest file name accepted from a bank. */
export const MAX_BANK_FILE_NAME = 200;

/**
 * The bank's file name when it is a bare, harmless name (letters, digits, `._-+=@,` and spaces inside; no leading
 * dot, no separators, no `..`), else null: such a file is recorded as refused and never opened.
 */
export function safeBankFileName(name: string): string | null {
  if (name.length === 0 || name.length > MAX_BANK_FILE_NAME) return null;
  if (!/^[A-Za-z0-9_+=@,-][A-Za-z0-9 ._+=@,-]*$/.test(name)) return null;
  if (name.includes("..") || name.endsWith(" ") || name.endsWith(".")) return null;
  return name;
}

/** `name` checked by `safeBankFileName`. @throws ChannelError (unsafe_name) otherwise. */
function checked(name: string): string {
  const ok = safeBankFileName(name);
  if (ok === null) throw new ChannelError(`refused file name ${JSON.stringify(name.slice(0, 80))}`, "unsafe_name");
  return ok;
}

/** OpenSSH's fingerprint of a raw host key: `SHA256:` + unpadded base64 of its SHA-256. */
export function hostKeyFingerprint(key: Buffer): string {
  return `SHA256:${createHash("sha256").update(key).digest("base64").replace(/=+$/, "")}`;
}

/** A fingerprint as given by an admin, normalised (`SHA256:` prefix, no padding), or null when it is not one. */
export function normaliseFingerprint(text: string): string | null {
  const m = /^(?:SHA256:)?([A-Za-z0-9+/]{43})=?$/.exec(text.trim());
  return m ? `SHA256:${m[1]}` : null;
}

/** Reads at most `maxBytes` of a stream into a buffer. @throws ChannelError (too_large) beyond. */
function boundedSink(maxBytes: number, label: string): { sink: Writable; result: () => Buffer } {
  const chunks: Buffer[] = [];
  let total = 0;
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      total += chunk.length;
      if (total > maxBytes) return done(new ChannelError(`${label} is larger than ${maxBytes} bytes`, "too_large"));
      chunks.push(chunk);
      done();
    },
  });
  return { sink, result: () => Buffer.concat(chunks) };
}

/** `op` or a ChannelError (timeout) after `ms`, calling `onTimeout` (which ends the connection). */
async function withTimeout<T>(op: Promise<T>, ms: number, what: string, onTimeout: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onTimeout();
      reject(new ChannelError(`${what} timed out after ${ms} ms`, "timeout"));
    }, ms);
  });
  try {
    return await Promise.race([op, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** A folder channel session: plain file system calls on the two directories. */
function folderSession(s: { inbox_dir: string; outbox_dir: string }): ChannelSession {
  const inOutbox = (name: string) => path.join(s.outbox_dir, checked(name));
  return {
    async listOutbox() {
      const entries = await fs.readdir(s.outbox_dir, { withFileTypes: true });
      const out: ListedFile[] = [];
      for (const e of entries) {
        if (!e.isFile()) continue;
        const st = await fs.stat(path.join(s.outbox_dir, e.name)).catch(() => null);
        if (st) out.push({ name: e.name, size: st.size });
      }
      return out.sort((a, b) => a.name.localeCompare(b.name));
    },
    async readOutbox(name, maxBytes) {
      const { sink, result } = boundedSink(maxBytes, name);
      await new Promise<void>((resolve, reject) => {
        const src = createReadStream(inOutbox(name));
        src.on("error", reject);
        sink.on("error", (e) => {
          src.destroy();
          reject(e);
        });
        sink.on("finish", resolve);
        src.pipe(sink);
      });
      return result();
    },
    async deleteOutbox(name) {
      await fs.rm(inOutbox(name), { force: true });
    },
    async archiveOutbox(name, archiveDir) {
      await fs.mkdir(archiveDir, { recursive: true });
      await fs.rename(inOutbox(name), path.join(archiveDir, checked(name)));
    },
    async inboxHas(name) {
      return fs.stat(path.join(s.inbox_dir, checked(name))).then(
        () => true,
        () => false,
      );
    },
    async writeInbox(name, data) {
      const final = path.join(s.inbox_dir, checked(name));
      const tmp = path.join(s.inbox_dir, `.${checked(name)}.part`);
      await fs.mkdir(s.inbox_dir, { recursive: true });
      await fs.writeFile(tmp, data);
      await fs.rename(tmp, final);
    },
    async close() {},
  };
}

export interface OpenOptions {
  /** Per operation (connect, list, read, write); default 30 s. */
  timeoutMs?: number;
}

/** The sftp settings of a channel (a channel that is not a folder). */
type SftpSettings = Exclude<ChannelSettings, { channel: "folder" }>;

/**
 * Connects `client` to the sftp server of `settings`, checking the server's host key against the pinned
 * fingerprint before any credential is sent; `abort` ends the client.
 * @throws ChannelError host_key (different key), timeout, io (refused, authentication failed)
 */
async function connectSftp(
  client: SftpClient,
  settings: SftpSettings,
  secret: ChannelSecret | null,
  timeoutMs: number,
  abort: () => void,
): Promise<void> {
  let seenFingerprint: string | null = null;
  try {
    await withTimeout(
      client.connect({
        host: settings.host,
        port: settings.port,
        username: settings.username,
        password: secret?.password,
        privateKey: secret?.private_key,
        passphrase: secret?.passphrase,
        readyTimeout: timeoutMs,
        retries: 0,
        hostVerifier: (key: Buffer) => {
          seenFingerprint = hostKeyFingerprint(key);
          return seenFingerprint === settings.host_key_fingerprint;
        },
      }),
      timeoutMs,
      `connecting to ${settings.host}:${settings.port}`,
      abort,
    );
  } catch (err) {
    abort();
    if (seenFingerprint !== null && seenFingerprint !== settings.host_key_fingerprint)
      throw new ChannelError(
        `host key of ${settings.host}:${settings.port} is ${seenFingerprint}, not the pinned ` +
          `${settings.host_key_fingerprint}: connection refused`,
        "host_key",
      );
    if (err instanceof ChannelError) throw err;
    throw new ChannelError(`cannot connect to ${settings.host}:${settings.port}: ${(err as Error).message}`);
  }
}

/**
 * The session over a connected sftp `client`: every operation bounded by `timeoutMs` (then `abort`), its errors
 * as ChannelError (timeout, io); an upload goes to a `.part` file renamed into place.
 */
function sftpSession(client: SftpClient, settings: SftpSettings, timeoutMs: number, abort: () => void): ChannelSession {
  const remote = (dir: string, name: string) => path.posix.join(dir, checked(name));
  const op = <T>(p: Promise<T>, what: string) =>
    withTimeout(p, timeoutMs, what, abort).catch((err: unknown) => {
      if (err instanceof ChannelError) throw err;
      throw new ChannelError(`${what}: ${(err as Error).message}`);
    });
  return {
    async listOutbox() {
      const entries = await op(client.list(settings.outbox), `listing ${settings.outbox}`);
      return entries
        .filter((e) => e.type === "-")
        .map((e) => ({ name: e.name, size: e.size }))
        .sort((a, b) => a.name.localeCompare(b.name));
    },
    async readOutbox(name, maxBytes) {
      const { sink, result } = boundedSink(maxBytes, name);
      await op(client.get(remote(settings.outbox, name), sink), `reading ${name}`);
      return result();
    },
    async deleteOutbox(name) {
      await op(client.delete(remote(settings.outbox, name), true), `deleting ${name}`);
    },
    async archiveOutbox(name, archiveDir) {
      await op(client.mkdir(archiveDir, true), `creating ${archiveDir}`);
      await op(
        client.rename(remote(settings.outbox, name), path.posix.join(archiveDir, checked(name))),
        `archiving ${name}`,
      );
    },
    async inboxHas(name) {
      return (await op(client.exists(remote(settings.inbox, name)), `looking for ${name}`)) !== false;
    },
    async writeInbox(name, data) {
      const tmp = path.posix.join(settings.inbox, `.${checked(name)}.part`);
      await op(client.put(data, tmp), `uploading ${name}`);
      await op(client.rename(tmp, remote(settings.inbox, name)), `renaming ${name}`);
    },
    async close() {
      await client.end().catch(() => undefined);
    },
  };
}

/**
 * Opens a session on a connection's channel. For sftp the server's host key must match the pinned fingerprint,
 * else the connection is refused before any credential is sent.
 * @throws ChannelError host_key (different key), timeout, io (refused, authentication failed, no such folder)
 */
export async function openChannel(
  settings: ChannelSettings,
  secret: ChannelSecret | null,
  opts: OpenOptions = {},
): Promise<ChannelSession> {
  if (settings.channel === "folder") return folderSession(settings);
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const client = new SftpClient("bank-channel");
  const abort = () => void client.end().catch(() => undefined);
  await connectSftp(client, settings, secret, timeoutMs, abort);
  return sftpSession(client, settings, timeoutMs, abort);
}
