import { openDatabase } from '../../../src/db/database.js';
import { openTestDatabase, usingPostgres, type TestDatabase } from '../../helpers/database.js';
import { call, type TestServer } from '../../helpers/server.js';
import type { World } from '../../helpers/world.js';

/** A second handle on the same database: on PostgreSQL a pool and a LISTEN of its own, as another instance has. */
export async function secondHandle(db: TestDatabase): Promise<TestDatabase> {
  if (!usingPostgres) return db;
  return openDatabase({ databaseUrl: db.url!, dataDir: 'memory://', poolSize: 5 });
}

/** A handle that never gets to LISTEN: its server can trust no snapshot and answers every read from the database. */
export function neverListening(db: TestDatabase): TestDatabase {
  return { ...db, listen: () => ({ close: async () => undefined }) };
}

export { openTestDatabase };

/** Every partner catalogue read the snapshot answers, with filters, sorts and paging. */
export function catalogueReads(w: World) {
  const offers = (query: Record<string, string | number>) => ['GET', '/partner/offers', { query }] as const;
  const estimate = (body: Record<string, unknown>) => ['POST', '/partner/public/estimate', { body }] as const;
  const pair = { exchangeId: w.exchanges.A, sourceCurrencyId: w.currencies.USD, destCurrencyId: w.currencies.EUR };
  return [
    ['GET', '/partner/public/exchanges', {}],
    ['GET', '/partner/public/currencies', {}],
    ['GET', '/partner/public/rates', {}],
    ['GET', '/partner/public/rates', { query: { exchangeId: w.exchanges.A, sourceCurrencyId: w.currencies.USD } }],
    ['GET', '/partner/public/rates.xml', {}],
    ['GET', '/partner/public/rates.xml', { query: { exchangeId: w.exchanges.A, destCurrencyId: w.currencies.EUR } }],
    ['GET', `/partner/exchanges/${w.exchanges.A}`, {}],
    ['GET', `/partner/exchanges/${w.exchanges.C}`, {}],
    offers({}),
    offers({ limit: 2 }),
    offers({ skip: 2, limit: 3 }),
    offers({ filter: JSON.stringify({ isActive: true, exchangeId: w.exchanges.A }) }),
    offers({ sort: JSON.stringify([['rate', 'DESC']]), limit: 3 }),
    offers({
      sort: JSON.stringify([
        ['updatedAt', 'ASC'],
        ['minAmount', 'DESC'],
      ]),
      limit: 2,
    }),
    offers({
      sort: JSON.stringify([
        ['exchangeId', 'ASC'],
        ['id', 'DESC'],
      ]),
      skip: 1,
      limit: 4,
    }),
    offers({ skip: 50 }),
    estimate({ ...pair, amount: 100 }),
    estimate({
      ...pair,
      sourceCurrencyId: w.currencies.EUR,
      destCurrencyId: w.currencies.USD,
      amount: 50,
      direction: 'dest',
    }),
    estimate({ ...pair, amount: 1 }),
    estimate({ ...pair, exchangeId: w.exchanges.X, amount: 100 }),
    estimate({ ...pair, exchangeId: w.exchanges.C, amount: 100 }),
    estimate({ ...pair, destCurrencyId: w.currencies.JPY, amount: 100 }),
  ] as const;
}

/** Status, content type, ETag and exact body text of each read. */
export async function answers(server: TestServer, key: string, reads: ReturnType<typeof catalogueReads>) {
  const out: string[] = [];
  for (const [method, path, options] of reads) {
    const res = await call(server, method, path, { key, ...options });
    out.push(
      `${method} ${path} ${JSON.stringify(options)} → ${res.status} ${res.headers.get('content-type')} ${res.headers.get('etag') ?? ''}\n${res.text}`,
    );
  }
  return out;
}

/** Queries that `round` ran through the server's database handle. */
export async function queriesOf(server: TestServer, round: () => Promise<unknown>): Promise<number> {
  const before = server.database.queryCount();
  await round();
  return server.database.queryCount() - before;
}

/** The rate the server's GET /public/rates shows for an offer (undefined when it lists none). */
export async function rateOf(server: TestServer, key: string, offerId: number): Promise<number | undefined> {
  const res = await call<{ offerId: number; rate: number }[]>(server, 'GET', '/partner/public/rates', { key });
  return res.body.find((r) => r.offerId === offerId)?.rate;
}
