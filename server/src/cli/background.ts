import type { AppContext } from '../context.js';
import { startWorker } from '../features/delivery/worker.js';
import { pruneIdempotencyKeys } from '../features/idempotency/service.js';
import { startExpiry } from '../features/orders/expiry.js';
import { pruneQuotes } from '../features/quotes/service.js';
import { pruneOfferRates } from '../features/offers/service.js';

export interface Background {
  stop(): Promise<void>;
}

/**
 * Work that runs beside the HTTP server: the webhook delivery worker (unless --no-worker), which on PostgreSQL
 * also LISTENs for deliveries other processes commit, and the payment window's expiry job beside it. Every worker
 * process runs both; the expiry job's row locks keep two of them from cancelling one order twice.
 */
export async function startBackground(ctx: AppContext, options: { worker: boolean }): Promise<Background> {
  if (!options.worker) return { stop: async () => undefined };
  const worker = startWorker(ctx, {
    listenUrl: ctx.database.kind === 'postgres' ? ctx.config.databaseUrl : undefined,
    alsoPrune: [pruneIdempotencyKeys, pruneQuotes, (db) => pruneOfferRates(db)],
  });
  ctx.log('info', 'webhook worker started', { workerId: worker.id });
  const expiry = startExpiry(ctx);
  return {
    stop: async () => {
      await Promise.all([worker.stop(), expiry.stop()]);
    },
  };
}
