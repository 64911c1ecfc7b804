import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, type TestServer } from '../../helpers/server.js';
import type { StaffName } from '../../helpers/staff.js';
import type { World } from '../../helpers/world.js';
import { startWorld } from '../../helpers/fixture.js';

let server: TestServer;
let world: World;
let tokens: Record<StaffName, string>;
let hookB1: string;
let hookB2: string;

beforeAll(async () => {
  ({ server, world, tokens } = await startWorld());
  const hooks = await server.db
    .insertInto('webhooks')
    .values([
      {
        branch_id: world.branches.b1,
        url: 'https://hooks.example/b1',
        events: ['offer.updated'],
        secret_key: 'a'.repeat(64),
        updated_at: new Date(),
      },
      {
        branch_id: world.branches.b2,
        url: 'https://hooks.example/b2',
        events: ['offer.updated'],
        secret_key: 'b'.repeat(64),
        updated_at: new Date(),
      },
    ])
    .returning('id')
    .execute();
  [hookB1, hookB2] = hooks.map((h) => h.id);
});
afterAll(() => server?.close());
beforeEach(async () => {
  await server.db.deleteFrom('webhook_deliveries').execute();
});

const admin = (method: string, path: string, body?: unknown, who: StaffName = 'admin1') =>
  call(server, method, path, { token: tokens[who], body });
const deliveries = () => server.db.selectFrom('webhook_deliveries').select(['webhook_id', 'event', 'body']).execute();

type Change = Record<string, unknown>;

describe('POST /admin/offers', () => {
  it('creates an offer with exact decimals, shows it to partners and emits offer.updated to the branch only', async () => {
    const res = await admin('POST', '/admin/offers', {
      exchangeId: world.exchanges.B,
      currency1Id: world.currencies.USDT,
      currency2Id: world.currencies.BTC,
      rate: '0.0000155123456789',
      minAmount: 10.5,
      maxAmount: '100000',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      currency1: { id: world.currencies.USDT, code: 'USDT', name: 'Tether' },
      currency2: { id: world.currencies.BTC, code: 'BTC' },
      rate: 0.0000155123456789,
      minAmount: 10.5,
      maxAmount: 100000,
      isActive: true,
      exchange: { id: world.exchanges.B },
    });
    const stored = await server.db
      .selectFrom('offers')
      .select(['rate', 'min_amount'])
      .where('id', '=', res.body.id)
      .executeTakeFirstOrThrow();
    expect(stored.rate).toBe('0.000015512345678900');
    expect(stored.min_amount).toBe('10.500000000000000000');

    const partner = await call(server, 'GET', '/partner/offers', {
      key: world.keys.branch,
      query: { filter: JSON.stringify({ exchangeId: world.exchanges.B }) },
    });
    expect(partner.body.data.map((o: { id: number }) => o.id)).toContain(res.body.id);

    const sent = await deliveries();
    expect(sent.map((d) => d.webhook_id)).toEqual([hookB1]);
    const envelope = JSON.parse(sent[0].body);
    expect(envelope).toEqual({
      id: expect.any(String),
      event: 'offer.updated',
      timestamp: expect.any(String),
      data: {
        id: res.body.id,
        exchangeId: world.exchanges.B,
        currency1: { id: world.currencies.USDT, code: 'USDT' },
        currency2: { id: world.currencies.BTC, code: 'BTC' },
        rate: '0.0000155123456789',
        minAmount: '10.5',
        maxAmount: '100000',
        isActive: true,
        updatedAt: res.body.updatedAt,
      },
    });
  });

  it.each<[string, Change, Record<string, string>]>([
    ['a zero rate', { rate: 0 }, { rate: 'tooSmall' }],
    ['a negative rate', { rate: -1 }, { rate: 'invalidValue' }],
    ['a rate with 19 decimals', { rate: '0.0000000000000000001' }, { rate: 'invalidFormat' }],
    ['a rate with 19 decimals as a number', { rate: 1e-19 }, { rate: 'invalidValue' }],
    ['a minimum above the maximum', { minAmount: 500, maxAmount: 100 }, { minAmount: 'aboveMaximum' }],
    ['the same currency twice', { currency2Id: 0 }, { currency2Id: 'sameAsCurrency1' }],
    ['an unknown currency', { currency2Id: 999999 }, { currency2Id: 'notFound' }],
    ['an exchange of another branch', { exchangeId: -1 }, { exchangeId: 'notFound' }],
    ['a pair the exchange already offers', { currency1Id: -2, currency2Id: -3 }, { offer: 'alreadyExists' }],
    ['a rate that is not a decimal', { rate: 'cheap' }, { rate: 'invalidFormat' }],
  ])('refuses %s with 400 and no event', async (_name, change, errors) => {
    const body: Record<string, unknown> = {
      exchangeId: world.exchanges.B,
      currency1Id: world.currencies.JPY,
      currency2Id: world.currencies.USD,
      rate: '0.0067',
      maxAmount: 100000,
      ...change,
    };
    if (change.currency2Id === 0) body.currency2Id = body.currency1Id;
    if (change.exchangeId === -1) body.exchangeId = world.exchanges.C;
    if (change.currency1Id === -2)
      Object.assign(body, { currency1Id: world.currencies.USD, currency2Id: world.currencies.EUR });
    const res = await admin('POST', '/admin/offers', body);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual(errors);
    expect(await deliveries()).toEqual([]);
  });
});

describe('PATCH /admin/offers/{id}', () => {
  it('changes the given fields, checks the result as a whole, and emits offer.updated', async () => {
    const res = await admin('PATCH', `/admin/offers/${world.offers.bUsdEur}`, { rate: 0.94, isActive: false });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: world.offers.bUsdEur,
      rate: 0.94,
      minAmount: 5,
      maxAmount: 500,
      isActive: false,
    });
    const sent = await deliveries();
    expect(sent).toHaveLength(1);
    expect(JSON.parse(sent[0].body).data).toMatchObject({
      id: world.offers.bUsdEur,
      rate: '0.94',
      minAmount: '5',
      maxAmount: '500',
      isActive: false,
    });

    const refused = await admin('PATCH', `/admin/offers/${world.offers.bUsdEur}`, { minAmount: 501 });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual({ minAmount: 'aboveMaximum' });
    expect(await deliveries()).toHaveLength(1);
  });

  it("lets a superadmin change any branch's offer, whose event goes to that branch", async () => {
    const res = await admin('PATCH', `/admin/offers/${world.offers.cUsdEur}`, { maxAmount: '250' }, 'superadmin');
    expect(res.status).toBe(200);
    expect((await deliveries()).map((d) => d.webhook_id)).toEqual([hookB2]);
  });

  it('answers 404 outside the branch and 400 to an empty change', async () => {
    expect((await admin('PATCH', `/admin/offers/${world.offers.cUsdEur}`, { rate: 1 })).body.errors).toEqual({
      offer: 'notFound',
    });
    expect((await admin('PATCH', '/admin/offers/999999', { rate: 1 })).status).toBe(404);
    expect((await admin('PATCH', `/admin/offers/${world.offers.aUsdEur}`, {})).status).toBe(400);
    expect(await deliveries()).toEqual([]);
  });

  it('applies concurrent changes one after the other, each with its event', async () => {
    const results = await Promise.all(
      [0.91, 0.92, 0.93].map((rate) => admin('PATCH', `/admin/offers/${world.offers.aUsdEur}`, { rate })),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    const rates = (await deliveries()).map((d) => JSON.parse(d.body).data.rate).sort();
    expect(rates).toEqual(['0.91', '0.92', '0.93']);
  });
});

describe('GET /admin/offers', () => {
  it("lists the branch's offers, active or not, with filters", async () => {
    const res = await call(server, 'GET', '/admin/offers', {
      token: tokens.admin1,
      query: { filter: '{"isActive":false}', limit: 100 },
    });
    expect(res.status).toBe(200);
    const exchanges = new Set(res.body.data.map((o: { exchange: { id: number } }) => o.exchange.id));
    expect(exchanges.has(world.exchanges.C)).toBe(false);
    expect(res.body.data.map((o: { id: number }) => o.id)).toContain(world.offers.bEurUsdInactive);
    expect(res.body.meta.total).toBe(res.body.data.length);
    const all = await call(server, 'GET', '/admin/offers', { token: tokens.superadmin, query: { limit: 100 } });
    expect(all.body.data.map((o: { id: number }) => o.id)).toContain(world.offers.cUsdEur);
  });
});
