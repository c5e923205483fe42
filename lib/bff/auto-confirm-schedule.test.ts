import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

vi.mock("server-only", () => ({}));
const { cfg, run } = vi.hoisted(() => ({
  cfg: {} as { DASHBOARD_AUTO_CONFIRM_INTERVAL_SECONDS?: number },
  run: vi.fn(async () => ({ confirmed: ["m1"], failed: [], pending: [] })),
}));
vi.mock("../server/config", () => ({ getConfig: () => cfg }));
vi.mock("./auto-confirm", () => ({ runAutoConfirm: run }));

import { startAutoConfirmSweepFromConfig } from "./auto-confirm-schedule";

const g = globalThis as { __autoConfirmSweep?: ReturnType<typeof setInterval> };

// Each test starts from an unset interval, no running sweep and a fresh rules mock: the config object, the
// process-wide sweep handle and the mock's calls are shared by the whole file.
beforeEach(() => {
  delete cfg.DASHBOARD_AUTO_CONFIRM_INTERVAL_SECONDS;
  run.mockClear();
});
afterEach(() => {
  clearInterval(g.__autoConfirmSweep);
  delete g.__autoConfirmSweep;
  vi.useRealTimers();
});

describe("the auto-confirm sweep", () => {
  it("is off when the interval is unset or 0", () => {
    expect(startAutoConfirmSweepFromConfig()).toBeNull();
    cfg.DASHBOARD_AUTO_CONFIRM_INTERVAL_SECONDS = 0;
    expect(startAutoConfirmSweepFromConfig()).toBeNull();
  });

  it("runs the rules every interval once started, once per process", async () => {
    vi.useFakeTimers();
    cfg.DASHBOARD_AUTO_CONFIRM_INTERVAL_SECONDS = 30;
    expect(startAutoConfirmSweepFromConfig()).toBe(30_000);
    expect(startAutoConfirmSweepFromConfig()).toBe(30_000);
    expect(run).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(30_000);
    expect(run).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(run).toHaveBeenCalledTimes(3);
  });
});
