import { measurePair, type Request, type Timing } from '../lib/load.js';
import type { Child } from '../lib/processes.js';
import {
  countersAgree,
  scaleBranch,
  seedDeliveries,
  seedHistories,
  seedOrders,
  seedTurnover,
  settleScale,
  STAFF_PASSWORD,
  type ScaleBranch,
} from '../lib/scale-seed.js';
import { atLeast, below, figures, type BenchContext, type Figure, type Scenario } from '../lib/scenario.js';
import { startService } from '../lib/service.js';
import { claimRate, pruningPass } from './scale-worker.js';
import { startReceiver } from './webhooks.js';

/** Issue 22's targets: ratios to the same measurement on a small history, side by side in one run. */
const LIST_RATIO = 0.7;
const SEED_SECONDS = 120;

/**
 * Every list's filters and sorts, each on its own and the combinations partners use, under the load the
 * issue was found with (10 connections); short slices, as they are many.
 */
const COMBINATIONS: Timing = { warmup: 1, slice: 1, slices: 3, connections: 10 };

/**
 * `npm run bench -- --scale` (PostgreSQL): a branch with 1,000,000 orders, clients, audit rows and events, and four
 * webhooks with 10,000,000 finished deliveries, seeded with SQL into the bench's own database (dropped afterwards by
 * run.ts), beside a branch with 2,000 of each. Measures the lists against the small branch, the worker against an
 * empty database, and one pruning pass while the worker delivers. `--quick` seeds a tenth of it.
 */
export const scale: Scenario = {
  name: 'scale',
  async run(ctx) {
    const orders = ctx.quick ? 100_000 : 1_000_000;
    const deliveries = ctx.quick ? 1_000_000 : 10_000_000;
    const out: Figure[] = [];
    const small = await scaleBranch(ctx.db, 'Scale small branch', 1);
    const smallSeed = await seedSmall(ctx, small);
    const big = await scaleBranch(ctx.db, 'Scale big branch', 4);
    const bigSeed = await seed(ctx, big, orders, deliveries, smallSeed.attempts);
    out.push(bigSeed.figure);
    const service = await startService(ctx.databaseUrl);
    try {
      const sides = {
        small: { ...small, rows: SMALL, exchangeIds: smallSeed.exchangeIds },
        big: { ...big, rows: orders, exchangeIds: bigSeed.exchangeIds },
      };
      for (const m of await listMeasurements(service, sides)) {
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

const SMALL = 2000;

/** The small branch's history as the bench's: 2,000 orders (the bench's own branch has them), deliveries, clients, audit rows and events. */
async function seedSmall(ctx: BenchContext, small: ScaleBranch): Promise<{ attempts: number; exchangeIds: number[] }> {
  const own = await ctx.db
    .insertInto('exchanges')
    .values([1, 2, 3, 4].map((i) => ({ branch_id: small.branchId, name: `Small ${i}`, updated_at: new Date() })))
    .returning('id')
    .execute();
  const exchangeIds = own.map((e) => e.id);
  await seedOrders(ctx.db, small.branchId, exchangeIds, [ctx.data.currencies.USD, ctx.data.currencies.EUR], SMALL);
  await seedTurnover(ctx.db, small.branchId);
  await seedHistories(ctx.db, small, exchangeIds, SMALL);
  return { attempts: await seedDeliveries(ctx.db, small.webhookIds, SMALL), exchangeIds };
}

async function seed(
  ctx: BenchContext,
  big: ScaleBranch,
  orders: number,
  deliveries: number,
  smallAttempts: number,
): Promise<{ figure: Figure; exchangeIds: number[] }> {
  const started = performance.now();
  const exchanges = await ctx.db
    .insertInto('exchanges')
    .values([1, 2, 3, 4].map((i) => ({ branch_id: big.branchId, name: `Big ${i}`, updated_at: new Date() })))
    .returning('id')
    .execute();
  await seedOrders(
    ctx.db,
    big.branchId,
    exchanges.map((e) => e.id),
    [ctx.data.currencies.USD, ctx.data.currencies.EUR],
    orders,
  );
  ctx.progress(`  seeded ${orders.toLocaleString('en')} orders in ${seconds(started)} s`);
  const turnover = performance.now();
  await seedTurnover(ctx.db, big.branchId);
  ctx.progress(`  turnover aggregates of their SUCCESS orders in ${seconds(turnover)} s`);
  const t = performance.now();
  // Ids 1…2,000 are the small branch's.
  const attempts = smallAttempts + (await seedDeliveries(ctx.db, big.webhookIds, deliveries, 2001));
  ctx.progress(
    `  seeded ${deliveries.toLocaleString('en')} deliveries and ${attempts.toLocaleString('en')} attempts in ${seconds(t)} s`,
  );
  const loaded = seconds(started);
  const settling = performance.now();
  await settleScale(ctx.db);
  const settled = seconds(started);
  const agree = await countersAgree(ctx.db);
  ctx.progress(
    `  loaded in ${loaded} s, vacuum analyze ${seconds(settling)} s: ${settled} s in all; counters agree with count(*): ${agree}`,
  );
  const histories = performance.now();
  await seedHistories(
    ctx.db,
    big,
    exchanges.map((e) => e.id),
    orders,
  );
  await settleScale(ctx.db);
  ctx.progress(
    `  seeded ${orders.toLocaleString('en')} clients, audit rows and events, with vacuum analyze, in ${seconds(histories)} s`,
  );
  const rows = orders + deliveries + attempts;
  return {
    exchangeIds: exchanges.map((e) => e.id),
    figure: {
      name: `seed ${orders.toLocaleString('en')} orders + ${deliveries.toLocaleString('en')} deliveries (rows/s; ${loaded} s, ${settled} s with vacuum analyze)`,
      subject: 'SQL generate_series',
      perSecond: Math.round(rows / loaded),
      checks: [below(loaded, SEED_SECONDS, `< ${SEED_SECONDS} s`), { target: 'counters = count(*)', met: agree }],
    },
  };
}

interface Measurement {
  name: string;
  small: Request;
  big: Request;
  timing?: Timing;
}

/** A side of the pairs: its branch, how many rows each of its histories holds, its exchanges. */
interface Side extends ScaleBranch {
  rows: number;
  exchangeIds: number[];
}

const SEEDED_FROM = Date.parse('2024-01-01T00:00:00Z');
const DAY = 86_400_000;

/** The query string of a list request: `filter` and `sort` as JSON. */
const query = (params: Record<string, unknown>) =>
  new URLSearchParams(
    Object.entries(params).map(([k, v]) => [
      k,
      typeof v === 'string' || typeof v === 'number' ? String(v) : JSON.stringify(v),
    ]),
  ).toString();

/**
 * Each list, the same request on the small history and on the large one. A time filter names the same moment of
 * each history (its middle, its last week): orders, clients, audit rows and events are a minute apart from
 * 2024-01-01, deliveries spread over the last 28 days.
 */
async function listMeasurements(service: Child, sides: { small: Side; big: Side }): Promise<Measurement[]> {
  const { small, big } = sides;
  const partner = (key: string, path: string): Request => ({
    method: 'GET',
    path: `/api/v1/partner${path}`,
    headers: { authorization: `Bearer ${key}` },
  });
  const cursorAt = async (key: string, position: number) => {
    const res = await fetch(`${service.url}/api/v1/partner/orders?limit=20&skip=${position - 20}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const body = (await res.json()) as { meta: { nextCursor: string } };
    return encodeURIComponent(body.meta.nextCursor);
  };
  const token = async (email: string) => {
    const res = await fetch(`${service.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: STAFF_PASSWORD }),
    });
    return ((await res.json()) as { accessToken: string }).accessToken;
  };
  const tokens = { small: await token(small.staffEmail), big: await token(big.staffEmail) };
  const staff = (side: 'small' | 'big', path: string): Request => ({
    method: 'GET',
    path: `/api/v1/admin${path}`,
    headers: { authorization: `Bearer ${tokens[side]}` },
  });
  const status = `filter=${encodeURIComponent('{"status":"CANCEL"}')}`;
  const deep = big.rows / 2;
  const out: Measurement[] = [
    {
      name: 'GET /partner/orders?limit=20',
      small: partner(small.key, '/orders?limit=20'),
      big: partner(big.key, '/orders?limit=20'),
    },
    {
      name: `GET /partner/orders?limit=20&cursor= (position ${deep.toLocaleString('en')}; small: 1,000)`,
      small: partner(small.key, `/orders?limit=20&cursor=${await cursorAt(small.key, 1000)}`),
      big: partner(big.key, `/orders?limit=20&cursor=${await cursorAt(big.key, deep)}`),
    },
    {
      name: 'GET /partner/orders?limit=20&filter={status}',
      small: partner(small.key, `/orders?limit=20&${status}`),
      big: partner(big.key, `/orders?limit=20&${status}`),
    },
    {
      name: 'GET /admin/orders?limit=20 (branch admin)',
      small: staff('small', '/orders?limit=20'),
      big: staff('big', '/orders?limit=20'),
    },
    {
      name: 'GET /partner/webhooks/:id/deliveries?limit=20',
      small: partner(small.key, `/webhooks/${small.webhookIds[0]}/deliveries?limit=20`),
      big: partner(big.key, `/webhooks/${big.webhookIds[0]}/deliveries?limit=20`),
    },
  ];
  /** One combination of a list: `params(side)` gives each side's query (the values differ, the meaning does not). */
  const combination = (name: string, request: (side: Side, which: 'small' | 'big') => Request) =>
    out.push({ name, small: request(small, 'small'), big: request(big, 'big'), timing: COMBINATIONS });
  const iso = (ms: number) => new Date(ms).toISOString();
  const middle = (s: Side) => iso(SEEDED_FROM + (s.rows / 2) * 60_000);
  const lastWeek = (s: Side) => iso(SEEDED_FROM + s.rows * 60_000 - 7 * DAY);

  // Orders: the issue's combinations, then each filter and each sort on its own; the branch admin's board alike.
  const orderCases: [string, (s: Side) => Record<string, unknown>][] = [
    [
      'filter={createdAt:{lt:middle}}&sort=[[createdAt,DESC]]',
      (s) => ({ filter: { createdAt: { lt: middle(s) } }, sort: [['createdAt', 'DESC']] }),
    ],
    ['sort=[[clientAmount,DESC]]', () => ({ sort: [['clientAmount', 'DESC']] })],
    [
      'filter={cashboxId,createdAt:{gte:last week}}&sort=[[createdAt,DESC]]',
      (s) => ({
        filter: { cashboxId: s.exchangeIds[0], createdAt: { gte: lastWeek(s) } },
        sort: [['createdAt', 'DESC']],
      }),
    ],
    [
      'filter={status:ORDERINIT}&sort=[[updatedAt,DESC]]',
      () => ({ filter: { status: 'ORDERINIT' }, sort: [['updatedAt', 'DESC']] }),
    ],
  ];
  const orderSingles: [string, (s: Side) => Record<string, unknown>][] = [
    ['filter={hashedId}', (s) => ({ filter: { hashedId: `scale-${s.branchId}-${s.rows / 2}` } })],
    ['filter={cashboxId}', (s) => ({ filter: { cashboxId: s.exchangeIds[1] } })],
    ['filter={userId}', () => ({ filter: { userId: 1 } })],
    ['filter={operationType:finop}', () => ({ filter: { operationType: 'finop' } })],
    ['filter={createdAt:{lt:middle}}', (s) => ({ filter: { createdAt: { lt: middle(s) } } })],
    ['filter={createdAt:{gte:last week}}', (s) => ({ filter: { createdAt: { gte: lastWeek(s) } } })],
    ['sort=[[id,DESC]]', () => ({ sort: [['id', 'DESC']] })],
    ['sort=[[createdAt,DESC]]', () => ({ sort: [['createdAt', 'DESC']] })],
    ['sort=[[updatedAt,ASC]]', () => ({ sort: [['updatedAt', 'ASC']] })],
    ['sort=[[status,DESC]]', () => ({ sort: [['status', 'DESC']] })],
    ['sort=[[clientAmount,ASC]]', () => ({ sort: [['clientAmount', 'ASC']] })],
    ['sort=[[exchangeAmount,DESC]]', () => ({ sort: [['exchangeAmount', 'DESC']] })],
  ];
  for (const [name, params] of [...orderCases, ...orderSingles]) {
    combination(`GET /partner/orders?limit=20&${name}`, (s) => partner(s.key, `/orders?limit=20&${query(params(s))}`));
  }
  for (const [name, params] of orderCases) {
    combination(`GET /admin/orders?limit=20&${name} (branch admin)`, (s, which) =>
      staff(which, `/orders?limit=20&${query(params(s))}`),
    );
  }

  // A webhook's delivery log (newest first unless sorted), 2,500,000 deliveries on the large side.
  const week = iso(Date.now() - 7 * DAY);
  const deliveryCases: [string, Record<string, unknown>][] = [
    ['filter={status:succeeded}', { filter: { status: 'succeeded' } }],
    ['filter={event:order.created}', { filter: { event: 'order.created' } }],
    ['filter={createdAt:{gte:a week ago}}', { filter: { createdAt: { gte: week } } }],
    ['sort=[[id,ASC]]', { sort: [['id', 'ASC']] }],
    ['sort=[[status,ASC]]', { sort: [['status', 'ASC']] }],
    ['sort=[[event,ASC]]', { sort: [['event', 'ASC']] }],
    ['sort=[[attempts,DESC]]', { sort: [['attempts', 'DESC']] }],
    ['sort=[[updatedAt,DESC]]', { sort: [['updatedAt', 'DESC']] }],
  ];
  for (const [name, params] of deliveryCases) {
    combination(`GET /partner/webhooks/:id/deliveries?limit=20&${name}`, (s) =>
      partner(s.key, `/webhooks/${s.webhookIds[0]}/deliveries?limit=20&${query(params)}`),
    );
  }

  // Clients of the branch: the exact lookups and each sort.
  const clientCases: [string, (s: Side) => Record<string, unknown>][] = [
    ['', () => ({})],
    ['filter={email}', (s) => ({ filter: { email: `client-${s.rows / 2}@branch-${s.branchId}.example` } })],
    [
      'filter={phone}',
      (s) => ({ filter: { phone: `+1${String(s.rows / 2).padStart(9, '0')}${String(s.branchId).padStart(3, '0')}` } }),
    ],
    ['sort=[[id,DESC]]', () => ({ sort: [['id', 'DESC']] })],
    ['sort=[[createdAt,DESC]]', () => ({ sort: [['createdAt', 'DESC']] })],
    ['sort=[[updatedAt,DESC]]', () => ({ sort: [['updatedAt', 'DESC']] })],
  ];
  for (const [name, params] of clientCases) {
    combination(`GET /partner/clients?limit=20${name ? `&${name}` : ''}`, (s) =>
      partner(s.key, `/clients?limit=20${name ? `&${query(params(s))}` : ''}`),
    );
  }

  // The audit log as the branch's admin reads it: newest first, oldest first, each filter.
  const auditCases: [string, (s: Side) => Record<string, unknown>][] = [
    ['', () => ({})],
    ['sort=oldest', () => ({ sort: 'oldest' })],
    ['entityType=offer', () => ({ entityType: 'offer' })],
    ['entityType=offer&entityId', () => ({ entityType: 'offer', entityId: '1001' })],
    ['actor=cli', () => ({ actor: 'cli' })],
    ['action=offer.update', () => ({ action: 'offer.update' })],
    ['from=last week', (s) => ({ from: lastWeek(s) })],
    ['to=middle', (s) => ({ to: middle(s) })],
  ];
  for (const [name, params] of auditCases) {
    combination(`GET /admin/audit?limit=20${name ? `&${name}` : ''} (branch admin)`, (s, which) =>
      staff(which, `/audit?limit=20${name ? `&${query(params(s))}` : ''}`),
    );
  }
  const staffIds = await Promise.all(
    [small, big].map(
      async (s) =>
        (
          await fetch(`${service.url}/api/v1/admin/audit?limit=1&actor=staff`, {
            headers: { authorization: `Bearer ${tokens[s === small ? 'small' : 'big']}` },
          }).then((r) => r.json() as Promise<{ data: { staffUserId: number }[] }>)
        ).data[0]!.staffUserId,
    ),
  );
  out.push({
    name: 'GET /admin/audit?limit=20&staffUserId (branch admin)',
    timing: COMBINATIONS,
    small: staff('small', `/audit?limit=20&staffUserId=${staffIds[0]}`),
    big: staff('big', `/audit?limit=20&staffUserId=${staffIds[1]}`),
  });

  // The events feed from its start (it has no filter or sort).
  combination('GET /partner/events?limit=100', (s) => partner(s.key, '/events?limit=100'));

  // The turnover report over 30 days of each history (the small one's all fall in them), from the aggregates: by day in
  // UTC (whole day buckets), and in a quarter-hour zone (hours and quarters at each day's edges, the most buckets).
  const month = (s: Side) => {
    const first = SEEDED_FROM + Math.floor(s.rows / 2 / 1440 / 30) * 30 * DAY;
    return `from=${iso(first).slice(0, 10)}&to=${iso(first + 29 * DAY).slice(0, 10)}`;
  };
  for (const zone of ['', '&tz=Asia/Kathmandu']) {
    combination(`GET /admin/reports/turnover?groupBy=day (30 days${zone}; branch admin)`, (s, which) =>
      staff(which, `/reports/turnover?${month(s)}&groupBy=day${zone}`),
    );
  }
  return out;
}

async function pair(ctx: BenchContext, service: Child, m: Measurement): Promise<Figure> {
  const timing = ctx.quick || !m.timing ? { ...ctx.timing, connections: m.timing?.connections } : m.timing;
  const {
    sides: [small, big],
    ratio,
    ratios,
  } = await measurePair(
    [
      { url: service.url, request: m.small },
      { url: service.url, request: m.big },
    ],
    timing,
  );
  return {
    name: m.name,
    subject: 'large history',
    ...figures(big),
    baseline: {
      subject: 'small history',
      perSecond: small.rps,
      p50Ms: small.p50Ms,
      p99Ms: small.p99Ms,
      peakRssMb: 0,
      failed: small.failed,
    },
    ratio,
    sliceRatios: ratios,
    peakRssMb: service.peakRssMb(),
    checks: [atLeast(ratio, LIST_RATIO, `ratio ≥ ${LIST_RATIO}`)],
  };
}

const seconds = (since: number) => Math.round((performance.now() - since) / 1000);
