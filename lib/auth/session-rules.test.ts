import { describe, expect, it } from "vitest";
import { idleExpired, refreshedActivity, sessionCurrent } from "./session-rules";

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

describe("idle timeout", () => {
  const s = { sv: 3, authAt: T0 / 1000, lastActive: T0 / 1000 + 600 };
  const last = (T0 / 1000 + 600) * 1000;

  it("ends a session unused for the idle minutes, exactly at the limit", () => {
    expect(sessionCurrent(s, { sessionVersion: 3 }, last + 30 * 60_000 - 1, 12, 30)).toBe(true);
    expect(sessionCurrent(s, { sessionVersion: 3 }, last + 30 * 60_000, 12, 30)).toBe(false);
    expect(idleExpired(s, last + 5 * 60_000, 5)).toBe(true);
  });

  it("counts from sign-in when no activity was recorded", () => {
    expect(idleExpired({ authAt: T0 / 1000 }, T0 + 29 * 60_000, 30)).toBe(false);
    expect(idleExpired({ authAt: T0 / 1000 }, T0 + 30 * 60_000, 30)).toBe(true);
  });

  it("the absolute lifetime still applies to a session in constant use", () => {
    const busy = { sv: 3, authAt: T0 / 1000, lastActive: T0 / 1000 + 12 * 3600 - 60 };
    expect(sessionCurrent(busy, { sessionVersion: 3 }, T0 + 12 * 3_600_000, 12, 30)).toBe(false);
  });

  it("refreshes the activity at most once a minute and never revives an idle session", () => {
    expect(refreshedActivity(s, last + 59_999, 30)).toBeNull();
    expect(refreshedActivity(s, last + 60_000, 30)).toBe(last / 1000 + 60);
    expect(refreshedActivity(s, last + 29 * 60_000, 30)).toBe(last / 1000 + 29 * 60);
    expect(refreshedActivity(s, last + 30 * 60_000, 30)).toBeNull();
  });
});
