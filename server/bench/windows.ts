import { parseArgs } from 'node:util';
import { openDatabase } from '../src/db/database.js';
import { describeClusters, slowClusters } from './clusters.js';
import { describeNoise, NOISE_COLUMNS, startNoiseMeter } from './noise.js';
import { cpuMs, postgresCpuMs } from './process-times.js';
import { pacedLatencies } from './paced.js';
import type { Child } from './processes.js';
import { benchScenarios } from './scenarios.js';
import { removeBenchOrders } from './seed.js';
import { createBenchDatabase, prepareDatabase, startBaselineB, startService, startServiceOf, startServiceWithRedis } from './setup.js';
import { useServiceV8Flags } from './v8.js';
import type { Target } from './load.js';

/**
 * `npm run bench:windows`: one endpoint at a steady rate, the service and baseline (b) in alternating windows, and
 * for each window its p50, p99, CPU per request (the process's and PostgreSQL's) and the clusters of slow requests
 * by their time in the window. Where `npm run bench` says how slow, this says when and at what cost: a cluster at
 * the start of every window pointed at the connection pool (docs/benchmarks.md, change 17). `--node-flags` adds a
 * second service process with other node options to the alternation, so that a runtime setting is compared in
 * the same minutes as the default, which the shared machine's changing speed would otherwise decide; `--redis` adds
 * one with the Redis rate limiter, so that the limiter's share of a page's latency is seen at the same rate; `--compare`
 * adds the service of another built checkout, so that a change's CPU per request is compared with the code before
 * it (docs/benchmarks.md, change 28).
 */
const { values: args } = parseArgs({
  options: {
    endpoint: { type: 'string', default: 'POST /partner/orders' },
    rate: { type: 'string', default: '500' },
    seconds: { type: 'string', default: '12' },
    windows: { type: 'string', default: '3' },
    slow: { type: 'string', default: '25' },
    // A second service process with these node options (V8 flags), measured in the same alternation.
    'node-flags': { type: 'string' },
    // The service of another built checkout (its directory), measured in the same alternation: a change's cost
    // per request against the code before it, e.g. `git worktree add /tmp/before HEAD~1` and build it there.
    compare: { type: 'string' },
    // A second service process with the Redis rate limiter (REDIS_URL), measured in the same alternation.
    redis: { type: 'boolean', default: false },
  },
});
const rate = Number(args.rate);
const seconds = Number(args.seconds);
const windows = Number(args.windows);
const slowMs = Number(args.slow);
for (const [name, n] of Object.entries({ rate, seconds, windows, slow: slowMs })) {
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number`);
}
useServiceV8Flags();

/** Per process, over all its windows: each window's p99 and CPU per request, and the requests slower than `slowMs` among all sent. */
const totals = new Map<string, { p99s: number[]; cpus: number[]; slow: number; sent: number }>();

async function window(side: string, w: number, child: Child, target: Target): Promise<string> {
  const noiseOf = startNoiseMeter(child.process.pid);
  const [node0, pg0] = [cpuMs(child.process.pid!), postgresCpuMs()];
  const { latencies, errors, non2xx, timedFrom } = await pacedLatencies(child.url, target, rate, seconds);
  const [node1, pg1] = [cpuMs(child.process.pid!), postgresCpuMs()];
  const noise = noiseOf();
  const sorted = latencies.filter((l) => !Number.isNaN(l)).sort();
  const at = (q: number) => (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0).toFixed(1);
  const perRequest = (ms: number) => Math.round((1000 * ms) / latencies.length);
  const total = totals.get(side) ?? { p99s: [], cpus: [], slow: 0, sent: 0 };
  totals.set(side, total);
  total.p99s.push(Number(at(0.99)));
  total.cpus.push(perRequest(node1 - node0));
  total.slow += latencies.filter((l) => !(l <= slowMs)).length;
  total.sent += latencies.length;
  return `| ${side} ${w} | ${new Date(timedFrom).toISOString().slice(11, 23)} | ${at(0.5)} | ${at(0.99)} | ${at(1)} | ${perRequest(node1 - node0)} | ${perRequest(pg1 - pg0)} | ${describeNoise(noise)} | ${errors + non2xx} | ${describeClusters(slowClusters(latencies, rate, slowMs))} |`;
}

const database = await createBenchDatabase('pxs_windows');
const children: Child[] = [];
try {
  const data = await prepareDatabase(database.url, 'memory://');
  const scenario = benchScenarios(data).find((s) => s.name === args.endpoint);
  if (!scenario) throw new Error(`unknown endpoint "${args.endpoint}"; one of: ${benchScenarios(data).map((s) => s.name).join(', ')}`);
  const handle = await openDatabase({ databaseUrl: database.url, dataDir: 'memory://' });
  const between = scenario.writes ? () => removeBenchOrders(handle.db) : async () => undefined;
  try {
    const api = await startService({ DATABASE_URL: database.url });
    children.push(api);
    const b = await startBaselineB(database.url, data);
    children.push(b);
    const sides: [string, Child, Target][] = [['service', api, scenario.api], ['baseline (b)', b, scenario.baseline]];
    const nodeFlags = args['node-flags']?.split(/\s+/).filter(Boolean);
    if (nodeFlags?.length) {
      const variant = await startService({ DATABASE_URL: database.url }, nodeFlags);
      children.push(variant);
      sides.splice(1, 0, [`service ${nodeFlags.join(' ')}`, variant, scenario.api]);
    }
    if (args.redis) {
      const withRedis = await startServiceWithRedis(database.url);
      children.push(withRedis);
      sides.splice(1, 0, ['service, Redis limiter', withRedis, scenario.api]);
    }
    if (args.compare) {
      const other = await startServiceOf(args.compare, { DATABASE_URL: database.url });
      children.push(other);
      sides.splice(1, 0, [`service of ${args.compare}`, other, scenario.api]);
    }
    for (const [, child, target] of sides) {
      await pacedLatencies(child.url, target, rate, 3);
      await between();
    }
    process.stdout.write(`${scenario.name} at ${rate} req/s, ${seconds} s windows (a cluster: consecutive requests over ${slowMs / 2} ms with one over ${slowMs} ms)\n\n`);
    process.stdout.write(`| window | timed from (UTC) | p50 ms | p99 ms | max ms | process CPU µs/req | PostgreSQL CPU µs/req | ${NOISE_COLUMNS} | failed | slow clusters |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---|\n`);
    for (let w = 1; w <= windows; w++) {
      for (const [label, child, target] of sides) {
        process.stdout.write(`${await window(label, w, child, target)}\n`);
        await between();
      }
    }
    process.stdout.write(`\n| process | p99 ms of each window | requests over ${slowMs} ms (or failed) per 10,000 | process CPU µs/req, median of the windows | peak RSS MB |\n|---|---|---:|---:|---:|\n`);
    for (const [label, child] of sides) {
      const t = totals.get(label)!;
      const cpus = t.cpus.slice().sort((a, b) => a - b);
      process.stdout.write(`| ${label} | ${t.p99s.join(', ')} | ${((1e4 * t.slow) / t.sent).toFixed(1)} | ${cpus[Math.floor(cpus.length / 2)]} | ${child.peakRssMb()} |\n`);
    }
  } finally {
    await handle.close();
  }
} finally {
  await Promise.all(children.map((c) => c.stop()));
  await database.drop();
}
