/**
 * Secrets and identifiers: random tokens, hashing of client secrets and access
 * tokens (docs/architecture.md#tokens: opaque random bearer tokens, stored hashed).
 * Client secrets and tokens are high-entropy random strings, so one SHA-256
 * is the right hash (a password KDF would only add latency).
 */
import { createHash, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";

/** SHA-256 hex of a secret or token. */
export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}

/** Constant-time check of `secret` against a stored `hashSecret` value. */
export function verifySecret(secret: string, storedHash: string): boolean {
  const a = Buffer.from(hashSecret(secret), "hex");
  const b = Buffer.from(storedHash, "hex");
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A URL-safe random token of `bytes` random bytes. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString("base64url");
}

/** A random UUID v4. */
export function newId(): string {
  return randomUUID();
}
