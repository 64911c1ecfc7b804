import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, type TestServer } from '../../helpers/server.js';
import type { StaffName } from '../../helpers/staff.js';
import type { World } from '../../helpers/world.js';
import { startWorld } from '../../helpers/fixture.js';
import { applySourceQuotes, pruneOfferRates, suspendStaleOffers } from '../../../src/features/offers/service.js';
import { orderBody, placeOrder } from '../orders/support.js';

// Offers priced from a rate source (docs/rates.md): the source's rows are written here as its poller would leave them.

let server: TestServer;
let world: World;
let tokens: Record<StaffName, string>;
let hookB1: string;
let source: number;
let otherSource: number;

beforeAll(async () => {
  ({ server, world, tokens } = await startWorld());
  const hook = await server.db
    .insertInto('webhooks')
    .values({
      branch_id: world.branches.b1,
      url: 'https://hooks.example/b1',
      events: ['offer.updated'],
      secret_key: 'a'.repeat(64),
      updated_at: new Date(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  hookB1 = hook.id;
  const sources = await server.db
    .insertInto('rate_sources')
    .values([
      {
        branch_id: world.branches.b1,
        name: 'cbr',
        kind: 'json',
        url: 'https://rates.example/b1',
        last_quotes: JSON.stringify({ 'USD/RUB': '91.55', 'USD/EUR': '0.92', 'GBP/RUB': '115.20' }),
        last_success_at: new Date(),
      },
      {
        branch_id: world.branches.b2,
        name: 'other',
        kind: 'json',
        url: 'https://rates.example/b2',
        last_quotes: JSON.stringify({ 'USD/EUR': '0.92' }),
      },
    ] as never)
    .returning('id')
    .execute();
  [source, otherSource] = sources.map((s) => s.id);
});
afterAll(() => server?.close());
beforeEach(async () => {
  await server.db.deleteFrom('webhook_deliveries').execute();
});

const admin = (
  method: string,
  path: string,
  body?: unknown,
  who: StaffName = 'admin1',
  query?: Record<string, string>,
) => call(server, method, path, { token: tokens[who], body, query });
const offerEvents = async () =>
  (
    await server.db
      .selectFrom('webhook_deliveries')
      .select(['body'])
      .where('webhook_id', '=', hookB1)
      .where('event', '=', 'offer.updated')
      .execute()
  ).map((d) => (typeof d.body === 'string' ? JSON.parse(d.body) : d.body).data as Record<string, unknown>);
const partnerRates = async () =>
  (await call(server, 'GET', '/partner/public/rates', { key: world.keys.branch })).body as {
    offerId: number;
    rate: number;
  }[];

/** Switches the world's A USD→EUR offer to the source (1 USD = 0.92 EUR read), margin -1%, 4 decimals, jump 5%. */
async function priceAUsdEur(extra: Record<string, unknown> = {}) {
  return admin('PATCH', `/admin/offers/${world.offers.aUsdEur}`, {
    pricing: {
      mode: 'source',
      sourceId: source,
      base: 'USD',
      quote: 'EUR',
      marginPercent: '-1',
      decimals: 4,
      maxJumpPercent: 5,
      ...extra,
    },
  });
}

describe('pricing on POST and PATCH /admin/offers', () => {
  it('creates an offer priced from the source at once, crossed through a common currency', async () => {
    const res = await admin('POST', '/admin/offers', {
      exchangeId: world.exchanges.B,
      currency1Id: world.currencies.EUR,
      currency2Id: world.currencies.JPY,
      maxAmount: 1000,
      // GBP→USD through RUB: 115.20 / 91.55 = 1.25832878…; + 2% = 1.28349536… → 1.2834
      pricing: { mode: 'source', sourceId: source, base: 'GBP', quote: 'USD', marginPercent: 2, decimals: 4 },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      rate: 1.2834,
      pricing: {
        mode: 'source',
        sourceId: source,
        base: 'GBP',
        quote: 'USD',
        marginPercent: 2,
        decimals: 4,
      },
      pricingState: 'active',
      suspendedReason: null,
    });
    // The reference is kept rounded down to 18 places; JSON carries it as a number.
    const stored = await server.db
      .selectFrom('offers')
      .select('reference_rate')
      .where('id', '=', res.body.id)
      .executeTakeFirstOrThrow();
    expect(stored.reference_rate).toBe('1.258328782086291643');
    expect(res.text).toContain('"referenceRate":1.2583287820862916');
    const history = await admin('GET', `/admin/offers/${res.body.id}/rates`);
    expect(history.body.data).toEqual([{ at: expect.any(String), rate: 1.2834, referenceRate: expect.any(Number) }]);
    expect(history.text).toContain('"referenceRate":1.2583287820862916');
    expect(res.body.pricing).not.toHaveProperty('floor');
    const listed = await admin('GET', '/admin/offers', undefined, 'admin1', {
      filter: JSON.stringify({ exchangeId: world.exchanges.B }),
    });
    expect(listed.body.data.find((o: { id: number }) => o.id === res.body.id)).toMatchObject({
      pricingState: 'active',
    });
    // Back to a fixed rate, so the source prices only the offers the tests below set.
    expect((await admin('PATCH', `/admin/offers/${res.body.id}`, { pricing: { mode: 'fixed' } })).status).toBe(200);
  });

  it.each([
    [
      'a rate with source pricing',
      { rate: 1, pricing: { mode: 'source', sourceId: 0, base: 'USD', quote: 'EUR', marginPercent: 0 } },
      400,
      { rate: 'notAllowed' },
    ],
    ['no rate with fixed pricing', { pricing: { mode: 'fixed' } }, 400, { rate: 'required' }],
    [
      'a source of another branch',
      { pricing: { mode: 'source', sourceId: -1, base: 'USD', quote: 'EUR', marginPercent: 0 } },
      400,
      { 'pricing.sourceId': 'notFound' },
    ],
    [
      'a pair the source does not publish',
      { pricing: { mode: 'source', sourceId: 0, base: 'USD', quote: 'CHF', marginPercent: 0 } },
      422,
      { pricing: 'notQuoted' },
    ],
    [
      'a margin of -100%',
      { pricing: { mode: 'source', sourceId: 0, base: 'USD', quote: 'EUR', marginPercent: -100 } },
      400,
      { 'pricing.marginPercent': 'outOfRange' },
    ],
    [
      'the same base and quote',
      { pricing: { mode: 'source', sourceId: 0, base: 'USD', quote: 'USD', marginPercent: 0 } },
      400,
      { 'pricing.quote': 'sameAsBase' },
    ],
    [
      'a floor above the ceiling',
      { pricing: { mode: 'source', sourceId: 0, base: 'USD', quote: 'EUR', marginPercent: 0, floor: 2, ceiling: 1 } },
      400,
      { 'pricing.floor': 'aboveMaximum' },
    ],
    [
      'a zero maxJumpPercent',
      { pricing: { mode: 'source', sourceId: 0, base: 'USD', quote: 'EUR', marginPercent: 0, maxJumpPercent: '0' } },
      400,
      { 'pricing.maxJumpPercent': 'tooSmall' },
    ],
    [
      'a rate that rounds to 0',
      { pricing: { mode: 'source', sourceId: 0, base: 'USD', quote: 'EUR', marginPercent: 0, decimals: 0 } },
      422,
      { pricing: 'noRate' },
    ],
  ])('refuses %s', async (_name, body, status, errors) => {
    const pricing = (body as { pricing: Record<string, unknown> }).pricing;
    if (pricing.sourceId === 0) pricing.sourceId = source;
    if (pricing.sourceId === -1) pricing.sourceId = otherSource;
    const res = await admin('POST', '/admin/offers', {
      exchangeId: world.exchanges.B,
      currency1Id: world.currencies.BTC,
      currency2Id: world.currencies.EUR,
      maxAmount: 10,
      ...body,
    });
    expect(res.status).toBe(status);
    expect(res.body.errors).toEqual(errors);
    expect(typeof res.body.message).toBe('string');
  });

  it('refuses a rate in a PATCH of a source-priced offer; switching back to fixed keeps the rate and writes history', async () => {
    const offer = await admin('POST', '/admin/offers', {
      exchangeId: world.exchanges.B,
      currency1Id: world.currencies.USDT,
      currency2Id: world.currencies.EUR,
      maxAmount: 10,
      pricing: { mode: 'source', sourceId: source, base: 'USD', quote: 'EUR', marginPercent: 0 },
    });
    expect(offer.body.rate).toBe(0.92);
    const refused = await admin('PATCH', `/admin/offers/${offer.body.id}`, { rate: 1 });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual({ rate: 'notAllowed' });
    const fixed = await admin('PATCH', `/admin/offers/${offer.body.id}`, { pricing: { mode: 'fixed' }, rate: '0.95' });
    expect(fixed.status).toBe(200);
    expect(fixed.body).toMatchObject({ rate: 0.95, pricing: { mode: 'fixed' } });
    expect(fixed.body).not.toHaveProperty('referenceRate');
    const history = await admin('GET', `/admin/offers/${offer.body.id}/rates`);
    expect(history.body.data.map((p: { rate: number }) => p.rate)).toEqual([0.92, 0.95]);
    // Another branch's admin sees neither the offer nor its history.
    expect((await admin('GET', `/admin/offers/${offer.body.id}/rates`, undefined, 'admin2')).status).toBe(404);
  });
});

describe('applySourceQuotes', () => {
  it('re-prices in one go: a changed rate gets one offer.updated and a history row, an unchanged one neither', async () => {
    expect((await priceAUsdEur()).body).toMatchObject({ rate: 0.9108, referenceRate: 0.92 });
    await server.db.deleteFrom('webhook_deliveries').execute();
    const before = await admin('GET', `/admin/offers/${world.offers.aUsdEur}/rates`);

    // 0.92 → 0.9201: × 0.99 = 0.910899, still 0.9108 at 4 decimals.
    await applySourceQuotes(server.db, source, { 'USD/EUR': '0.9201' }, new Date());
    expect(await offerEvents()).toEqual([]);
    const same = await admin('GET', `/admin/offers/${world.offers.aUsdEur}/rates`);
    expect(same.body.data).toHaveLength(before.body.data.length);

    await applySourceQuotes(server.db, source, { 'USD/EUR': '0.93' }, new Date());
    const events = await offerEvents();
    expect(events).toEqual([expect.objectContaining({ id: world.offers.aUsdEur, rate: '0.9207', isActive: true })]);
    expect((await partnerRates()).find((r) => r.offerId === world.offers.aUsdEur)?.rate).toBe(0.9207);
    const after = await admin('GET', `/admin/offers/${world.offers.aUsdEur}/rates`);
    expect(after.body.data.at(-1)).toMatchObject({ rate: 0.9207, referenceRate: 0.93 });
  });

  it('suspends at once on a jump (partners stop seeing the offer), and lifts it when a reference within the limit comes', async () => {
    await priceAUsdEur();
    await applySourceQuotes(server.db, source, { 'USD/EUR': '0.92' }, new Date());
    await server.db.deleteFrom('webhook_deliveries').execute();

    await applySourceQuotes(server.db, source, { 'USD/EUR': '1.00' }, new Date());
    const suspended = await admin('GET', '/admin/offers', undefined, 'admin1', {
      filter: JSON.stringify({ exchangeId: world.exchanges.A }),
    });
    expect(suspended.body.data.find((o: { id: number }) => o.id === world.offers.aUsdEur)).toMatchObject({
      pricingState: 'suspended',
      suspendedReason: 'jump',
      rate: 0.9108,
      referenceRate: 0.92,
    });
    expect(await offerEvents()).toEqual([expect.objectContaining({ id: world.offers.aUsdEur, isActive: false })]);
    expect((await partnerRates()).map((r) => r.offerId)).not.toContain(world.offers.aUsdEur);
    const partnerOffers = await call(server, 'GET', '/partner/offers', {
      key: world.keys.branch,
      query: { limit: '100' },
    });
    expect(partnerOffers.body.data.map((o: { id: number }) => o.id)).not.toContain(world.offers.aUsdEur);
    const estimate = await call(server, 'POST', '/partner/public/estimate', {
      key: world.keys.branch,
      body: {
        exchangeId: world.exchanges.A,
        sourceCurrencyId: world.currencies.USD,
        destCurrencyId: world.currencies.EUR,
        amount: 100,
      },
    });
    expect(estimate.status).toBe(404);
    const order = await call(server, 'POST', '/partner/orders', { key: world.keys.branch, body: orderBody(world) });
    expect(order.status).toBeGreaterThanOrEqual(400);
    expect(order.status).toBeLessThan(500);

    // Still far from 0.92: stays suspended, no new event.
    await server.db.deleteFrom('webhook_deliveries').execute();
    await applySourceQuotes(server.db, source, { 'USD/EUR': '1.00' }, new Date());
    expect(await offerEvents()).toEqual([]);

    await applySourceQuotes(server.db, source, { 'USD/EUR': '0.94' }, new Date());
    expect(await offerEvents()).toEqual([
      expect.objectContaining({ id: world.offers.aUsdEur, rate: '0.9306', isActive: true }),
    ]);
    expect((await partnerRates()).find((r) => r.offerId === world.offers.aUsdEur)?.rate).toBe(0.9306);
  });

  it('suspends stale offers once (idempotent), and a fresh reference lifts it', async () => {
    await priceAUsdEur();
    await server.db.deleteFrom('webhook_deliveries').execute();
    await suspendStaleOffers(server.db, source, new Date());
    await suspendStaleOffers(server.db, source, new Date());
    expect(await offerEvents()).toEqual([expect.objectContaining({ id: world.offers.aUsdEur, isActive: false })]);
    expect((await partnerRates()).map((r) => r.offerId)).not.toContain(world.offers.aUsdEur);

    await applySourceQuotes(server.db, source, { 'USD/EUR': '0.921' }, new Date());
    expect((await partnerRates()).find((r) => r.offerId === world.offers.aUsdEur)?.rate).toBe(0.9117);
  });

  it('POST /admin/offers/{id}/resume restores a suspended offer from the last quotes; 409 when not suspended', async () => {
    await priceAUsdEur();
    const notSuspended = await admin('POST', `/admin/offers/${world.offers.aUsdEur}/resume`);
    expect(notSuspended.status).toBe(409);
    expect(notSuspended.body.message).toMatch(/not suspended/);
    await applySourceQuotes(server.db, source, { 'USD/EUR': '2' }, new Date());
    expect((await partnerRates()).map((r) => r.offerId)).not.toContain(world.offers.aUsdEur);
    expect((await admin('POST', `/admin/offers/${world.offers.aUsdEur}/resume`, undefined, 'admin2')).status).toBe(404);

    // The source's stored last read (0.92) prices the resumed offer.
    const resumed = await admin('POST', `/admin/offers/${world.offers.aUsdEur}/resume`);
    expect(resumed.status).toBe(200);
    expect(resumed.body).toMatchObject({ pricingState: 'active', suspendedReason: null, rate: 0.9108 });
    expect((await partnerRates()).find((r) => r.offerId === world.offers.aUsdEur)?.rate).toBe(0.9108);
    const audit = await admin('GET', '/admin/audit', undefined, 'admin1', {
      action: 'offer.resume',
      entityId: String(world.offers.aUsdEur),
    });
    expect(audit.body.data).toEqual([
      expect.objectContaining({
        before: expect.objectContaining({ pricingState: 'suspended' }),
        after: expect.objectContaining({ pricingState: 'active' }),
      }),
    ]);
  });
});

describe('orders and quotes carry the reference rate', () => {
  it('stores the offer reference on an order and on an order from a firm quote; null for a fixed offer', async () => {
    await priceAUsdEur();
    await applySourceQuotes(server.db, source, { 'USD/EUR': '0.925' }, new Date());
    const placed = await placeOrder(server, world.keys.branch, orderBody(world));
    const view = await admin('GET', `/admin/orders/${placed.id}`);
    expect(view.body).toMatchObject({ rate: 0.9157, referenceRate: 0.925 });
    const partnerView = await call(server, 'GET', `/partner/orders/${placed.id}`, { key: world.keys.branch });
    expect(partnerView.body).not.toHaveProperty('referenceRate');

    const quote = await call(server, 'POST', '/partner/public/quotes', {
      key: world.keys.branch,
      body: {
        exchangeId: world.exchanges.A,
        sourceCurrencyId: world.currencies.USD,
        destCurrencyId: world.currencies.EUR,
        amount: 100,
      },
    });
    expect(quote.status).toBe(201);
    // The reference moves after the quote (within the jump limit): the order keeps the quote's.
    await applySourceQuotes(server.db, source, { 'USD/EUR': '0.926' }, new Date());
    const onQuote = await placeOrder(server, world.keys.branch, {
      cashbox: { id: world.exchanges.A },
      currency1: { id: world.currencies.USD },
      currency2: { id: world.currencies.EUR },
      operationType: 'offer',
      quoteId: quote.body.quoteId,
    });
    expect((await admin('GET', `/admin/orders/${onQuote.id}`)).body).toMatchObject({
      rate: 0.9157,
      referenceRate: 0.925,
    });

    const fixed = await placeOrder(server, world.keys.branch, orderBody(world, { cashbox: { id: world.exchanges.B } }));
    expect((await admin('GET', `/admin/orders/${fixed.id}`)).body).not.toHaveProperty('referenceRate');
  });
});

describe('rate history', () => {
  it('lists a range, refuses a reversed one, and prunes rows older than 90 days', async () => {
    const id = world.offers.aBtcUsd;
    await admin('PATCH', `/admin/offers/${id}`, { rate: '64000' });
    await server.db
      .insertInto('offer_rates')
      .values({ offer_id: id, rate: '60000', reference_rate: null, created_at: sql<Date>`now() - interval '91 days'` })
      .execute();
    const week = await admin('GET', `/admin/offers/${id}/rates`);
    expect(week.body).toEqual({
      data: [{ at: expect.any(String), rate: 64000 }],
      truncated: false,
    });
    const all = await admin('GET', `/admin/offers/${id}/rates`, undefined, 'admin1', {
      from: new Date(Date.now() - 100 * 86_400_000).toISOString(),
    });
    expect(all.body.data.map((p: { rate: number }) => p.rate)).toEqual([60000, 64000]);
    const reversed = await admin('GET', `/admin/offers/${id}/rates`, undefined, 'admin1', {
      from: new Date().toISOString(),
      to: new Date(Date.now() - 86_400_000).toISOString(),
    });
    expect(reversed.status).toBe(400);
    expect(await pruneOfferRates(server.db)).toBe(1);
    const left = await admin('GET', `/admin/offers/${id}/rates`, undefined, 'admin1', {
      from: new Date(Date.now() - 100 * 86_400_000).toISOString(),
    });
    expect(left.body.data.map((p: { rate: number }) => p.rate)).toEqual([64000]);
  });
});

describe('metrics', () => {
  it('counts suspended offers by reason', async () => {
    await priceAUsdEur();
    await suspendStaleOffers(server.db, source, new Date());
    const text = await (await fetch(`${server.url}/metrics`)).text();
    expect(text).toMatch(/pxs_offers_suspended\{reason="stale"\} [1-9]/);
    expect(text).toMatch(/pxs_offers_suspended\{reason="jump"\} \d/);
  });
});
