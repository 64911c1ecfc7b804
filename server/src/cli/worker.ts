import { loadConfig } from '../config/config.js';
import { startRuntime } from '../runtime.js';
import { startBackground } from './background.js';
import { exitGracefully, processLogger } from './lifecycle.js';
import { listenFailure } from './listen-failure.js';
import { serveWorkerStatus } from './worker-status.js';

/** `pxs worker`: only the webhook delivery worker. SIGTERM/SIGINT stop claiming, finish the attempts in flight, then exit. */
export async function runWorker(): Promise<void> {
  const config = loadConfig();
  const { logger, log } = processLogger(config);
  const ctx = await startRuntime(config, log, { poolSize: 4 });
  const { workerPort } = config.webhooks;
  // The port first: a start that fails on it must not have claimed deliveries.
  const status =
    workerPort === null
      ? null
      : await serveWorkerStatus(ctx, logger, config.host, workerPort).catch(async (err: unknown) => {
          await ctx.close();
          throw listenFailure(err, 'WORKER_PORT', config.host, workerPort);
        });
  const background = await startBackground(ctx, { worker: true }).catch(async (err: unknown) => {
    await status?.close();
    await ctx.close();
    throw err;
  });
  if (status) logger.info({ url: status.url }, 'worker health and metrics listening');

  exitGracefully(logger, 'no new claims, finishing attempts in flight', async () => {
    await status?.close();
    await background.stop();
    await ctx.close();
  });
}
