import { openDatabase } from '../../src/db/database.js';
import { pruneDeliveries } from '../../src/features/delivery/repository.js';
import { createBenchDatabase, prepareDatabase } from '../lib/database.js';
import { PRUNE_DAYS } from '../lib/scale-seed.js';
import { atLeast, type BenchContext, type Figure } from '../lib/scenario.js';
import { drainBacklog, type Receiver } from './webhooks.js';

/** Issue 22's target: the worker with ten million finished deliveries in the table, against an empty table. */
const CLAIM_RATIO = 0.8;

/**
 * The worker draining a backlog with the seeded deliveries in the table, against the same on an empty database,
 * in alternating rounds; the ratio is the median of the rounds' ratios.
 */
export async function claimRate(ctx: BenchContext, rx: Receiver, deliveries: number): Promise<Figure> {
  const backlog = ctx.quick ? 2000 : 6000;
  const rounds = ctx.quick ? 1 : 3;
  const empty = await createBenchDatabase('pxs_bench_empty');
  try {
    await prepareDatabase(empty.url);
    const handle = await openDatabase({ databaseUrl: empty.url, dataDir: 'memory://' });
    try {
      const rates: [number, number][] = [];
      for (let i = 0; i < rounds; i++) {
        const a = await drainBacklog(handle.db, empty.url, rx, backlog);
        const b = await drainBacklog(ctx.db, ctx.databaseUrl, rx, backlog);
        ctx.progress(
          `  worker: empty table ${a.perSecond}/s, ${deliveries.toLocaleString('en')} finished ${b.perSecond}/s`,
        );
        rates.push([a.perSecond, b.perSecond]);
      }
      const ratios = rates.map(([a, b]) => b / a).sort((x, y) => x - y);
      const ratio = ratios[Math.floor(ratios.length / 2)];
      const mean = (k: 0 | 1) => Math.round(rates.reduce((s, r) => s + r[k], 0) / rates.length);
      return {
        name: `worker claim rate (deliveries/s, backlog ${backlog.toLocaleString('en')})`,
        subject: `${deliveries.toLocaleString('en')} finished deliveries`,
        perSecond: mean(1),
        baseline: { subject: 'empty table', perSecond: mean(0), p50Ms: 0, p99Ms: 0, peakRssMb: 0, failed: 0 },
        ratio,
        sliceRatios: ratios.map((r) => Number(r.toFixed(3))),
        checks: [atLeast(ratio, CLAIM_RATIO, `ratio ≥ ${CLAIM_RATIO}`)],
      };
    } finally {
      await handle.close();
    }
  } finally {
    await empty.drop();
  }
}

/**
 * Pruning passes as the worker's sweep makes them (pruneDeliveries with its defaults: batches of 1,000, at most
 * 20), on deliveries older than PRUNE_DAYS, while a worker drains a backlog: rows deleted per second, and the
 * deliveries the worker completed during each pass (none in a pass would mean the pruning blocked it).
 */
export async function pruningPass(ctx: BenchContext, rx: Receiver, deliveries: number): Promise<Figure> {
  const passes = ctx.quick ? 3 : 10;
  let pruned = 0;
  let ms = 0;
  const during: number[] = [];
  await drainBacklog(ctx.db, ctx.databaseUrl, rx, ctx.quick ? 10_000 : 40_000, async () => {
    for (let i = 0; i < passes; i++) {
      const before = rx.received();
      const t = performance.now();
      pruned += await pruneDeliveries(ctx.db, PRUNE_DAYS);
      ms += performance.now() - t;
      during.push(rx.received() - before);
    }
  });
  const perSecond = Math.round(pruned / (ms / 1000));
  ctx.progress(
    `  pruned ${pruned.toLocaleString('en')} in ${Math.round(ms)} ms; worker deliveries during each pass: ${during.join(', ')}`,
  );
  return {
    name: `pruning: ${passes} passes, ${pruned.toLocaleString('en')} deliveries (rows/s; deliveries sent during each pass: ${during.join(', ')})`,
    subject: `pruneDeliveries on ${deliveries.toLocaleString('en')}`,
    perSecond,
    checks: [{ target: 'worker delivers during every pass', met: during.every((n) => n > 0) }],
  };
}
