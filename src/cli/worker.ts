import pino from 'pino';
import { REDACT } from '../app.js';
import { loadConfig } from '../config.js';
import { startRuntime } from '../runtime.js';
import { startBackground } from './background.js';

/** `pxs worker`: only the webhook delivery worker. SIGTERM/SIGINT stop claiming, finish the attempts in flight, then exit. */
export async function runWorker(): Promise<void> {
  const config = loadConfig();
  const logger = pino({ level: config.logLevel, redact: REDACT });
  const log = (level: 'error' | 'warn' | 'info', msg: string, extra?: object) => logger[level](extra ?? {}, msg);
  const ctx = await startRuntime(config, log, { poolSize: 4 });
  const background = await startBackground(ctx, { worker: true });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'shutting down: no new claims, finishing attempts in flight');
    const force = setTimeout(() => { logger.error('shutdown timed out'); process.exit(1); }, 30_000);
    force.unref();
    try {
      await background.stop();
      await ctx.close();
      logger.info('shutdown complete');
      process.exit(0);
    } catch (err) {
      logger.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
}
