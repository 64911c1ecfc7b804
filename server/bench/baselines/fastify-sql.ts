import Fastify from 'fastify';
import type { KeyPrincipal } from '../../src/auth/principal.js';
import { ALL_PERMISSIONS } from '../../src/auth/principal.js';
import { openDatabase } from '../../src/db/database.js';
import { listPublicExchanges } from '../../src/features/exchanges/repository.js';
import { listOffers } from '../../src/features/offers/repository.js';
import { quote } from '../../src/features/catalog/service.js';
import { listOrders } from '../../src/features/orders/repository.js';
import type { CreateOrderBody } from '../../src/features/orders/schemas.js';
import { createOrder } from '../../src/features/orders/service.js';

/**
 * Baseline (b), the ceiling of this stack: the service's own SQL (its repository functions and order service, the
 * same pg pool and prepared statements) in a bare Fastify app, with a fixed principal and no authentication,
 * validation, response schemas or rate limiting.
 */
const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: 'memory://' });
const db = database.db;
const scope = { branchId: Number(process.env.BENCH_BRANCH_ID), exchangeIds: null };
const principal: KeyPrincipal = {
  kind: 'apiKey',
  keyId: process.env.BENCH_KEY_ID!,
  keyType: 'branch',
  staffUserId: null,
  branchId: scope.branchId,
  exchangeIds: null,
  permissions: new Set(ALL_PERMISSIONS),
};
const app = Fastify({ logger: false });

app.get('/health', async () => ({ status: 'ok' }));
app.get('/api/v1/partner/public/exchanges', async () => listPublicExchanges(db, scope));
app.get('/api/v1/partner/offers', async () => {
  const { rows, total } = await listOffers(db, scope, { skip: 0, limit: 20, filter: {}, sort: [['id', 'ASC']] });
  return { data: rows, meta: { total, skip: 0, limit: 20 } };
});
app.post('/api/v1/partner/public/estimate', async (request) => {
  const b = request.body as { exchangeId: number; sourceCurrencyId: number; destCurrencyId: number; amount: number };
  return quote(db, scope, {
    exchangeId: b.exchangeId,
    sourceCurrencyId: b.sourceCurrencyId,
    destCurrencyId: b.destCurrencyId,
    amount: String(b.amount),
    direction: 'source',
  });
});
app.get('/api/v1/partner/orders', async () => {
  const { rows, total } = await listOrders(db, scope, { skip: 0, limit: 20, filter: {}, sort: [['id', 'ASC']] });
  return { data: rows, meta: { total, skip: 0, limit: 20 } };
});
app.post('/api/v1/partner/orders', async (request, reply) =>
  reply.code(201).send(await createOrder(db, undefined, principal, request.body as CreateOrderBody)),
);

await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
// eslint-disable-next-line @typescript-eslint/no-misused-promises -- a failed close rejects unhandled and ends the process, as it should
process.on('SIGTERM', async () => {
  await app.close();
  await database.close();
  process.exit(0);
});
