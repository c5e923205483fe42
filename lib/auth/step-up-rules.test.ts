import { describe, expect, it } from "vitest";
import {
  STEP_UP_MAX_AGE_MS,
  challengeUsable,
  checkStepUp,
  stepUpMode,
  stepUpNeeded,
  stepUpNeededFor,
  type StepUpProof,
} from "./step-up-rules";

const NOW = Date.parse("2026-11-23T12:00:00.000Z");
const USER = "u-1";
const SESSION = "s-1";
const A1 = "a-1";
const A2 = "a-2";

function proof(over: Partial<StepUpProof> = {}): StepUpProof {
  return {
    userId: USER,
    sessionId: SESSION,
    action: "approval.decide",
    subjects: [A1, A2],
    verifiedAt: new Date(NOW - 60_000).toISOString(),
    ...over,
  };
}

function check(over: Partial<Parameters<typeof checkStepUp>[0]> = {}) {
  return checkStepUp({
    mode: "required",
    hasPasskey: true,
    proof: proof(),
    userId: USER,
    sessionId: SESSION,
    action: "approval.decide",
    subjects: [A1],
    nowMs: NOW,
    ...over,
  });
}

describe("step-up mode", () => {
  it("defaults to required outside demo mode and optional in demo mode; the setting wins", () => {
    expect(stepUpMode({ DASHBOARD_DEMO: false })).toBe("required");
    expect(stepUpMode({ DASHBOARD_DEMO: true })).toBe("optional");
    expect(stepUpMode({ DASHBOARD_DEMO: true, DASHBOARD_STEP_UP: "required" })).toBe("required");
    expect(stepUpMode({ DASHBOARD_DEMO: false, DASHBOARD_STEP_UP: "off" })).toBe("off");
  });

  it("required: everyone; optional: only users with a passkey; off: nobody", () => {
    expect([stepUpNeeded("required", false), stepUpNeeded("required", true)]).toEqual([true, true]);
    expect([stepUpNeeded("optional", false), stepUpNeeded("optional", true)]).toEqual([false, true]);
    expect([stepUpNeeded("off", false), stepUpNeeded("off", true)]).toEqual([false, false]);
  });
});

describe("checkStepUp", () => {
  it("accepts a fresh proof of this user and session covering the subject", () => {
    expect(check()).toEqual({ ok: true, stepUp: "verified" });
  });

  it("stands at exactly 5 minutes and not a millisecond later", () => {
    const at = (ms: number) => proof({ verifiedAt: new Date(NOW - ms).toISOString() });
    expect(check({ proof: at(STEP_UP_MAX_AGE_MS) })).toEqual({ ok: true, stepUp: "verified" });
    expect(check({ proof: at(STEP_UP_MAX_AGE_MS + 1) })).toEqual({ ok: false, reason: "step_up_expired" });
  });

  it("refuses a proof that names an unparsable time as expired", () => {
    expect(check({ proof: proof({ verifiedAt: "not a time" }) })).toEqual({ ok: false, reason: "step_up_expired" });
  });

  it("one assertion covers every selected subject, and nothing else", () => {
    expect(check({ subjects: [A1, A2] })).toEqual({ ok: true, stepUp: "verified" });
    expect(check({ subjects: [A1, "a-3"] })).toEqual({ ok: false, reason: "step_up_wrong_scope" });
    expect(check({ subjects: [] })).toEqual({ ok: false, reason: "step_up_wrong_scope" });
  });

  it("an assertion for another kind of decision does not serve", () => {
    expect(check({ action: "counterparty.verify" })).toEqual({ ok: false, reason: "step_up_wrong_scope" });
  });

  it("refuses another session's or another user's proof", () => {
    expect(check({ sessionId: "s-2" })).toEqual({ ok: false, reason: "step_up_wrong_session" });
    expect(check({ userId: "u-2" })).toEqual({ ok: false, reason: "step_up_wrong_session" });
  });

  it("refuses without a proof, and tells a user without a passkey to enrol when required", () => {
    expect(check({ proof: null })).toEqual({ ok: false, reason: "step_up_missing" });
    expect(check({ proof: null, hasPasskey: false })).toEqual({ ok: false, reason: "no_passkey_enrolled" });
  });

  it("optional: a user without a passkey goes ahead, one with a passkey must confirm", () => {
    expect(check({ mode: "optional", hasPasskey: false, proof: null })).toEqual({ ok: true, stepUp: "not_needed" });
    expect(check({ mode: "optional", hasPasskey: true, proof: null })).toEqual({
      ok: false,
      reason: "step_up_missing",
    });
    expect(check({ mode: "optional", hasPasskey: true })).toEqual({ ok: true, stepUp: "verified" });
  });

  it("off: never asks", () => {
    expect(check({ mode: "off", proof: null })).toEqual({ ok: true, stepUp: "not_needed" });
  });

  it("user writes: only an admin with a passkey must confirm, even when required (the recovery path)", () => {
    const user = { action: "user.manage" as const, proof: null };
    expect(check({ ...user, hasPasskey: false })).toEqual({ ok: true, stepUp: "not_needed" });
    expect(check({ ...user, hasPasskey: true })).toEqual({ ok: false, reason: "step_up_missing" });
    expect(check({ ...user, mode: "optional", hasPasskey: true })).toEqual({ ok: false, reason: "step_up_missing" });
    expect(check({ ...user, mode: "off", hasPasskey: true })).toEqual({ ok: true, stepUp: "not_needed" });
    expect(check({ action: "user.manage", proof: proof({ action: "user.manage" }) })).toEqual({
      ok: true,
      stepUp: "verified",
    });
    // An approval's proof never serves a user write.
    expect(check({ action: "user.manage", subjects: [A1] })).toEqual({ ok: false, reason: "step_up_wrong_scope" });
    expect(stepUpNeededFor("user.manage", "required", false)).toBe(false);
    expect(stepUpNeededFor("approval.decide", "required", false)).toBe(true);
  });
});

describe("challengeUsable", () => {
  const expiresAt = new Date(NOW + 1000).toISOString();
  it("only once and only before it expires", () => {
    expect(challengeUsable({ consumedAt: null, expiresAt }, NOW)).toBe(true);
    expect(challengeUsable({ consumedAt: new Date(NOW).toISOString(), expiresAt }, NOW)).toBe(false);
    expect(challengeUsable({ consumedAt: null, expiresAt }, NOW + 1000)).toBe(false);
  });
});
