import type { AppContext } from '../context.js';
import { startWorker } from '../features/delivery/worker.js';
import { pruneIdempotencyKeys } from '../features/idempotency/service.js';
import { startExpiry } from '../features/orders/expiry.js';
import { pruneQuotes } from '../features/quotes/service.js';
import { startRatePoller, type QuoteSink } from '../features/rate-sources/poller.js';
import { quoteSink } from './quote-sink.js';
import { pruneOfferRates } from '../features/offers/service.js';

export interface Background {
  stop(): Promise<void>;
}

/**
 * Work that runs beside the HTTP server: the webhook delivery worker (unless --no-worker), which on PostgreSQL
 * also LISTENs for deliveries other processes commit, the payment window's expiry job and the market rate poller
 * beside it. Every worker process runs them all; the expiry job's row locks keep two of them from cancelling one
 * order twice, and the poller's lease from reading one source twice in an interval. `sink` replaces where the
 * poller hands its reads (tests).
 */
export async function startBackground(
  ctx: AppContext,
  options: { worker: boolean; sink?: QuoteSink },
): Promise<Background> {
  if (!options.worker) return { stop: async () => undefined };
  const worker = startWorker(ctx, {
    listenUrl: ctx.database.kind === 'postgres' ? ctx.config.databaseUrl : undefined,
    alsoPrune: [pruneIdempotencyKeys, pruneQuotes, (db) => pruneOfferRates(db)],
  });
  ctx.log('info', 'webhook worker started', { workerId: worker.id });
  const expiry = startExpiry(ctx);
  const rates = startRatePoller(ctx, options.sink ?? quoteSink);
  return {
    stop: async () => {
      await Promise.all([worker.stop(), expiry.stop(), rates.stop()]);
    },
  };
}
