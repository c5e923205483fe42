import { describe, expect, it } from "vitest";
import { derivedIdempotencyKey, uuidV5 } from "./idempotency";

describe("idempotency keys", () => {
  it("uuidV5 matches the RFC test vector (DNS namespace, www.example.com)", () => {
    expect(uuidV5("www.example.com", "6ba7b810-9dad-11d1-80b4-00c04fd430c8")).toBe(
      "2ed6657d-e927-568b-95e1-2665a8aea6a2",
    );
  });

  it("is stable per user and browser key, different across users", () => {
    const k = "0b7f3c2e-1111-4aaa-8bbb-123456789abc";
    expect(derivedIdempotencyKey("user-1", k)).toBe(derivedIdempotencyKey("user-1", k));
    expect(derivedIdempotencyKey("user-1", k)).not.toBe(derivedIdempotencyKey("user-2", k));
    expect(derivedIdempotencyKey("user-1", k)).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });

  it("a namespace that is not 16 bytes of hex is refused", () => {
    expect(() => uuidV5("x", "6ba7b810-9dad-11d1-80b4")).toThrow(new RangeError("namespace must be a UUID"));
    expect(() => uuidV5("x", "not a uuid")).toThrow(RangeError);
  });
});
