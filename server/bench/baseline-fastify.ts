import Fastify from 'fastify';
import { openDatabase } from '../src/db/database.js';
import { listPublicExchanges } from '../src/features/catalog/exchanges/repository.js';
import { listOffers } from '../src/features/catalog/offers/repository.js';
import { quote } from '../src/features/catalog/service.js';
import { baselineOrderRoutes } from './baseline-orders.js';

/**
 * Baseline (b): the ceiling of this stack — a minimal Fastify handler running the same SQL with the same driver
 * and pool as the service, without authentication, validation, schemas or rate limiting.
 */
const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: process.env.DATA_DIR ?? 'memory://' });
const db = database.db;
const branchId = Number(process.env.BENCH_BRANCH_ID);
const scope = { branchId, exchangeIds: null };
const app = Fastify({ logger: false });

app.get('/health', async () => ({ status: 'ok' }));
app.get('/api/v1/partner/public/exchanges', async () => listPublicExchanges(db, scope));
app.get('/api/v1/partner/offers', async () => {
  const { rows, total } = await listOffers(db, scope, { skip: 0, limit: 20, filter: {}, sort: [['id', 'ASC']] });
  return { data: rows, meta: { total, skip: 0, limit: 20 } };
});
app.post('/api/v1/partner/public/estimate', async (request) => {
  const b = request.body as { exchangeId: number; sourceCurrencyId: number; destCurrencyId: number; amount: number };
  return quote(db, scope, { exchangeId: b.exchangeId, sourceCurrencyId: b.sourceCurrencyId, destCurrencyId: b.destCurrencyId, amount: String(b.amount), direction: 'source' });
});
baselineOrderRoutes(app, db, scope);

await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.on('SIGTERM', async () => {
  await app.close();
  await database.close();
  process.exit(0);
});
