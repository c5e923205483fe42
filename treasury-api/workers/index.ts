/**
 * Background workers of the treasury-api, started with every server: the
 * bank simulator (direct, and behind a folder channel), bank channels, webhook delivery and housekeeping. Each is a loop with a
 * `stop()` that returns at a safe point (SIGTERM stops workers between steps).
 * Workers import the domain; the domain never imports workers.
 */
import { pullDue, pushDue } from "../channels/exchange";
import { readFolderBank, runFolderBankOnce, type FolderBank } from "../bank/folder-bank";
import { BANK_PACE, runBankOnce } from "../domain/bank-simulator";
import { noticeMissingStatements } from "../domain/statement-schedule";
import { noteBankRun } from "../lib/metrics";
import { pruneIdempotencyKeys } from "../middleware/idempotency";
import { runWebhooksOnce } from "../webhooks/delivery";
import { intervalWorker, passWorker, type Worker, type WorkerContext } from "./loop";

export type { Worker, WorkerContext } from "./loop";

/** The running workers of one server. */
export interface Workers {
  stop(): Promise<void>;
}

/**
 * The bank worker: runs `runBankOnce` every tick of the configured bank speed;
 * `manual` starts nothing. `stop()` lets the current step commit first.
 */
export function bankWorker(ctx: WorkerContext): Worker {
  const tickMs = BANK_PACE[ctx.config.bankSpeed].tickMs;
  if (tickMs === null) return { name: "bank-simulator", stop: async () => undefined };
  return passWorker("bank-simulator", tickMs, ctx, async (shouldStop) => {
    await runBankOnce(ctx.database.db, ctx.config, { shouldStop });
    noteBankRun(ctx.database.db); // for treasury_api_bank_simulator_last_run_timestamp_seconds
  });
}

/**
 * The simulated bank behind a folder channel (docs/bank-channels.md "The simulated bank behind a channel"): when
 * `folderBankDir` is set, `runFolderBankOnce` every tick of the bank speed; `manual` or no folder starts nothing.
 * The bank's configuration (written once, when the demo seed wires the bank) is read at the first pass that finds
 * it and kept; a pass before that does nothing.
 */
export function folderBankWorker(ctx: WorkerContext): Worker {
  const tickMs = BANK_PACE[ctx.config.bankSpeed].tickMs;
  const dir = ctx.config.folderBankDir;
  if (tickMs === null || !dir) return { name: "folder-bank", stop: async () => undefined };
  let bank: FolderBank | null = null;
  return passWorker("folder-bank", tickMs, ctx, async (shouldStop) => {
    bank ??= await readFolderBank(dir);
    if (bank) await runFolderBankOnce(bank, { speed: ctx.config.bankSpeed, shouldStop });
  });
}

/**
 * The webhook worker: every `webhookPollMs` it runs `runWebhooksOnce`. `stop()`
 * asks the pass to end between deliveries (unstarted claims are released), so
 * a SIGTERM never leaves a delivery half recorded.
 */
export function webhookWorker(ctx: WorkerContext): Worker {
  return passWorker("webhooks", ctx.config.webhookPollMs, ctx, (shouldStop) =>
    runWebhooksOnce(ctx.database.db, ctx.config, { shouldStop }),
  );
}

/** Housekeeping: prunes expired idempotency keys once a minute. */
function housekeepingWorker(ctx: WorkerContext): Worker {
  return intervalWorker("housekeeping", 60_000, ctx, () => pruneIdempotencyKeys(ctx.database.db));
}

/**
 * Statement watch: every `statementWatchMs` (a minute by default), a `statement.missing` event for each newly
 * overdue statement (once each).
 */
function statementWatchWorker(ctx: WorkerContext): Worker {
  return intervalWorker(
    "statement-watch",
    ctx.config.statementWatchMs,
    ctx,
    async () => void (await noticeMissingStatements(ctx.database.db)),
  );
}

/**
 * Bank channels (docs/bank-channels.md): every `bankChannelPollMs` (5 s; the demo bank's tick in demo mode), the
 * scheduled pulls that are due, then the payment files that are due. Claims use SKIP LOCKED, so every API process on
 * one database can run it.
 */
function bankChannelWorker(ctx: WorkerContext): Worker {
  return intervalWorker("bank-channels", ctx.config.bankChannelPollMs, ctx, async () => {
    await pullDue(ctx.database.db, ctx.config.secretKey);
    await pushDue(ctx.database.db, ctx.config.secretKey);
  });
}

/** Starts every worker; `stop()` stops them all at their next safe point. */
export function startWorkers(ctx: WorkerContext): Workers {
  const running = [
    housekeepingWorker,
    webhookWorker,
    bankWorker,
    folderBankWorker,
    statementWatchWorker,
    bankChannelWorker,
  ].map((start) => start(ctx));
  return { stop: async () => void (await Promise.all(running.map((w) => w.stop()))) };
}
