/** Signature scheme and retry schedule (docs/architecture.md#webhooks): pure unit tests. */
import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  EVENT_ID_HEADER,
  SIGNATURE_HEADER,
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

describe("parseSignatureHeader", () => {
  const hex = "ab".repeat(32);
  const hex2 = "0f".repeat(32);

  it("reads the timestamp and every well-formed v1 signature, spaces around parts and '=' allowed", () => {
    expect(parseSignatureHeader(`t=1767000000,v1=${hex},v1=${hex2}`)).toEqual({
      timestamp: 1_767_000_000,
      signatures: [hex, hex2],
    });
    expect(parseSignatureHeader(` t = 42 , v1 = ${hex} `)).toEqual({ timestamp: 42, signatures: [hex] });
  });

  it("skips other schemes, empty keys and v1 values that are not 64 lower-case hex digits", () => {
    const odd = [`v0=${hex2}`, `=${hex2}`, `v1=${hex2.toUpperCase()}`, `v1=${hex2}0`, `v1=x${hex2}`, `v1=${hex2}x`];
    expect(parseSignatureHeader(["t=7", ...odd, `v1=${hex}`].join(","))).toEqual({ timestamp: 7, signatures: [hex] });
  });

  it.each([
    ["a part without '='", `t=7,v1${hex},v1=${hex2}`],
    ["no timestamp", `v1=${hex}`],
    ["no usable signature", `t=7,v2=${hex}`],
    ["a bad timestamp after a good signature", `v1=${hex},t=x7`],
    ["a timestamp with a suffix", `t=7s,v1=${hex}`],
    ["a timestamp with a prefix", `t=-7,v1=${hex}`],
    ["a timestamp of 13 digits", `t=1234567890123,v1=${hex}`],
    ["two timestamps", `t=7,t=8,v1=${hex}`],
  ])("null for %s", (_, header) => {
    expect(parseSignatureHeader(header)).toBeNull();
  });
});

describe("defaults: now", () => {
  it("signatureHeader stamps the current Unix second; verifySignature compares with the current time", () => {
    const before = Math.floor(Date.now() / 1000);
    const header = signatureHeader(["whsec_now"], body);
    const t = Number(/^t=(\d+),/.exec(header)?.[1]);
    expect(t).toBeGreaterThanOrEqual(before);
    expect(t).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    expect(verifySignature(header, body, "whsec_now")).toBe(true);
    expect(verifySignature(signatureHeader(["whsec_now"], body, before - 301), body, "whsec_now")).toBe(false);
  });

  it("the header names are the wire contract", () => {
    expect(SIGNATURE_HEADER).toBe("X-Service-Signature");
    expect(EVENT_ID_HEADER).toBe("X-Service-Event-Id");
  });

  it("signing without a secret is an error", () => {
    expect(() => signatureHeader([], body, now)).toThrow("signatureHeader needs at least one secret");
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
