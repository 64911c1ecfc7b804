import { openDatabase } from '../../src/db/database.js';
import { createBenchDatabase, prepareDatabase, removeCreatedOrders } from '../lib/database.js';
import { load } from '../lib/load.js';
import type { Child } from '../lib/processes.js';
import type { Figure, Scenario } from '../lib/scenario.js';
import { REDIS_URL, startService, startWorker } from '../lib/service.js';
import { startReceiver } from './webhooks.js';

const NAME = 'scale-out';

/**
 * API and worker processes scaled out on one PostgreSQL and Redis (docs/scaling.md, step 1): order creations
 * (POST /partner/orders, every one an `order.created` delivery to a local receiver) spread over N API processes,
 * the deliveries drained by N worker processes; 1 + 1 and 2 + 2 in alternating rounds on a database of their own.
 * Orders/s count 2xx answers; deliveries/s the receiver's arrivals within the same window.
 */
export const scaleOut: Scenario = {
  name: NAME,
  async run(ctx) {
    if (!ctx.selected(NAME)) return [];
    const seconds = ctx.quick ? 4 : 10;
    const rounds = ctx.quick ? 1 : 2;
    const bench = await createBenchDatabase('pxs_bench_scaleout');
    const rx = await startReceiver();
    try {
      const data = await prepareDatabase(bench.url);
      const handle = await openDatabase({ databaseUrl: bench.url, dataDir: 'memory://' });
      try {
        await handle.db
          .insertInto('webhooks')
          .values({
            branch_id: data.branchId,
            url: rx.url,
            events: ['order.created'],
            secret_key: 'b'.repeat(64),
            updated_at: new Date(),
          })
          .execute();
        const body = JSON.stringify({
          cashbox: { id: data.exchangeId },
          currency1: { id: data.currencies.USD },
          currency2: { id: data.currencies.EUR },
          operationType: 'offer',
          clientAmount: 250.5,
          comment: 'bench',
        });
        const request = {
          method: 'POST' as const,
          path: '/api/v1/partner/orders',
          headers: { authorization: `Bearer ${data.keys.branch}` },
          body,
        };
        const results: Record<number, { orders: number[]; deliveries: number[] }> = {
          1: { orders: [], deliveries: [] },
          2: { orders: [], deliveries: [] },
        };
        for (let round = 0; round < rounds; round++) {
          for (const n of [1, 2]) {
            const prefix = `bench-scaleout-${Date.now()}`;
            const env = { REDIS_URL, REDIS_KEY_PREFIX: prefix };
            const children: Child[] = [];
            try {
              for (let i = 0; i < n; i++)
                children.push(await startService(bench.url, env), await startWorker(bench.url));
              const apis = children.filter((_, i) => i % 2 === 0);
              await load({ url: apis.map((c) => c.url), request }, 2);
              rx.reset();
              const l = await load({ url: apis.map((c) => c.url), request }, seconds);
              const delivered = rx.received() / seconds;
              ctx.progress(
                `  ${n} + ${n}: ${Math.round(l.rps)} orders/s (${l.failed} failed), ${Math.round(delivered)} deliveries/s`,
              );
              results[n].orders.push(l.rps);
              results[n].deliveries.push(delivered);
            } finally {
              for (const c of children) await c.stop();
            }
            await removeCreatedOrders(handle.db);
          }
        }
        const mean = (xs: number[]) => xs.reduce((a, x) => a + x, 0) / xs.length;
        const figure = (what: 'orders' | 'deliveries', name: string): Figure => {
          const [one, two] = [mean(results[1][what]), mean(results[2][what])];
          return {
            name,
            subject: '2 API + 2 worker processes',
            perSecond: Math.round(two),
            baseline: {
              subject: '1 API + 1 worker',
              perSecond: Math.round(one),
              p50Ms: 0,
              p99Ms: 0,
              peakRssMb: 0,
              failed: 0,
            },
            ratio: two / one,
            checks: [],
          };
        };
        return [
          figure('orders', 'POST /partner/orders, 2xx/s (each enqueues a delivery)'),
          figure('deliveries', 'webhook deliveries received/s in the same window'),
        ];
      } finally {
        await handle.close();
      }
    } finally {
      rx.close();
      await bench.drop();
    }
  },
};
