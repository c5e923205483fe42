/**
 * Secrets at rest (docs/architecture.md#webhooks: secrets are encrypted at rest, also
 * inside stored idempotent responses): AES-256-GCM with a 32-byte key from
 * `TREASURY_API_SECRET_KEY`.
 *
 * Stored form: `enc:v1:` + base64url(12-byte IV ‖ 16-byte tag ‖ ciphertext).
 * A value without that prefix is a plain-text row from before encryption
 * (a webhook secret starts with `whsec_`, a stored response with `{` or `[`):
 * `openSecret` returns it as it is, and `prepareSecretsAtRest` encrypts such
 * rows when the server starts.
 *
 * Key sources, in order: the variable (64 hex digits, or base64 / base64url
 * of 32 bytes); else the file `secret-key` in the data folder (created with
 * a random key on first start, mode 0600); else, for an in-memory database,
 * a random key for this process. The database keeps a check value (table
 * `meta`, key `secret_key_check`) so that a server started with another key
 * stops with a message naming the variable instead of failing on every
 * delivery.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { eq, isNotNull, not, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { idempotencyKeys, meta, webhookEndpoints } from "../db/schema";

export const SECRET_KEY_VARIABLE = "TREASURY_API_SECRET_KEY";
/** Name of the key file in a PGlite data folder. */
export const SECRET_KEY_FILE = "secret-key";
const PREFIX = "enc:v1:";
const CHECK_KEY = "secret_key_check";
const CHECK_TEXT = "treasury-api secret key check";

/** A missing, malformed or wrong key; the message names the variable. */
export class SecretKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SecretKeyError";
  }
}

/**
 * Parses a key: 64 hex digits, or base64 / base64url of exactly 32 bytes.
 * @throws SecretKeyError naming `TREASURY_API_SECRET_KEY` for anything else.
 */
export function parseSecretKey(text: string): Buffer {
  const value = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(value)) return Buffer.from(value, "hex");
  if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(value)) {
    const bytes = Buffer.from(value.replace(/-/g, "+").replace(/_/g, "/"), "base64");
    if (bytes.length === 32) return bytes;
  }
  throw new SecretKeyError(
    `${SECRET_KEY_VARIABLE} must be 32 random bytes written as 64 hex digits or as base64 (e.g. the output of ` +
      `\`openssl rand -base64 32\`)`,
  );
}

/** True for a value written by `sealSecret`. */
export function isSealed(stored: string): boolean {
  return stored.startsWith(PREFIX);
}

/** Encrypts `plain` (UTF-8) with AES-256-GCM and a random IV. */
export function sealSecret(key: Buffer, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), data]).toString("base64url");
}

/**
 * Decrypts a `sealSecret` value; a plain-text (legacy) value is returned unchanged.
 * @throws SecretKeyError when the value was sealed with another key or is damaged.
 */
export function openSecret(key: Buffer, stored: string): string {
  if (!isSealed(stored)) return stored;
  const raw = Buffer.from(stored.slice(PREFIX.length), "base64url");
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
  } catch {
    throw new SecretKeyError(
      `A stored secret cannot be decrypted: ${SECRET_KEY_VARIABLE} is not the key it was encrypted with`,
    );
  }
}

let processKey: Buffer | undefined;
/** A random key for this process (in-memory databases and tests). */
export function ephemeralSecretKey(): Buffer {
  processKey ??= randomBytes(32);
  return processKey;
}

/**
 * The key for a server: from `TREASURY_API_SECRET_KEY` when set, else from
 * (or newly into) `<dataDir>/secret-key`, else (dataDir null or "memory") a
 * random key for this process.
 * @throws SecretKeyError when the variable or the key file is malformed.
 */
export function resolveSecretKey(
  env: Record<string, string | undefined>,
  dataDir: string | null,
): { key: Buffer; source: "variable" | "file" | "ephemeral" } {
  const fromEnv = env[SECRET_KEY_VARIABLE];
  if (fromEnv !== undefined && fromEnv.trim() !== "") return { key: parseSecretKey(fromEnv), source: "variable" };
  if (!dataDir || dataDir === "memory") return { key: ephemeralSecretKey(), source: "ephemeral" };
  const file = path.join(dataDir, SECRET_KEY_FILE);
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    try {
      writeFileSync(file, `${randomBytes(32).toString("base64")}\n`, { mode: 0o600, flag: "wx" });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err; // another process created it first: use theirs
    }
  }
  try {
    return { key: parseSecretKey(readFileSync(file, "utf8")), source: "file" };
  } catch (err) {
    if (err instanceof SecretKeyError)
      throw new SecretKeyError(
        `${file} does not hold a valid key (set ${SECRET_KEY_VARIABLE} or fix the file): ${err.message}`,
      );
    throw err;
  }
}

/**
 * At start: checks `key` against the database's check value (stored on first
 * use) and encrypts plain-text webhook secrets and stored idempotent
 * responses left by an older version. Returns how many rows it encrypted.
 * @throws SecretKeyError when the database was set up with another key.
 */
export async function prepareSecretsAtRest(db: Db, key: Buffer): Promise<{ encrypted: number }> {
  const [check] = await db.select().from(meta).where(eq(meta.key, CHECK_KEY));
  if (check) {
    let ok = false;
    try {
      ok = openSecret(key, String(check.value)) === CHECK_TEXT;
    } catch {
      ok = false;
    }
    if (!ok) {
      throw new SecretKeyError(
        `${SECRET_KEY_VARIABLE} is not the key this database's secrets were encrypted with; start with the key used ` +
          `before (or its secret-key file)`,
      );
    }
  } else {
    await db
      .insert(meta)
      .values({ key: CHECK_KEY, value: sealSecret(key, CHECK_TEXT) })
      .onConflictDoNothing();
  }
  return db.transaction(async (tx) => {
    let encrypted = 0;
    const endpoints = await tx
      .select({
        id: webhookEndpoints.id,
        secret: webhookEndpoints.secret,
        previousSecret: webhookEndpoints.previousSecret,
      })
      .from(webhookEndpoints)
      .where(sql`${webhookEndpoints.secret} not like 'enc:%' or ${webhookEndpoints.previousSecret} not like 'enc:%'`);
    for (const e of endpoints) {
      const previousSecret =
        e.previousSecret === null || isSealed(e.previousSecret) ? e.previousSecret : sealSecret(key, e.previousSecret);
      const secret = isSealed(e.secret) ? e.secret : sealSecret(key, e.secret);
      await tx.update(webhookEndpoints).set({ secret, previousSecret }).where(eq(webhookEndpoints.id, e.id));
      encrypted++;
    }
    const responses = await tx
      .select({ clientId: idempotencyKeys.clientId, key: idempotencyKeys.key, body: idempotencyKeys.responseBody })
      .from(idempotencyKeys)
      .where(
        sql`${isNotNull(idempotencyKeys.responseBody)} and ${not(sql`${idempotencyKeys.responseBody} like 'enc:%'`)}`,
      );
    for (const r of responses) {
      await tx
        .update(idempotencyKeys)
        .set({ responseBody: sealSecret(key, r.body ?? "") })
        .where(sql`${idempotencyKeys.clientId} = ${r.clientId} and ${idempotencyKeys.key} = ${r.key}`);
      encrypted++;
    }
    return { encrypted };
  });
}
