import { loadConfig } from '../config.js';
import { startRuntime } from '../runtime.js';
import { startBackground } from './background.js';
import { exitGracefully, processLogger } from './lifecycle.js';

/** `pxs worker`: only the webhook delivery worker. SIGTERM/SIGINT stop claiming, finish the attempts in flight, then exit. */
export async function runWorker(): Promise<void> {
  const config = loadConfig();
  const { logger, log } = processLogger(config);
  const ctx = await startRuntime(config, log, { poolSize: 4 });
  const background = await startBackground(ctx, { worker: true }).catch(async (err: unknown) => {
    await ctx.close();
    throw err;
  });

  exitGracefully(logger, 'no new claims, finishing attempts in flight', async () => {
    await background.stop();
    await ctx.close();
  });
}
