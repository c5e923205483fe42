/**
 * Test-only: a harness and a loopback webhook receiver for one test file (docs/testing.md "Test helpers": one
 * database per test file, never per test), started in the file's `beforeAll` and closed in its `afterAll`.
 */
import { afterAll, beforeAll } from "vitest";
import { resolveConfig, type AppConfig } from "../config";
import { startLoopbackReceiver, type LoopbackReceiver } from "../webhooks/loopback-receiver";
import type { Harness } from "./harness";
import { harnessForFile } from "./file-harness";

/** Webhook settings the delivery tests share: retries in microseconds, a 2 s timeout, loopback targets allowed. */
export const FAST_WEBHOOKS = {
  webhookRetryScale: 0.000_001,
  webhookTimeoutMs: 2_000,
  allowPrivateWebhooks: true,
} satisfies Partial<AppConfig>;

/**
 * Registers `beforeAll` (start a receiver on an ephemeral loopback port) and `afterAll` (close it) in the calling
 * file or `describe` block, and returns a receiver that forwards to the one started there (`respond`, `secrets`,
 * `received`, `url` read and set through).
 * @throws Error when read before the `beforeAll` ran (e.g. at module load)
 */
export function receiverForFile(): LoopbackReceiver {
  let started: LoopbackReceiver | undefined;
  beforeAll(async () => {
    started = await startLoopbackReceiver();
  });
  afterAll(() => started?.close());
  const live = (): LoopbackReceiver => {
    if (!started) throw new Error("the file's receiver starts in beforeAll");
    return started;
  };
  return {
    get url() {
      return live().url;
    },
    set url(value) {
      live().url = value;
    },
    get received() {
      return live().received;
    },
    set received(value) {
      live().received = value;
    },
    get secrets() {
      return live().secrets;
    },
    set secrets(value) {
      live().secrets = value;
    },
    get respond() {
      return live().respond;
    },
    set respond(value) {
      live().respond = value;
    },
    close: () => live().close(),
  };
}

/**
 * One harness with {@link FAST_WEBHOOKS} and `overrides` (overrides win) and one loopback receiver for the calling
 * file or `describe` block; `config` is the resolved configuration the harness runs with.
 */
export function webhookHarnessForFile(overrides: Partial<AppConfig> = {}): {
  h: Harness;
  rx: LoopbackReceiver;
  config: AppConfig;
} {
  const settings = { ...FAST_WEBHOOKS, ...overrides };
  return { h: harnessForFile(settings), rx: receiverForFile(), config: resolveConfig(settings) };
}
