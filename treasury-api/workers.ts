/**
 * Background workers of the treasury-api (bank simulator, webhook delivery,
 * housekeeping). Each worker is a loop with `stop()` that returns once the
 * worker reached a safe point (DESIGN.md "Operability": SIGTERM stops workers
 * at a safe point). Part 2 registers the bank and webhook workers here.
 */
import type { Logger } from "pino";
import type { AppConfig } from "./config";
import type { Database } from "./db/client";
import { pruneIdempotencyKeys } from "./middleware/idempotency";
import { webhookWorker } from "./webhooks/worker";
import { bankWorker } from "./domain/bank-simulator";

export interface WorkerContext {
  database: Database;
  config: AppConfig;
  logger: Logger | null;
}

export interface Worker {
  name: string;
  stop(): Promise<void>;
}

export interface Workers {
  stop(): Promise<void>;
}

/** A worker factory; registered once at module load by each area. */
export type WorkerFactory = (ctx: WorkerContext) => Worker;

const factories: WorkerFactory[] = [];

/** Registers a background worker started with every server. */
export function registerWorker(factory: WorkerFactory): void {
  factories.push(factory);
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

registerWorker((ctx) => intervalWorker("housekeeping", 60_000, ctx, () => pruneIdempotencyKeys(ctx.database.db)));
registerWorker(webhookWorker);
registerWorker(bankWorker);

/** Starts every registered worker. */
export function startWorkers(ctx: WorkerContext): Workers {
  const running = factories.map((f) => f(ctx));
  return { stop: async () => void (await Promise.all(running.map((w) => w.stop()))) };
}
