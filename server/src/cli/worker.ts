import { loadConfig } from '../config.js';
import { startRuntime } from '../runtime.js';
import { startBackground } from './background.js';
import { exitGracefully, processLogger } from './lifecycle.js';
import { serveWorkerStatus } from './worker-status.js';

/** `pxs worker`: only the webhook delivery worker. SIGTERM/SIGINT stop claiming, finish the attempts in flight, then exit. */
export async function runWorker(): Promise<void> {
  const config = loadConfig();
  const { logger, log } = processLogger(config);
  const ctx = await startRuntime(config, log, { poolSize: 4 });
  const background = await startBackground(ctx, { worker: true }).catch(async (err: unknown) => {
    await ctx.close();
    throw err;
  });
  const { workerPort } = config.webhooks;
  const status = workerPort === null ? null : await serveWorkerStatus(ctx, logger, config.host, workerPort).catch(async (err: unknown) => {
    await background.stop();
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
