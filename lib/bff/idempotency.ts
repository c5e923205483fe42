/**
 * Idempotency keys forwarded upstream: the browser
 * makes one key per logical operation; the BFF forwards UUIDv5(user id +
 * browser key) so that one user can never replay another user's response.
 */
import { createHash } from "node:crypto";

/** A fixed namespace for the dashboard's derived keys (random, generated once). */
export const DASHBOARD_KEY_NAMESPACE = "5b0f4c1e-8d3a-4e59-9c61-3f2a7d8b9e10";

/** RFC 9562 UUID version 5 (SHA-1, name-based) of `name` in `namespace`. */
export function uuidV5(name: string, namespace: string): string {
  const ns = Buffer.from(namespace.replace(/-/g, ""), "hex");
  if (ns.length !== 16) throw new RangeError("namespace must be a UUID");
  const hash = createHash("sha1").update(ns).update(name, "utf8").digest();
  const b = hash.subarray(0, 16);
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x50;
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
  const hex = b.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The key sent upstream for this user's browser key. */
export function derivedIdempotencyKey(userId: string, browserKey: string): string {
  return uuidV5(`${userId}:${browserKey}`, DASHBOARD_KEY_NAMESPACE);
}
