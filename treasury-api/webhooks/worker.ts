/**
 * The webhook worker factory (DESIGN.md "Webhooks"): every `webhookPollMs` it
 * runs `runWebhooksOnce`. `stop()` asks the pass to end between deliveries
 * (unstarted claims are released) and resolves once it has, so a SIGTERM
 * never leaves a delivery half recorded.
 */
import { intervalWorker, type Worker, type WorkerContext } from "../workers";
import { runWebhooksOnce } from "./delivery";

/** Worker factory for `registerWorker` (registered in workers.ts). */
export function webhookWorker(ctx: WorkerContext): Worker {
  let stopping = false;
  const inner = intervalWorker("webhooks", ctx.config.webhookPollMs, ctx, async () => {
    await runWebhooksOnce(ctx.database.db, ctx.config, { shouldStop: () => stopping });
  });
  return {
    name: inner.name,
    stop: async () => {
      stopping = true;
      await inner.stop();
    },
  };
}
