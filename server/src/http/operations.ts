import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { publicRoute } from './route.js';

/**
 * `/health` (liveness), `/ready` (the database answers: 200, `degraded` when Redis does not; else 503) and
 * `/metrics` (Prometheus, the process's own registry), outside /api/v1: the same in the API and a separate worker.
 */
export function registerOperationsRoutes(
  app: FastifyInstance,
  { database, redis, metrics }: Pick<AppContext, 'database' | 'redis' | 'metrics'>,
): void {
  const Status = { type: 'object', properties: { status: { type: 'string' } }, required: ['status'] } as const;
  const Ready = {
    type: 'object',
    properties: {
      status: { type: 'string', enum: ['ready', 'degraded'] },
      redis: {
        type: 'string',
        enum: ['ok', 'degraded'],
        description:
          'Absent without Redis. degraded: rate limits are per instance and invalidations rely on cache expiry until it returns',
      },
    },
    required: ['status'],
  } as const;
  // The one check of both: /ready's answer, and pxs_dependency_up at each scrape of /metrics.
  const dependencies = async (): Promise<{ database: boolean; redis?: boolean }> => {
    const [db, cache] = await Promise.all([
      database.ping().then(
        () => true,
        () => false,
      ),
      redis?.ping().then(
        () => true,
        () => false,
      ),
    ]);
    return cache === undefined ? { database: db } : { database: db, redis: cache };
  };
  metrics.dependencies = dependencies;
  const route = publicRoute('operations');
  app.get(
    '/health',
    route({ schema: { operationId: 'getHealth', summary: 'Liveness', response: { 200: Status } } }),
    async () => ({ status: 'ok' }),
  );
  app.get(
    '/ready',
    route({
      schema: {
        operationId: 'getReadiness',
        summary: 'Readiness: the database answers (503 if not); degraded when Redis does not',
        response: {
          200: Ready,
          503: { type: 'object', properties: { status: { type: 'string' }, error: { type: 'string' } } },
        },
      },
    }),
    async (_request, reply) => {
      const up = await dependencies();
      if (!up.database) return reply.code(503).send({ status: 'unavailable', error: 'the database is not reachable' });
      // Without Redis the instance still serves, with limits of its own.
      if (up.redis === undefined) return { status: 'ready' };
      return up.redis ? { status: 'ready', redis: 'ok' } : { status: 'degraded', redis: 'degraded' };
    },
  );
  app.get(
    '/metrics',
    route({
      schema: {
        operationId: 'getMetrics',
        summary: 'Prometheus metrics',
        produces: ['text/plain'],
        response: { 200: { type: 'string' } },
      },
    }),
    async (_request, reply) => {
      reply.type(metrics.registry.contentType);
      return metrics.registry.metrics();
    },
  );
}
