import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { createBenchDatabase, prepareDatabase } from './lib/database.js';
import { startBaseline, startService } from './lib/service.js';

/**
 * CPU time per request of the service, of baseline (a) and of bare Fastify (the framework's share) for the estimate
 * and catalogue reads (rates.xml's too), read from
 * /proc/<pid>/stat around a fixed number of requests. It moves less with the machine's other load than throughput
 * does (still by a third on a busy machine). Runs the built service (`npm run build` first):
 * `npx tsx bench/cpu-per-request.ts [name filter]`.
 */
const TICK_US = 10_000; // USER_HZ 100
const cpuTicks = (pid: number) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(f[11]) + Number(f[12]);
};
const AMOUNT = 20_000;
const ROUNDS = 3;

const bench = await createBenchDatabase();
try {
  const d = await prepareDatabase(bench.url);
  const auth = (key: string) => ({ authorization: `Bearer ${key}` });
  const body = JSON.stringify({
    exchangeId: d.exchangeId,
    sourceCurrencyId: d.currencies.USD,
    destCurrencyId: d.currencies.EUR,
    amount: 250.5,
  });
  const reads = [
    {
      name: 'POST /partner/public/estimate',
      method: 'POST' as const,
      path: '/api/v1/partner/public/estimate',
      headers: { ...auth(d.keys.public), 'content-type': 'application/json' },
      body,
    },
    {
      name: 'GET /partner/public/exchanges',
      method: 'GET' as const,
      path: '/api/v1/partner/public/exchanges',
      headers: auth(d.keys.public),
    },
    {
      name: 'GET /partner/offers?limit=20',
      method: 'GET' as const,
      path: '/api/v1/partner/offers?limit=20',
      headers: auth(d.keys.branch),
    },
    // As a rate monitor polls it: the public key in the URL, no header.
    {
      name: 'GET /partner/public/rates.xml?key=',
      method: 'GET' as const,
      path: `/api/v1/partner/public/rates.xml?key=${d.keys.public}`,
      headers: {},
    },
  ].filter((r) => !process.argv[2] || r.name.includes(process.argv[2]));
  const service = await startService(bench.url);
  const dir = mkdtempSync(join(tmpdir(), 'pxs-cpu-'));
  const bodies: Record<string, string> = {};
  for (const r of reads) {
    const res = await fetch(service.url + r.path, { method: r.method, headers: r.headers, body: r.body });
    bodies[`${r.method} ${r.path}`] = await res.text();
    if (res.status !== 200) throw new Error(`${r.name}: ${res.status} ${bodies[`${r.method} ${r.path}`]}`);
  }
  writeFileSync(join(dir, 'bodies.json'), JSON.stringify(bodies));
  const baseline = await startBaseline('node-http-catalog', { BENCH_BODIES: join(dir, 'bodies.json') });
  const framework = await startBaseline('fastify-catalog', { BENCH_BODIES: join(dir, 'bodies.json') });
  try {
    for (const r of reads) {
      const per: Record<string, number[]> = { service: [], baseline: [], framework: [] };
      for (const [name, child] of [
        ['baseline', baseline],
        ['framework', framework],
        ['service', service],
        ['baseline', baseline],
        ['framework', framework],
        ['service', service],
      ] as const) {
        await autocannon({
          url: child.url + r.path,
          method: r.method,
          headers: r.headers,
          body: r.body,
          connections: 32,
          amount: AMOUNT / 2,
        });
        for (let i = 0; i < ROUNDS; i++) {
          const before = cpuTicks(child.process.pid!);
          const res = await autocannon({
            url: child.url + r.path,
            method: r.method,
            headers: r.headers,
            body: r.body,
            connections: 32,
            amount: AMOUNT,
          });
          if (res['2xx'] !== AMOUNT) throw new Error(`${name}: ${res['2xx']} of ${AMOUNT} answered 2xx`);
          per[name]!.push(((cpuTicks(child.process.pid!) - before) * TICK_US) / AMOUNT);
        }
      }
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
      const s = median(per.service!),
        b = median(per.baseline!),
        f = median(per.framework!);
      const all = (xs: number[]) => `[${xs.map((x) => x.toFixed(1)).join(' ')}]`;
      console.log(
        `${r.name}: service ${s.toFixed(1)} µs CPU/request ${all(per.service!)}, baseline (a) ${b.toFixed(1)} ${all(per.baseline!)}, bare Fastify ${f.toFixed(1)} ${all(per.framework!)}; CPU ratio ${(b / s).toFixed(2)} (bare Fastify ${(b / f).toFixed(2)})`,
      );
    }
  } finally {
    await Promise.all([baseline.stop(), framework.stop(), service.stop()]);
    rmSync(dir, { recursive: true, force: true });
  }
} finally {
  await bench.drop();
}
