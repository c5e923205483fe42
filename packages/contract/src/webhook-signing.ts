/**
 * Webhook signing (docs/treasury-api.md#webhooks "Each delivery carries the header
 * X-Service-Signature"; docs/architecture.md#webhooks).
 *
 *   X-Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>[,v1=…]
 *
 * One `v1=` per valid secret: during the 24 h after a rotation the old secret
 * still signs too, so a receiver that has not switched yet keeps verifying.
 * Receivers reject a timestamp older than 5 minutes (replay protection).
 *
 * This module has no dependency on the server: the local API (treasury-api/webhooks/signing.ts re-exports it), the
 * dashboard's receiver (app/api/webhooks/treasury) and tests import it, and the snippet in docs/guides/webhooks.md
 * does the same as `verifySignature`.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/** Header names of a delivery. */
export const SIGNATURE_HEADER = "X-Service-Signature";
export const EVENT_ID_HEADER = "X-Service-Event-Id";

/** Default tolerance between the signature timestamp and now (seconds). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/** A new endpoint secret: `whsec_` + base64 of 32 random bytes. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

/** Hex HMAC-SHA256 of `"<t>.<raw body>"` with `secret` (the whole `whsec_…` string is the key). */
export function computeSignature(secret: string, timestamp: number, rawBody: string): string {
  return createHmac("sha256", secret).update(`${timestamp}.${rawBody}`, "utf8").digest("hex");
}

/**
 * The `X-Service-Signature` value for `rawBody`, signed with every secret in
 * `secrets` (current first). `timestamp` is Unix seconds.
 * @throws Error when `secrets` is empty.
 */
export function signatureHeader(
  secrets: readonly string[],
  rawBody: string,
  timestamp = Math.floor(Date.now() / 1000),
): string {
  if (secrets.length === 0) throw new Error("signatureHeader needs at least one secret");
  return [`t=${timestamp}`, ...secrets.map((s) => `v1=${computeSignature(s, timestamp, rawBody)}`)].join(",");
}

/** `t=…,v1=…,v1=…` → its timestamp and signatures; null when malformed. */
export function parseSignatureHeader(header: string): { timestamp: number; signatures: string[] } | null {
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const part of header.split(",")) {
    const eq = part.indexOf("=");
    if (eq < 0) return null;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === "t") {
      if (!/^\d{1,12}$/.test(value) || timestamp !== null) return null;
      timestamp = Number(value);
    } else if (key === "v1") {
      if (/^[0-9a-f]{64}$/.test(value)) signatures.push(value);
    }
    // Other schemes (v0, v2, …) are ignored so a receiver survives a future addition.
  }
  if (timestamp === null || signatures.length === 0) return null;
  return { timestamp, signatures };
}

/**
 * Verifies a delivery: true when the header is well formed, its timestamp is
 * within `toleranceSeconds` of `now` (either way), and at least one `v1=`
 * matches HMAC-SHA256 over `"<t>.<rawBody>"` with one of `secrets`.
 * Compare in constant time; use the raw body bytes as received (not re-serialized JSON).
 *
 * @param header the `X-Service-Signature` value (or null/undefined when absent: false)
 * @param rawBody the request body exactly as received
 * @param secrets the endpoint secret(s) the receiver holds (`whsec_…`)
 * @param toleranceSeconds maximum age (and clock skew) accepted, default 300
 * @param now current time in Unix seconds (for tests)
 */
export function verifySignature(
  header: string | null | undefined,
  rawBody: string,
  secrets: string | readonly string[],
  toleranceSeconds = SIGNATURE_TOLERANCE_SECONDS,
  now = Math.floor(Date.now() / 1000),
): boolean {
  if (!header) return false;
  const parsed = parseSignatureHeader(header);
  if (!parsed) return false;
  if (Math.abs(now - parsed.timestamp) > toleranceSeconds) return false;
  const keys = typeof secrets === "string" ? [secrets] : secrets;
  for (const secret of keys) {
    const expected = Buffer.from(computeSignature(secret, parsed.timestamp, rawBody), "hex");
    for (const sig of parsed.signatures) {
      const given = Buffer.from(sig, "hex");
      if (given.length === expected.length && timingSafeEqual(given, expected)) return true;
    }
  }
  return false;
}
