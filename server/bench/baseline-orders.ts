import type { FastifyInstance } from 'fastify';
import type { KeyPrincipal, Scope } from '../src/auth/principal.js';
import { ALL_PERMISSIONS } from '../src/auth/principal.js';
import type { Database } from '../src/db/database.js';
import { listOrders } from '../src/features/orders/repository.js';
import type { CreateOrderBody } from '../src/features/orders/schemas.js';
import { createOrder } from '../src/features/orders/service.js';

/**
 * Order routes of baseline (b): the service's own order SQL (create with its history row and outbox fan-out;
 * list one page), with a fixed principal and no HTTP-layer work.
 */
export function baselineOrderRoutes(app: FastifyInstance, db: Database, scope: Scope): void {
  const principal: KeyPrincipal = {
    kind: 'apiKey', keyId: process.env.BENCH_KEY_ID!, keyType: 'branch', staffUserId: null,
    branchId: scope.branchId, exchangeIds: null, permissions: new Set(ALL_PERMISSIONS),
  };
  app.post('/api/v1/partner/orders', async (request, reply) => {
    return reply.code(201).send(await createOrder(db, principal, request.body as CreateOrderBody));
  });
  app.get('/api/v1/partner/orders', async () => {
    const { rows, total } = await listOrders(db, scope, { skip: 0, limit: 20, filter: {}, sort: [['id', 'ASC']] });
    return { data: rows, meta: { total, skip: 0, limit: 20 } };
  });
}
