import { describe, expect, it } from "vitest";
import { formatTimestamp } from "./format-date";
import { DEFAULT_LOCALE, localeFromAcceptLanguage, validTimeZone } from "./viewer";

describe("locale from Accept-Language", () => {
  it("takes the first supported tag, honouring quality values", () => {
    expect(localeFromAcceptLanguage("nb-NO,nb;q=0.9,en;q=0.8")).toBe("nb-NO");
    expect(localeFromAcceptLanguage("en-US")).toBe("en-US");
    expect(localeFromAcceptLanguage("de;q=0.5, en-gb;q=0.9")).toBe("en-GB");
    expect(localeFromAcceptLanguage("*, fr-FR;q=0.7")).toBe("fr-FR");
  });

  it("falls back to the default for absent, empty or malformed headers", () => {
    expect(localeFromAcceptLanguage(undefined)).toBe(DEFAULT_LOCALE);
    expect(localeFromAcceptLanguage("")).toBe(DEFAULT_LOCALE);
    expect(localeFromAcceptLanguage("not a tag!!, ;q=1")).toBe(DEFAULT_LOCALE);
    expect(localeFromAcceptLanguage("en;q=0")).toBe(DEFAULT_LOCALE);
  });
});

describe("time zone cookie", () => {
  it("accepts IANA zones and refuses anything else", () => {
    expect(validTimeZone("Europe/Oslo")).toBe("Europe/Oslo");
    expect(validTimeZone("America/New_York")).toBe("America/New_York");
    expect(validTimeZone("UTC")).toBe("UTC");
    expect(validTimeZone("Mars/Olympus")).toBeNull();
    expect(validTimeZone("<script>")).toBeNull();
    expect(validTimeZone("")).toBeNull();
    expect(validTimeZone(undefined)).toBeNull();
    expect(validTimeZone("x".repeat(65))).toBeNull();
  });
});

describe("instants in the viewer's zone", () => {
  it("shows the same instant as local time in Oslo and New York, with the zone when asked", () => {
    const at = "2026-11-23T06:16:37Z";
    expect(formatTimestamp(at, "en-GB", { timeZone: "Europe/Oslo" })).toBe("23 Nov 2026, 07:16");
    expect(formatTimestamp(at, "en-GB", { timeZone: "America/New_York", seconds: true })).toBe("23 Nov 2026, 01:16:37");
    expect(formatTimestamp(at, "en-GB", { timeZone: "Europe/Oslo", zoneName: true })).toBe("23 Nov 2026, 07:16 CET");
    expect(formatTimestamp(at, "en-US", { timeZone: "America/New_York", zoneName: true })).toBe(
      "Nov 23, 2026, 01:16 AM EST",
    );
  });
});
