import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalize } from '../../../src/features/pricing/decimal.js';
import { call, type TestServer } from '../../helpers/server.js';
import type { World } from '../../helpers/world.js';
import { startWorld } from '../../helpers/fixture.js';
import { orderBody, recordedEvents, subscribeBranch } from './support.js';

let server: TestServer;
let world: World;
let webhookId: string;

beforeAll(async () => {
  ({ server, world } = await startWorld());
  webhookId = await subscribeBranch(server.db, world.branches.b1);
});
afterAll(() => server?.close());

type Code = 'USD' | 'EUR' | 'BTC' | 'JPY' | 'USDT';
interface Case {
  name: string;
  from: Code;
  to: Code;
  given: 'clientAmount' | 'exchangeAmount';
  amount: number;
  client: string;
  exchange: string;
  reverse: boolean;
}

// Offers at A: USD→EUR 0.9215, BTC→USD 64250.17, EUR→JPY 161.3791, USDT→BTC 0.0000155123456789.
// Given clientAmount = direction source (dest rounded down); given exchangeAmount = direction dest (source rounded up).
const CASES: Case[] = [
  // 123.45 × 0.9215 = 113.759175 → down to 2 decimals
  {
    name: 'USD→EUR forward, client amount',
    from: 'USD',
    to: 'EUR',
    given: 'clientAmount',
    amount: 123.45,
    client: '123.45',
    exchange: '113.75',
    reverse: false,
  },
  // 100 ÷ 0.9215 = 108.5187194791… → up to 2 decimals
  {
    name: 'USD→EUR forward, exchange amount',
    from: 'USD',
    to: 'EUR',
    given: 'exchangeAmount',
    amount: 100,
    client: '108.52',
    exchange: '100',
    reverse: false,
  },
  // reverse of the USD→EUR offer: 50 ÷ 0.9215 = 54.2593597395… → down
  {
    name: 'EUR→USD reverse, client amount',
    from: 'EUR',
    to: 'USD',
    given: 'clientAmount',
    amount: 50,
    client: '50',
    exchange: '54.25',
    reverse: true,
  },
  // 200 × 0.9215 = 184.3000 → up, already exact
  {
    name: 'EUR→USD reverse, exchange amount',
    from: 'EUR',
    to: 'USD',
    given: 'exchangeAmount',
    amount: 200,
    client: '184.3',
    exchange: '200',
    reverse: true,
  },
  // 0.01234567 × 64250.17 = 793.2113962639 → down
  {
    name: 'BTC→USD forward, client amount',
    from: 'BTC',
    to: 'USD',
    given: 'clientAmount',
    amount: 0.01234567,
    client: '0.01234567',
    exchange: '793.21',
    reverse: false,
  },
  // 1000 ÷ 64250.17 = 0.0155641611531… → down to 8 decimals
  {
    name: 'USD→BTC reverse, client amount',
    from: 'USD',
    to: 'BTC',
    given: 'clientAmount',
    amount: 1000,
    client: '1000',
    exchange: '0.01556416',
    reverse: true,
  },
  // 0.005 × 64250.17 = 321.25085 → up to 2 decimals
  {
    name: 'USD→BTC reverse, exchange amount',
    from: 'USD',
    to: 'BTC',
    given: 'exchangeAmount',
    amount: 0.005,
    client: '321.26',
    exchange: '0.005',
    reverse: true,
  },
  // 12.34 × 161.3791 = 1991.418094 → down to 0 decimals (JPY)
  {
    name: 'EUR→JPY forward, client amount',
    from: 'EUR',
    to: 'JPY',
    given: 'clientAmount',
    amount: 12.34,
    client: '12.34',
    exchange: '1991',
    reverse: false,
  },
  // 10000 ÷ 161.3791 = 61.9658927333… → down
  {
    name: 'JPY→EUR reverse, client amount',
    from: 'JPY',
    to: 'EUR',
    given: 'clientAmount',
    amount: 10000,
    client: '10000',
    exchange: '61.96',
    reverse: true,
  },
  // 1234.567891 × 0.0000155123456789 = 0.0191510438892… → down to 8 decimals
  {
    name: 'USDT→BTC forward, client amount',
    from: 'USDT',
    to: 'BTC',
    given: 'clientAmount',
    amount: 1234.567891,
    client: '1234.567891',
    exchange: '0.01915104',
    reverse: false,
  },
  // 1000 × 0.0000155123456789 = 0.0155123456789 → up to 8 decimals
  {
    name: 'BTC→USDT reverse, exchange amount',
    from: 'BTC',
    to: 'USDT',
    given: 'exchangeAmount',
    amount: 1000,
    client: '0.01551235',
    exchange: '1000',
    reverse: true,
  },
];

describe('POST /partner/orders (offer): priced exactly like the estimate', () => {
  it.each(CASES)('$name', async (c) => {
    const body = orderBody(world, {
      currency1: { id: world.currencies[c.from] },
      currency2: { id: world.currencies[c.to] },
      clientAmount: undefined,
      [c.given]: c.amount,
    });
    const res = await call(server, 'POST', '/partner/orders', { key: world.keys.operatorA, body });
    expect(res.status, res.text).toBe(201);

    const estimate = await call(server, 'POST', '/partner/public/estimate', {
      key: world.keys.public,
      body: {
        exchangeId: world.exchanges.A,
        sourceCurrencyId: world.currencies[c.from],
        destCurrencyId: world.currencies[c.to],
        amount: c.amount,
        direction: c.given === 'clientAmount' ? 'source' : 'dest',
      },
    });
    expect(estimate.status).toBe(200);
    expect(estimate.body.isReverse).toBe(c.reverse);
    expect([res.body.clientAmount, res.body.exchangeAmount]).toEqual([
      estimate.body.sourceAmount,
      estimate.body.destAmount,
    ]);
    expect([res.body.clientAmount, res.body.exchangeAmount]).toEqual([Number(c.client), Number(c.exchange)]);

    // Exact to the last decimal where the JSON number cannot show it: the stored numeric and the event's strings.
    const row = await server.db
      .selectFrom('orders')
      .selectAll()
      .where('id', '=', res.body.id)
      .executeTakeFirstOrThrow();
    expect([normalize(row.client_amount), normalize(row.exchange_amount)]).toEqual([c.client, c.exchange]);
    expect(row.is_reverse).toBe(c.reverse);
    expect(row.offer_id).toBe(estimate.body.offerId);
    const [created] = await recordedEvents(server.db, webhookId, res.body.id);
    expect(created.body.data).toEqual({
      id: res.body.id,
      status: 'ORDERINIT',
      amountSource: c.client,
      amountDest: c.exchange,
      expiresAt: res.body.expiresAt,
    });
  });

  it('answers the full Order shape, status ORDERINIT, a random hashedId', async () => {
    const body = orderBody(world, {
      paymentMethodSource: { id: world.paymentMethods.cash1 },
      paymentMethodDest: { id: world.paymentMethods.cardA },
      comment: 'vip',
      clientComment: 'please hurry',
      userWallet: 'wallet-1',
      tgNickName: '@client',
    });
    const res = await call(server, 'POST', '/partner/orders', { key: world.keys.branch, body });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      hashedId: expect.stringMatching(/^[0-9a-f]{24}$/),
      status: 'ORDERINIT',
      clientAmount: 100,
      exchangeAmount: 92.15, // 100 × 0.9215
      currency1: { id: world.currencies.USD, code: 'USD' },
      currency2: { id: world.currencies.EUR, code: 'EUR' },
      cashbox: { id: world.exchanges.A },
      user: null,
      comment: 'vip',
      clientComment: 'please hurry',
      operationType: 'offer',
      paymentMethodSource: { id: world.paymentMethods.cash1 },
      paymentMethodDest: { id: world.paymentMethods.cardA },
      userWallet: 'wallet-1',
      tgNickName: '@client',
      offer: { id: world.offers.aUsdEur },
      rate: 0.9215,
      sandbox: false,
      source: 'partner',
      expiresAt: expect.any(String),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    // Both from the database's clock in the same statement: a new order was never updated before it was created.
    expect(res.body.updatedAt).toBe(res.body.createdAt);
    const second = await call(server, 'POST', '/partner/orders', { key: world.keys.branch, body: orderBody(world) });
    expect(second.body.id).toBe(res.body.id + 1);
    expect(second.body.hashedId).not.toBe(res.body.hashedId);
    const history = await server.db
      .selectFrom('order_status_history')
      .selectAll()
      .where('order_id', '=', res.body.id)
      .execute();
    expect(history).toEqual([
      expect.objectContaining({
        from_status: null,
        to_status: 'ORDERINIT',
        actor_type: 'api_key',
        api_key_id: world.keyIds.branch,
        staff_user_id: null,
        comment: null,
      }),
    ]);
  });

  it('records the personal key and its staff user as the creator', async () => {
    const res = await call(server, 'POST', '/partner/orders', { key: world.keys.operatorA, body: orderBody(world) });
    const [h] = await server.db
      .selectFrom('order_status_history')
      .selectAll()
      .where('order_id', '=', res.body.id)
      .execute();
    expect([h.actor_type, h.api_key_id, h.staff_user_id]).toEqual([
      'api_key',
      world.keyIds.operatorA,
      world.staff.operatorA.id,
    ]);
  });
});
