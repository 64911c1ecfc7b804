import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { AppContext } from '../context.js';
import { registerErrorHandling } from '../http/error-handler.js';
import { registerOperationsRoutes } from '../http/operations.js';

/**
 * What a separate `pxs worker` shows its operator (WORKER_PORT): /health, /ready and /metrics, answered by the same
 * routes as the API's. Its /metrics is its own registry: the deliveries, their latency and lag, and the queue depth
 * are counted in the worker, so an API started with --no-worker has none of them to show.
 */
export async function serveWorkerStatus(
  ctx: Pick<AppContext, 'database' | 'redis' | 'metrics'>,
  logger: Logger,
  host: string,
  port: number,
): Promise<{ url: string; close(): Promise<void> }> {
  const app = Fastify({
    // At warn: a line per scrape, or Fastify's own "listening" beside the worker's, would only be noise.
    loggerInstance: logger.child(
      {},
      { level: logger.levelVal > logger.levels.values.warn ? logger.level : 'warn' },
    ) as FastifyBaseLogger,
    // Nothing here is worth waiting for at shutdown: the worker's attempts in flight are what it finishes.
    forceCloseConnections: true,
  });
  // Its 404 and 500 bodies are the API's: a failed metrics collection tells the scraper nothing internal.
  registerErrorHandling(app as unknown as FastifyInstance, ctx.database.afterStatement);
  registerOperationsRoutes(app as unknown as FastifyInstance, ctx);
  try {
    await app.listen({ host, port });
  } catch (err) {
    // A port in use reaches the caller as it is; the app must not outlive the start it failed.
    await app.close().catch(() => undefined);
    throw err;
  }
  const { port: bound } = app.server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}`,
    close: () => app.close(),
  };
}
