import { openDatabase } from './src/db/database.ts';
import { migrateToLatest } from './src/db/migrate.ts';
import { seedBench } from './bench/seed.ts';
import { listOffers } from './src/features/catalog/repository.ts';
import { listOrders } from './src/features/orders/repository.ts';
import pg from 'pg';
const c = new pg.Client('postgres://postgres@127.0.0.1:5432/test'); await c.connect();
const name = 'pxs_sql_' + Date.now(); await c.query(`create database ${name}`);
const url = `postgres://postgres@127.0.0.1:5432/${name}`;
const h = await openDatabase({ databaseUrl: url, dataDir: 'memory://' }); await migrateToLatest(h.db); const d = await seedBench(h.db);
await h.db.executeQuery({ sql: 'analyze', parameters: [], query: {} as any } as any).catch(e=>console.log(e.message));
const scope = { branchId: d.branchId, exchangeIds: null };
const log: any[] = [];
const orig = h.db;
// capture SQL by compiling through a logging Kysely
import { Kysely, PostgresDialect } from 'kysely';
const pool = new pg.Pool({ connectionString: url });
const k = new Kysely<any>({ dialect: new PostgresDialect({ pool }), log: (e) => { if (e.level === 'query') log.push(e.query); } });
await listOffers(k, scope, { skip: 0, limit: 20, filter: {}, sort: [['id', 'ASC']] });
await listOrders(k, scope, { skip: 0, limit: 20, filter: {}, sort: [['id', 'ASC']] });
for (const q of log) {
  const r = await pool.query('explain (analyze, buffers off) ' + q.sql, q.parameters as any[]);
  console.log(q.sql, q.parameters); console.log(r.rows.map((x: any) => x['QUERY PLAN']).join('\n')); console.log('---');
}
await pool.end(); await h.close(); await c.query(`drop database ${name} with (force)`); await c.end();
