import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRatePoller, type RatePoller } from '../../../src/features/rate-sources/poller.js';
import { quoteSink } from '../../../src/cli/quote-sink.js';
import { eventually } from '../../helpers/eventually.js';
import { startWorld } from '../../helpers/fixture.js';
import { call, type TestServer } from '../../helpers/server.js';
import type { StaffName } from '../../helpers/staff.js';
import type { World } from '../../helpers/world.js';
import { startSourceServer, type SourceServer } from './support.js';

// The whole path as it runs in `pxs serve`: a real source on 127.0.0.1 read by the poller with the service's own sink,
// offers re-priced from it, and partners' reads and offer.updated deliveries after it.

let server: TestServer;
let world: World;
let tokens: Record<StaffName, string>;
let source: SourceServer;
let poller: RatePoller;
let hook: string;
let sourceId: number;

/** What the source publishes now: the JSON kind's map, and how many times each value was served. */
let usdEur = '0.92';
const served = new Map<string, number>();

beforeAll(async () => {
  ({ server, world, tokens } = await startWorld());
  source = await startSourceServer();
  const answer = () => {
    served.set(usdEur, (served.get(usdEur) ?? 0) + 1);
    return { status: 200, body: JSON.stringify({ rates: { 'USD/EUR': usdEur } }) };
  };
  source.serve('/rates', () => ({
    ...answer(),
    headers: { 'content-type': 'application/json' },
  }));
  hook = (
    await server.db
      .insertInto('webhooks')
      .values({
        branch_id: world.branches.b1,
        url: 'https://hooks.example/b1',
        events: ['offer.updated'],
        secret_key: 'a'.repeat(64),
        updated_at: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  poller = startRatePoller(server.ctx, quoteSink, { tickMs: 100 });
  const created = await admin('POST', '/admin/rate-sources', {
    name: 'market',
    kind: 'json',
    url: source.url('/rates'),
    intervalSeconds: 1,
    maxAgeSeconds: 3,
  });
  expect(created.status, created.text).toBe(201);
  sourceId = created.body.id;
  await eventually(
    async () => (await admin('GET', `/admin/rate-sources/${sourceId}`)).body.lastSuccessAt !== null,
    15_000,
  );
  const priced = await admin('PATCH', `/admin/offers/${world.offers.aUsdEur}`, {
    pricing: {
      mode: 'source',
      sourceId,
      base: 'USD',
      quote: 'EUR',
      marginPercent: '-1',
      decimals: 4,
      maxJumpPercent: 5,
    },
  });
  expect(priced.status, priced.text).toBe(200);
  // 0.92 × 0.99 = 0.9108
  expect(priced.body.rate).toBe(0.9108);
});
afterAll(async () => {
  await poller?.stop();
  await source?.close();
  await server?.close();
});

const admin = (method: string, path: string, body?: unknown) =>
  call(server, method, path, { token: tokens.admin1, body });
const partnerRate = async (): Promise<number | undefined> => {
  const rates = (await call(server, 'GET', '/partner/public/rates', { key: world.keys.branch })).body as {
    offerId: number;
    rate: number;
  }[];
  return rates.find((r) => r.offerId === world.offers.aUsdEur)?.rate;
};
const offerEvents = async () =>
  (
    await server.db
      .selectFrom('webhook_deliveries')
      .select('body')
      .where('webhook_id', '=', hook)
      .where('event', '=', 'offer.updated')
      .execute()
  )
    .map((d) => (typeof d.body === 'string' ? JSON.parse(d.body) : d.body).data as { id: number; rate: unknown })
    .filter((d) => d.id === world.offers.aUsdEur)
    .map((d) => String(d.rate));
const hits = () => source.hits('/rates');
/** Waits until the source has been read `n` more times. */
const readsAfter = async (n: number) => {
  const from = hits();
  await eventually(async () => hits() >= from + n, 15_000);
};
const offer = async () =>
  (
    (await call(server, 'GET', '/admin/offers', { token: tokens.admin1, query: { limit: '100' } })).body.data as {
      id: number;
      [field: string]: unknown;
    }[]
  ).find((o) => o.id === world.offers.aUsdEur);

describe('a source read by the running poller', () => {
  it('re-prices its offer for partners by the next read, with one offer.updated', async () => {
    await readsAfter(1);
    const before = await offerEvents();
    usdEur = '0.95';
    // The source's interval is 1 s: the first read serving the new value comes within it. Its re-pricing is applied
    // before the poller claims the source again, so once the value has been served three times (a margin for a loaded machine) partners must see it:
    // the "within the interval plus a second", measured in reads, not in a loaded machine's wall clock.
    await eventually(async () => (served.get('0.95') ?? 0) >= 3, 15_000);
    // 0.95 × 0.99 = 0.9405
    expect(await partnerRate()).toBe(0.9405);
    await readsAfter(2);
    const after = await offerEvents();
    expect(after.length - before.length).toBe(1);
    expect(after.filter((rate) => rate === '0.9405')).toHaveLength(1);
  });

  it('sends no offer.updated while the reference does not change', async () => {
    await readsAfter(1);
    const before = (await offerEvents()).length;
    await readsAfter(3);
    expect((await offerEvents()).length).toBe(before);
  });

  it('suspends the offer at once on a jump beyond maxJumpPercent; a sane value brings it back', async () => {
    usdEur = '1.20';
    await eventually(async () => (served.get('1.20') ?? 0) >= 2, 15_000);
    expect(await offer()).toMatchObject({ pricingState: 'suspended', suspendedReason: 'jump', rate: 0.9405 });
    expect(await partnerRate()).toBeUndefined();
    // Within 5 % of the last applied reference (0.95): 0.96 × 0.99 = 0.9504
    usdEur = '0.96';
    await eventually(async () => (served.get('0.96') ?? 0) >= 2, 15_000);
    expect(await offer()).toMatchObject({ pricingState: 'active', rate: 0.9504 });
    expect(await partnerRate()).toBe(0.9504);
  });

  it('suspends the offer as stale once the source has failed for maxAgeSeconds; staff resume it, a fresh read keeps it', async () => {
    source.serve('/rates', { status: 503, body: 'down' });
    await eventually(async () => (await offer())?.suspendedReason === 'stale', 20_000);
    expect(await partnerRate()).toBeUndefined();
    const resumed = await admin('POST', `/admin/offers/${world.offers.aUsdEur}/resume`);
    expect(resumed.status, resumed.text).toBe(200);
    expect(resumed.body).toMatchObject({ pricingState: 'active', rate: 0.9504 });
    source.serve('/rates', () => ({
      status: 200,
      body: JSON.stringify({ rates: { 'USD/EUR': '0.96' } }),
      headers: { 'content-type': 'application/json' },
    }));
    await eventually(
      async () => (await admin('GET', `/admin/rate-sources/${sourceId}`)).body.lastError === null,
      15_000,
    );
    await readsAfter(2);
    expect(await offer()).toMatchObject({ pricingState: 'active', rate: 0.9504 });
    expect(await partnerRate()).toBe(0.9504);
  });
});
