import pino, { type Logger } from 'pino';
import { REDACT } from '../app.js';
import type { Config } from '../config/config.js';
import type { Log } from '../log.js';

/** The process's JSON logger, with credentials redacted, and the `log` function the runtime takes. */
export function processLogger(config: Config): { logger: Logger; log: Log } {
  const logger = pino({ level: config.logLevel, redact: REDACT });
  return { logger, log: (level, msg, extra) => logger[level](extra ?? {}, msg) };
}

/**
 * Graceful shutdown on SIGTERM/SIGINT: runs `stop` once (stop accepting, finish in-flight work, close), then
 * exits; a shutdown that takes longer than 30 s is forced.
 */
export function exitGracefully(logger: Logger, what: string, stop: () => Promise<void>): void {
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, `shutting down: ${what}`);
    const force = setTimeout(() => {
      logger.error('shutdown timed out');
      process.exit(1);
    }, 30_000);
    force.unref();
    try {
      await stop();
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
