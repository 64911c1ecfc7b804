import pg from 'pg';
import { openDatabase } from './src/db/database.ts';
import { migrateToLatest } from './src/db/migrate.ts';
import { seedBench } from './bench/seed.ts';
import { loadConfig } from './src/config.ts';
import { createContext } from './src/context.ts';
import { buildApp } from './src/app.ts';
import Fastify from 'fastify';
import { listExchanges } from './src/features/catalog/repository.ts';
const c = new pg.Client('postgres://postgres@127.0.0.1:5432/test'); await c.connect();
const name = 'pxs_inj_' + Date.now(); await c.query(`create database ${name}`);
const url = `postgres://postgres@127.0.0.1:5432/${name}`;
const h = await openDatabase({ databaseUrl: url, dataDir: 'memory://' }); await migrateToLatest(h.db); const d = await seedBench(h.db);
const cfg = loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(40), DATABASE_URL: url, LOG_LEVEL: process.env.LL ?? 'warn', RATE_LIMIT_PER_MINUTE: '1000000000' });
const ctx = await createContext(cfg, h);
const app = await buildApp(ctx);
const base = Fastify({ logger: false });
base.get('/x', async () => listExchanges(h.db, { branchId: d.branchId, exchangeIds: null }));
const path = process.argv[2] ?? '/api/v1/partner/public/exchanges';
async function loop(a: any, p: string, n: number, headers: any) { const t = performance.now(); const conc = 16; let i = 0; await Promise.all(Array.from({ length: conc }, async () => { while (i++ < n) { const r = await a.inject({ method: 'GET', url: p, headers }); if (r.statusCode !== 200) throw new Error(r.body); } })); return (performance.now() - t) * 1000 / n; }
for (let k = 0; k < 3; k++) {
  console.log('service µs/req', Math.round(await loop(app, path, 4000, { authorization: `Bearer ${d.keys.public}` })), 'baseline µs/req', Math.round(await loop(base, '/x', 4000, {})));
}
await app.close(); await ctx.close(); await c.query(`drop database ${name} with (force)`); await c.end();
