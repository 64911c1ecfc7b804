import type { AppContext } from '../context.js';
import { startWorker } from '../features/webhooks/worker.js';

export interface Background { stop(): Promise<void> }

/** Work that runs beside the HTTP server: the webhook delivery worker (unless --no-worker). */
export async function startBackground(ctx: AppContext, options: { worker: boolean }): Promise<Background> {
  if (!options.worker) return { stop: async () => undefined };
  const worker = startWorker(ctx);
  ctx.log('info', 'webhook worker started', { workerId: worker.id });
  return { stop: () => worker.stop() };
}
