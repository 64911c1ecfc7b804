import type { AppContext } from '../context.js';
import { startWorker } from '../features/delivery/worker.js';
import { pruneIdempotencyKeys } from '../features/idempotency/service.js';
import { pruneQuotes } from '../features/quotes/service.js';

export interface Background {
  stop(): Promise<void>;
}

/**
 * Work that runs beside the HTTP server: the webhook delivery worker (unless --no-worker), which on PostgreSQL
 * also LISTENs for deliveries other processes commit.
 */
export async function startBackground(ctx: AppContext, options: { worker: boolean }): Promise<Background> {
  if (!options.worker) return { stop: async () => undefined };
  const worker = startWorker(ctx, {
    listenUrl: ctx.database.kind === 'postgres' ? ctx.config.databaseUrl : undefined,
    alsoPrune: [pruneIdempotencyKeys, pruneQuotes],
  });
  ctx.log('info', 'webhook worker started', { workerId: worker.id });
  return { stop: () => worker.stop() };
}
