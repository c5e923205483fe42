/** Signature scheme and retry schedule (DESIGN.md "Webhooks"): pure unit tests. */
import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  computeSignature,
  generateWebhookSecret,
  parseSignatureHeader,
  signatureHeader,
  verifySignature,
} from "./signing";
import { MAX_ATTEMPTS, RETRY_DELAYS_MS, retryDelayMs } from "./delivery";

const body =
  '{"id":"e1","type":"transaction.created","created_at":"2026-01-10T08:00:00.000Z","data":{"amount":"10.00"}}';
const now = 1_767_000_000;

describe("secrets", () => {
  it("whsec_ + base64 of 32 random bytes, different each time", () => {
    const a = generateWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(a.slice(6), "base64")).toHaveLength(32);
    expect(generateWebhookSecret()).not.toBe(a);
  });
});

describe("signatureHeader / verifySignature", () => {
  const secret = "whsec_test-one";
  const other = "whsec_test-two";

  it("t=<unix seconds>,v1=<hex HMAC-SHA256(secret, '<t>.<body>')>", () => {
    const header = signatureHeader([secret], body, now);
    const expected = createHmac("sha256", secret).update(`${now}.${body}`).digest("hex");
    expect(header).toBe(`t=${now},v1=${expected}`);
    expect(computeSignature(secret, now, body)).toBe(expected);
  });

  it("one v1= per secret; either secret verifies", () => {
    const header = signatureHeader([secret, other], body, now);
    expect(parseSignatureHeader(header)?.signatures).toHaveLength(2);
    expect(verifySignature(header, body, secret, 300, now)).toBe(true);
    expect(verifySignature(header, body, [other], 300, now)).toBe(true);
  });

  it.each([
    ["tampered body", (h: string) => verifySignature(h, body.replace("10.00", "99.00"), secret, 300, now)],
    ["wrong secret", (h: string) => verifySignature(h, body, "whsec_wrong", 300, now)],
    ["older than 5 minutes", (h: string) => verifySignature(h, body, secret, 300, now + 301)],
    ["from the future beyond tolerance", (h: string) => verifySignature(h, body, secret, 300, now - 301)],
    ["missing header", () => verifySignature(undefined, body, secret, 300, now)],
    ["no timestamp", (h: string) => verifySignature(h.replace(/^t=\d+,/, ""), body, secret, 300, now)],
    ["garbage", () => verifySignature("hello", body, secret, 300, now)],
    ["two timestamps", (h: string) => verifySignature(`t=${now},${h}`, body, secret, 300, now)],
    ["short signature", () => verifySignature(`t=${now},v1=abcd`, body, secret, 300, now)],
  ])("rejects: %s", (_name, check) => {
    expect(check(signatureHeader([secret], body, now))).toBe(false);
  });

  it("accepts at the edge of the tolerance and ignores unknown schemes", () => {
    const header = `${signatureHeader([secret], body, now)},v0=deadbeef`;
    expect(verifySignature(header, body, secret, 300, now + 300)).toBe(true);
  });
});

describe("retry schedule", () => {
  it("1 min, 5 min, 30 min, 2 h, 6 h, 12 h, 24 h; eight attempts in all", () => {
    expect(RETRY_DELAYS_MS.map((ms) => ms / 60_000)).toEqual([1, 5, 30, 120, 360, 720, 1440]);
    expect(MAX_ATTEMPTS).toBe(8);
  });

  it("scaled and jittered within ±20 %", () => {
    expect(retryDelayMs(1, 1, 0.5)).toBe(60_000);
    expect(retryDelayMs(1, 1, 0)).toBe(48_000);
    expect(retryDelayMs(1, 1, 0.999999)).toBeCloseTo(72_000, -1);
    expect(retryDelayMs(7, 0.001, 0.5)).toBe(86_400);
    expect(retryDelayMs(99, 1, 0.5)).toBe(86_400_000);
  });
});
