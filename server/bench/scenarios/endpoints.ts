import { measurePair, type Request } from '../lib/load.js';
import { removeCreatedOrders } from '../lib/database.js';
import type { Child } from '../lib/processes.js';
import { atLeast, below, figures, type BenchContext, type Figure, type Scenario } from '../lib/scenario.js';
import type { BenchData } from '../lib/seed.js';
import { startBaseline, startService, startServiceWithRedis } from '../lib/service.js';

/** The targets: a share of baseline (b)'s throughput measured beside it, and the API process's memory under load. */
const READ_RATIO = 0.7;
const WRITE_RATIO = 0.5;
const RSS_MB = 200;
const OFFERS = 'GET /partner/offers?limit=20';

interface Endpoint {
  name: string;
  writes: boolean;
  service: Request;
  baseline: Request;
}

/** The partner endpoints measured, each with its request to the service and to baseline (b). */
function endpointsOf(d: BenchData): Endpoint[] {
  const auth = (key: string) => ({ authorization: `Bearer ${key}` });
  const estimate = JSON.stringify({
    exchangeId: d.exchangeId,
    sourceCurrencyId: d.currencies.USD,
    destCurrencyId: d.currencies.EUR,
    amount: 250.5,
  });
  const order = JSON.stringify({
    cashbox: { id: d.exchangeId },
    currency1: { id: d.currencies.USD },
    currency2: { id: d.currencies.EUR },
    operationType: 'offer',
    clientAmount: 250.5,
    comment: 'bench',
  });
  const get = (name: string, path: string, key: string, baselinePath = path): Endpoint => ({
    name,
    writes: false,
    service: { method: 'GET', path, headers: auth(key) },
    baseline: { method: 'GET', path: baselinePath },
  });
  const post = (name: string, path: string, key: string, body: string, writes = false): Endpoint => ({
    name,
    writes,
    service: { method: 'POST', path, headers: auth(key), body },
    baseline: { method: 'POST', path, body },
  });
  return [
    get('GET /partner/public/exchanges', '/api/v1/partner/public/exchanges', d.keys.public),
    get(OFFERS, '/api/v1/partner/offers?limit=20', d.keys.branch, '/api/v1/partner/offers'),
    post('POST /partner/public/estimate', '/api/v1/partner/public/estimate', d.keys.public, estimate),
    get('GET /partner/orders?limit=20', '/api/v1/partner/orders?limit=20', d.keys.branch, '/api/v1/partner/orders'),
    post('POST /partner/orders', '/api/v1/partner/orders', d.keys.branch, order, true),
  ];
}

/**
 * Each endpoint on the service as deployed (PostgreSQL, a real API key, the rate limiter counting) against baseline
 * (b), the same SQL in a bare Fastify app; then the offers page once more with the Redis rate limiter.
 */
export const endpoints: Scenario = {
  name: 'endpoints',
  async run(ctx) {
    const list = endpointsOf(ctx.data).filter((e) => ctx.selected(e.name));
    if (list.length === 0) return [];
    const out: Figure[] = [];
    const b = await startBaseline('fastify-sql', {
      DATABASE_URL: ctx.databaseUrl,
      BENCH_BRANCH_ID: String(ctx.data.branchId),
      BENCH_KEY_ID: ctx.data.branchKeyId,
    });
    try {
      await withService(startService(ctx.databaseUrl), async (service) => {
        for (const e of list) out.push(await pair(ctx, b, service, 'service (PostgreSQL)', e));
      });
      const offers = list.find((e) => e.name === OFFERS);
      if (offers) {
        await withService(startServiceWithRedis(ctx.databaseUrl), async (service) => {
          out.push(await pair(ctx, b, service, 'service (PostgreSQL + Redis limiter)', offers));
        });
      }
    } finally {
      await b.stop();
    }
    return out;
  },
};

async function withService(starting: Promise<Child>, use: (service: Child) => Promise<void>): Promise<void> {
  const service = await starting;
  try {
    await use(service);
  } finally {
    await service.stop();
  }
}

async function pair(ctx: BenchContext, b: Child, service: Child, subject: string, e: Endpoint): Promise<Figure> {
  const between = e.writes ? () => removeCreatedOrders(ctx.db) : undefined;
  const {
    sides: [lb, ls],
    ratio,
    ratios,
  } = await measurePair(
    [
      { url: b.url, request: e.baseline },
      { url: service.url, request: e.service },
    ],
    ctx.timing,
    between,
  );
  const min = e.writes ? WRITE_RATIO : READ_RATIO;
  const peakRssMb = service.peakRssMb();
  return {
    name: e.name,
    subject,
    ...figures(ls),
    peakRssMb,
    baseline: {
      subject: 'baseline (b) Fastify + SQL',
      perSecond: lb.rps,
      p50Ms: lb.p50Ms,
      p99Ms: lb.p99Ms,
      peakRssMb: b.peakRssMb(),
      failed: lb.failed,
    },
    ratio,
    sliceRatios: ratios,
    checks: [atLeast(ratio, min, `ratio ≥ ${min.toFixed(2)}`), below(peakRssMb, RSS_MB, `RSS < ${RSS_MB} MB`)],
  };
}
