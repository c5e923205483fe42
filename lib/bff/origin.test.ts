import { describe, expect, it } from "vitest";
import { originAllowed } from "./origin";

describe("originAllowed", () => {
  const PUBLIC = "https://treasury.example.com/some/path";

  it("accepts the public URL's origin and the listed extra origins only", () => {
    expect(originAllowed("https://treasury.example.com", PUBLIC)).toBe(true);
    expect(originAllowed("https://second.example.com", PUBLIC, ["https://second.example.com"])).toBe(true);
    expect(originAllowed("https://evil.example", PUBLIC, ["https://second.example.com"])).toBe(false);
  });

  it("compares scheme, host and port exactly", () => {
    expect(originAllowed("http://treasury.example.com", PUBLIC)).toBe(false);
    expect(originAllowed("https://treasury.example.com:8443", PUBLIC)).toBe(false);
    expect(originAllowed("http://localhost:3000", "http://127.0.0.1:3000")).toBe(false);
    expect(originAllowed("http://127.0.0.1:3000", "http://127.0.0.1:3000")).toBe(true);
  });

  it("refuses a missing Origin, the literal null origin, and everything when nothing is configured", () => {
    expect(originAllowed(null, PUBLIC)).toBe(false);
    // An empty Origin header never matches, even when an empty entry slipped into the configured list.
    expect(originAllowed("", PUBLIC, [""])).toBe(false);
    expect(originAllowed("null", PUBLIC)).toBe(false);
    expect(originAllowed("http://127.0.0.1:3000", undefined)).toBe(false);
  });
});
