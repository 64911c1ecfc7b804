import pg from 'pg';
import autocannon from 'autocannon';
import { openDatabase } from './src/db/database.ts';
import { migrateToLatest } from './src/db/migrate.ts';
import { seedBench } from './bench/seed.ts';
import { startChild } from './bench/processes.ts';
const c = new pg.Client('postgres://postgres@127.0.0.1:5432/test'); await c.connect();
const name = 'pxs_lat_' + Date.now(); await c.query(`create database ${name}`);
const url = process.env.SOCK ? `postgres://postgres@%2Fvar%2Frun%2Fpostgresql/${name}` : `postgres://postgres@127.0.0.1:5432/${name}`;
const h = await openDatabase({ databaseUrl: url, dataDir: 'memory://' }); await migrateToLatest(h.db); const d = await seedBench(h.db); await h.close();
const api = await startChild('bin/pxs.js', ['serve', '--no-worker'], { DATABASE_URL: url, NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(40), LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '1000000000' }, (process.env.NODEARGS ?? '').split(' ').filter(Boolean));
const path = process.argv[2] ?? '/api/v1/partner/offers?limit=20';
const run = (o: any) => autocannon({ url: api.url + path, headers: { authorization: `Bearer ${d.keys.branch}` }, ...o });
await run({ connections: 32, duration: 2 });
const max = await run({ connections: 32, duration: 4 });
console.log('max rps', max.requests.average, 'p50', max.latency.p50, 'p99', max.latency.p99);
const { paced } = await import('./bench/load.ts');
for (const f of [0.25, 0.5, 0.5]) { const pr = await paced(api.url, { method: 'GET', path, headers: { authorization: `Bearer ${d.keys.branch}` } }, Math.floor(max.requests.average * f), 4);
console.log('paced', f, pr); }
for (const conns of [4]) {
  const half = await run({ connections: conns, duration: 4, overallRate: Math.floor(max.requests.average / 2) });
  console.log(`half conns=${conns} rps`, half.requests.average, 'p50', half.latency.p50, 'p90', half.latency.p90, 'p99', half.latency.p99, 'max', half.latency.max, 'rss', api.peakRssMb());
}
const m = await (await fetch(api.url + '/metrics')).text(); console.log(m.split('\n').filter(l => /heap_space_size_used|heap_size_total|heap_size_used|external_memory|resident/.test(l) && !l.startsWith('#')).join('\n'));
await api.stop(); await c.query(`drop database ${name} with (force)`); await c.end();
