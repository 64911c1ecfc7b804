import { measurePair, type Request } from '../lib/load.js';
import type { Child } from '../lib/processes.js';
import { countersAgree, scaleBranch, seedDeliveries, seedOrders, settleScale, STAFF_PASSWORD, type ScaleBranch } from '../lib/scale-seed.js';
import { atLeast, below, figures, type BenchContext, type Figure, type Scenario } from '../lib/scenario.js';
import { startService } from '../lib/service.js';
import { claimRate, pruningPass } from './scale-worker.js';
import { startReceiver } from './webhooks.js';

/** Issue 22's targets: ratios to the same measurement on a small history, side by side in one run. */
const LIST_RATIO = 0.7;
const SEED_SECONDS = 120;

/**
 * `npm run bench -- --scale` (PostgreSQL): a branch with 1,000,000 orders and four webhooks with 10,000,000
 * finished deliveries, seeded with SQL into the bench's own database (dropped afterwards by run.ts), beside the
 * bench's 2,000-order branch. Measures the lists against the small branch, the worker against an empty
 * database, and one pruning pass while the worker delivers. `--quick` seeds a tenth of it.
 */
export const scale: Scenario = {
  name: 'scale',
  async run(ctx) {
    const orders = ctx.quick ? 100_000 : 1_000_000;
    const deliveries = ctx.quick ? 1_000_000 : 10_000_000;
    const out: Figure[] = [];
    const small = await scaleBranch(ctx.db, 'Scale small branch', 1);
    const smallAttempts = await seedSmall(ctx, small);
    const big = await scaleBranch(ctx.db, 'Scale big branch', 4);
    out.push(await seed(ctx, big, orders, deliveries, smallAttempts));
    const service = await startService(ctx.databaseUrl);
    try {
      for (const m of await listMeasurements(service, small, big, orders)) {
        if (ctx.selected(m.name)) out.push(await pair(ctx, service, m));
      }
    } finally {
      await service.stop();
    }
    const rx = await startReceiver();
    try {
      if (ctx.selected('worker claim rate')) out.push(await claimRate(ctx, rx, deliveries));
      if (ctx.selected('pruning pass')) out.push(await pruningPass(ctx, rx, deliveries));
    } finally {
      rx.close();
    }
    return out;
  },
};

/** The small branch's history as the bench's: 2,000 orders (the bench's own branch has them) and 2,000 deliveries. */
async function seedSmall(ctx: BenchContext, small: ScaleBranch): Promise<number> {
  const own = await ctx.db.insertInto('exchanges').values([1, 2, 3, 4].map((i) => ({ branch_id: small.branchId, name: `Small ${i}`, updated_at: new Date() })))
    .returning('id').execute();
  await seedOrders(ctx.db, small.branchId, own.map((e) => e.id), [ctx.data.currencies.USD, ctx.data.currencies.EUR], 2000);
  return seedDeliveries(ctx.db, small.webhookIds, 2000);
}

async function seed(ctx: BenchContext, big: ScaleBranch, orders: number, deliveries: number, smallAttempts: number): Promise<Figure> {
  const started = performance.now();
  const exchanges = await ctx.db.insertInto('exchanges').values([1, 2, 3, 4].map((i) => ({ branch_id: big.branchId, name: `Big ${i}`, updated_at: new Date() })))
    .returning('id').execute();
  await seedOrders(ctx.db, big.branchId, exchanges.map((e) => e.id), [ctx.data.currencies.USD, ctx.data.currencies.EUR], orders);
  ctx.progress(`  seeded ${orders.toLocaleString('en')} orders in ${seconds(started)} s`);
  const t = performance.now();
  // Ids 1…2,000 are the small branch's.
  const attempts = smallAttempts + (await seedDeliveries(ctx.db, big.webhookIds, deliveries, 2001));
  ctx.progress(`  seeded ${deliveries.toLocaleString('en')} deliveries and ${attempts.toLocaleString('en')} attempts in ${seconds(t)} s`);
  const loaded = seconds(started);
  const settling = performance.now();
  await settleScale(ctx.db);
  const settled = seconds(started);
  const agree = await countersAgree(ctx.db);
  ctx.progress(`  loaded in ${loaded} s, vacuum analyze ${seconds(settling)} s: ${settled} s in all; counters agree with count(*): ${agree}`);
  const rows = orders + deliveries + attempts;
  return {
    name: `seed ${orders.toLocaleString('en')} orders + ${deliveries.toLocaleString('en')} deliveries (rows/s; ${loaded} s, ${settled} s with vacuum analyze)`,
    subject: 'SQL generate_series', perSecond: Math.round(rows / loaded),
    checks: [below(loaded, SEED_SECONDS, `< ${SEED_SECONDS} s`), { target: 'counters = count(*)', met: agree }],
  };
}

interface Measurement { name: string; small: Request; big: Request }

/** Each list, the same request on the small history and on the large one. */
async function listMeasurements(service: Child, small: ScaleBranch, big: ScaleBranch, orders: number): Promise<Measurement[]> {
  const partner = (key: string, path: string): Request => ({ method: 'GET', path: `/api/v1/partner${path}`, headers: { authorization: `Bearer ${key}` } });
  const cursorAt = async (key: string, position: number) => {
    const res = await fetch(`${service.url}/api/v1/partner/orders?limit=20&skip=${position - 20}`, { headers: { authorization: `Bearer ${key}` } });
    const body = (await res.json()) as { meta: { nextCursor: string } };
    return encodeURIComponent(body.meta.nextCursor);
  };
  const token = async (email: string) => {
    const res = await fetch(`${service.url}/api/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: STAFF_PASSWORD }) });
    return ((await res.json()) as { accessToken: string }).accessToken;
  };
  const staff = async (email: string, path: string): Promise<Request> => ({ method: 'GET', path: `/api/v1/admin${path}`, headers: { authorization: `Bearer ${await token(email)}` } });
  const status = `filter=${encodeURIComponent('{"status":"CANCEL"}')}`;
  const deep = orders / 2;
  return [
    { name: 'GET /partner/orders?limit=20', small: partner(small.key, '/orders?limit=20'), big: partner(big.key, '/orders?limit=20') },
    {
      name: `GET /partner/orders?limit=20&cursor= (position ${deep.toLocaleString('en')}; small: 1,000)`,
      small: partner(small.key, `/orders?limit=20&cursor=${await cursorAt(small.key, 1000)}`), big: partner(big.key, `/orders?limit=20&cursor=${await cursorAt(big.key, deep)}`),
    },
    { name: 'GET /partner/orders?limit=20&filter={status}', small: partner(small.key, `/orders?limit=20&${status}`), big: partner(big.key, `/orders?limit=20&${status}`) },
    { name: 'GET /admin/orders?limit=20 (branch admin)', small: await staff(small.staffEmail, '/orders?limit=20'), big: await staff(big.staffEmail, '/orders?limit=20') },
    {
      name: 'GET /partner/webhooks/:id/deliveries?limit=20',
      small: partner(small.key, `/webhooks/${small.webhookIds[0]}/deliveries?limit=20`), big: partner(big.key, `/webhooks/${big.webhookIds[0]}/deliveries?limit=20`),
    },
  ];
}

async function pair(ctx: BenchContext, service: Child, m: Measurement): Promise<Figure> {
  const { sides: [small, big], ratio, ratios } = await measurePair([{ url: service.url, request: m.small }, { url: service.url, request: m.big }], ctx.timing);
  const target = m.name.startsWith('GET /partner/orders') ? [atLeast(ratio, LIST_RATIO, `ratio ≥ ${LIST_RATIO}`)] : [];
  return {
    name: m.name, subject: 'large history', ...figures(big),
    baseline: { subject: 'small history', perSecond: small.rps, p50Ms: small.p50Ms, p99Ms: small.p99Ms, peakRssMb: 0, failed: small.failed },
    ratio, sliceRatios: ratios, peakRssMb: service.peakRssMb(), checks: target,
  };
}

const seconds = (since: number) => Math.round((performance.now() - since) / 1000);
