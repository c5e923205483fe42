import { describe, expect, it } from "vitest";
import { sessionCurrent } from "./session-rules";

const T0 = Date.parse("2026-11-23T06:00:00Z");
const signedIn = { sv: 3, authAt: T0 / 1000 };

describe("sessionCurrent", () => {
  it("stands while the user's session version is the one signed in under and the lifetime has not passed", () => {
    expect(sessionCurrent(signedIn, { sessionVersion: 3 }, T0 + 60_000, 12)).toBe(true);
    expect(sessionCurrent(signedIn, { sessionVersion: 3 }, T0 + 12 * 3_600_000 - 1, 12)).toBe(true);
  });

  it("ends when the version was raised (sign-out, disabling, a role change) or is unknown", () => {
    expect(sessionCurrent(signedIn, { sessionVersion: 4 }, T0 + 1000, 12)).toBe(false);
    expect(sessionCurrent({ sv: -1, authAt: signedIn.authAt }, { sessionVersion: 0 }, T0 + 1000, 12)).toBe(false);
  });

  it("ends at the absolute lifetime, exactly", () => {
    expect(sessionCurrent(signedIn, { sessionVersion: 3 }, T0 + 12 * 3_600_000, 12)).toBe(false);
    expect(sessionCurrent(signedIn, { sessionVersion: 3 }, T0 + 2 * 3_600_000, 2)).toBe(false);
  });
});
