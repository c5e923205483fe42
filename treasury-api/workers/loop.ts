/**
 * The loop every background worker of the treasury-api runs on: a tick every
 * `intervalMs`, and a `stop()` that returns once the worker reached a safe
 * point (SIGTERM stops workers between steps, never inside one).
 */
import type { Logger } from "pino";
import type { AppConfig } from "../config";
import type { Database } from "../db/client";

/** What a worker is started with: the open database, the config, and a logger (null in tests). */
export interface WorkerContext {
  database: Database;
  config: AppConfig;
  logger: Logger | null;
}

/** A running worker; `stop()` resolves once the tick in progress (if any) has finished. */
export interface Worker {
  name: string;
  stop(): Promise<void>;
}

/**
 * Runs `tick` every `intervalMs` until stopped; a tick in progress finishes
 * before `stop()` resolves. Errors are logged, never thrown out of the loop.
 */
export function intervalWorker(
  name: string,
  intervalMs: number,
  ctx: WorkerContext,
  tick: () => Promise<void>,
): Worker {
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const loop = () => {
    if (stopped) return;
    running = tick()
      .catch((err: unknown) => ctx.logger?.error({ err, worker: name }, "worker tick failed"))
      .finally(() => {
        if (!stopped) timer = setTimeout(loop, intervalMs);
      });
  };
  timer = setTimeout(loop, intervalMs);
  return {
    name,
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}

/**
 * An interval worker whose pass can end early: `pass(shouldStop)` checks
 * `shouldStop()` between its steps (each step its own transaction), so
 * `stop()` lets the current step commit and returns before the next one.
 */
export function passWorker(
  name: string,
  intervalMs: number,
  ctx: WorkerContext,
  pass: (shouldStop: () => boolean) => Promise<unknown>,
): Worker {
  let stopping = false;
  const inner = intervalWorker(name, intervalMs, ctx, async () => {
    await pass(() => stopping);
  });
  return {
    name,
    stop: async () => {
      stopping = true;
      await inner.stop();
    },
  };
}
