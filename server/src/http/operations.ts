import type { FastifyInstance } from 'fastify';

/** `/health` (liveness), `/ready` (database and Redis reachable) and `/metrics` (Prometheus), outside /api/v1. */
export function registerOperationsRoutes(app: FastifyInstance, checks: { ready: () => Promise<void>; metrics: () => Promise<string>; contentType: string }): void {
  const Status = { type: 'object', properties: { status: { type: 'string' } }, required: ['status'] } as const;
  app.get('/health', { schema: { operationId: 'getHealth', security: [], tags: ['operations'], summary: 'Liveness', response: { 200: Status } } }, async () => ({ status: 'ok' }));
  app.get('/ready', {
    schema: {
      operationId: 'getReadiness', security: [], tags: ['operations'], summary: 'Readiness: the database and Redis answer',
      response: { 200: Status, 503: { type: 'object', properties: { status: { type: 'string' }, error: { type: 'string' } } } },
    },
  }, async (_request, reply) => {
    try {
      await checks.ready();
      return { status: 'ready' };
    } catch {
      return reply.code(503).send({ status: 'unavailable', error: 'a dependency is not reachable' });
    }
  });
  app.get('/metrics', { schema: { operationId: 'getMetrics', security: [], tags: ['operations'], summary: 'Prometheus metrics', produces: ['text/plain'], response: { 200: { type: 'string' } } } }, async (_request, reply) => {
    reply.type(checks.contentType);
    return checks.metrics();
  });
}
