import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type TestServer } from '../../helpers/server.js';
import type { StaffName } from '../../helpers/staff.js';
import type { World } from '../../helpers/world.js';
import { startWorld } from '../../helpers/fixture.js';
import { orderBody, placeOrder } from '../orders/support.js';

let server: TestServer;
let world: World;
let tokens: Record<StaffName, string>;

beforeAll(async () => {
  ({ server, world, tokens } = await startWorld());
  // operatorB may write cash at B; operatorA (every other permission) may only read it at A.
  await server.db
    .updateTable('staff_users')
    .set({ permissions: ['orders:read', 'orders:write', 'cash:write'] })
    .where('id', '=', world.staff.operatorB.id)
    .execute();
});
afterAll(() => server?.close());

const cashPath = (exchange: number, currency?: number) =>
  currency === undefined ? `/admin/exchanges/${exchange}/cash` : `/admin/exchanges/${exchange}/cash/${currency}`;

async function move(token: string, exchange: number, currency: number, body: Record<string, unknown>) {
  return call(server, 'POST', `${cashPath(exchange, currency)}/movements`, { token, body });
}

async function positionOf(exchange: number, currency: number) {
  const res = await call(server, 'GET', cashPath(exchange), { token: tokens.admin1 });
  expect(res.status, res.text).toBe(200);
  return (res.body.data as { currency: { id: number } }[]).find((p) => p.currency.id === currency) as any;
}

describe('cash movements', () => {
  it('a deposit starts tracking: 201 {movement, position}, ledger entry and audit row', async () => {
    const { A } = world.exchanges;
    const { USD } = world.currencies;
    const res = await move(tokens.admin1, A, USD, { kind: 'deposit', amount: '1000.50', reason: 'opening float' });
    expect(res.status, res.text).toBe(201);
    expect(res.body.movement).toMatchObject({
      kind: 'deposit',
      amount: 1000.5,
      balanceAfter: 1000.5,
      orderId: null,
      staffId: world.staff.admin1.id,
      reason: 'opening float',
    });
    expect(res.body.position).toMatchObject({
      currency: { id: USD, ticker: 'USD' },
      balance: 1000.5,
      held: 0,
      available: 1000.5,
      lowWatermark: 0,
    });
    const audit = await server.db
      .selectFrom('audit_log')
      .selectAll()
      .where('entity_type', '=', 'cash')
      .where('entity_id', '=', `${A}:${USD}`)
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['cash.deposit']);
    expect(audit[0]).toMatchObject({ staff_user_id: world.staff.admin1.id, branch_id: world.branches.b1 });
  });

  it('a count records the difference between the counted cash and the balance', async () => {
    const { A } = world.exchanges;
    const { USD } = world.currencies;
    const res = await move(tokens.admin1, A, USD, { kind: 'count', amount: 990 });
    expect(res.status, res.text).toBe(201);
    expect(res.body.movement).toMatchObject({ kind: 'count', amount: -10.5, balanceAfter: 990 });
    expect(res.body.position).toMatchObject({ balance: 990 });
  });

  it('a withdrawal below what open orders hold → 400 belowHeld; one within available → 201', async () => {
    const { A } = world.exchanges;
    const { EUR } = world.currencies;
    expect((await move(tokens.admin1, A, EUR, { kind: 'deposit', amount: 200 })).status).toBe(201);
    // 100 USD at 0.9215 holds 92.15 EUR.
    await placeOrder(server, world.keys.branch, orderBody(world, { clientAmount: 100 }));
    expect(await positionOf(A, EUR)).toMatchObject({ balance: 200, held: 92.15, available: 107.85 });
    const refused = await move(tokens.admin1, A, EUR, { kind: 'withdrawal', amount: '107.86' });
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body.errors).toEqual({ amount: 'belowHeld' });
    expect(refused.body.message).toContain('92.15 EUR');
    const count = await move(tokens.admin1, A, EUR, { kind: 'count', amount: 90 });
    expect(count.status).toBe(400);
    expect(count.body.errors).toEqual({ amount: 'belowHeld' });
    const ok = await move(tokens.admin1, A, EUR, { kind: 'withdrawal', amount: '107.85' });
    expect(ok.status, ok.text).toBe(201);
    expect(ok.body.position).toMatchObject({ balance: 92.15, held: 92.15, available: 0 });
  });

  it('refuses bad amounts with a 400 naming the field', async () => {
    const { A } = world.exchanges;
    const { USD, BTC } = world.currencies;
    for (const [body, errors] of [
      [{ kind: 'deposit', amount: 0 }, { amount: 'notPositive' }],
      [{ kind: 'deposit', amount: '1.001' }, { amount: 'tooManyDecimals' }],
      [{ kind: 'deposit', amount: -5 }, { amount: expect.any(String) }],
      [{ kind: 'deposit', amount: 'abc' }, { amount: expect.any(String) }],
      [{ kind: 'transferIn', amount: 5 }, { kind: expect.any(String) }],
    ] as const) {
      const res = await move(tokens.admin1, A, USD, body);
      expect(res.status, res.text).toBe(400);
      expect(res.body.errors).toMatchObject(errors);
    }
    expect((await move(tokens.admin1, A, BTC, { kind: 'deposit', amount: '0.00000001' })).status).toBe(201);
  });

  it('unknown exchange or currency → 404; another branch → 404', async () => {
    const { A, C } = world.exchanges;
    const { USD } = world.currencies;
    expect((await move(tokens.admin1, 999999, USD, { kind: 'deposit', amount: 1 })).status).toBe(404);
    expect((await move(tokens.admin1, A, 999999, { kind: 'deposit', amount: 1 })).status).toBe(404);
    expect((await move(tokens.admin1, C, USD, { kind: 'deposit', amount: 1 })).status).toBe(404);
    expect((await call(server, 'GET', cashPath(C), { token: tokens.admin1 })).status).toBe(404);
    expect((await call(server, 'GET', `${cashPath(C, USD)}/movements`, { token: tokens.admin1 })).status).toBe(404);
    expect(
      (await call(server, 'PATCH', cashPath(C, USD), { token: tokens.admin1, body: { lowWatermark: 1 } })).status,
    ).toBe(404);
  });

  it('an operator reads its own exchange; writes need cash:write; another exchange is 404', async () => {
    const { A, B } = world.exchanges;
    const { USD } = world.currencies;
    expect((await call(server, 'GET', cashPath(A), { token: tokens.operatorA })).status).toBe(200);
    expect((await call(server, 'GET', `${cashPath(A, USD)}/movements`, { token: tokens.operatorA })).status).toBe(200);
    const denied = await move(tokens.operatorA, A, USD, { kind: 'deposit', amount: 1 });
    expect(denied.status).toBe(403);
    expect(denied.body.message).toBe('This staff user lacks the cash:write permission');
    expect(
      (await call(server, 'PATCH', cashPath(A, USD), { token: tokens.operatorA, body: { lowWatermark: 1 } })).status,
    ).toBe(403);
    expect((await call(server, 'GET', cashPath(B), { token: tokens.operatorA })).status).toBe(404);
    expect((await move(tokens.operatorB, B, USD, { kind: 'deposit', amount: 5 })).status).toBe(201);
    expect((await move(tokens.operatorB, A, USD, { kind: 'deposit', amount: 5 })).status).toBe(404);
  });

  it('lists the ledger with the list conventions', async () => {
    const { A } = world.exchanges;
    const { USD } = world.currencies;
    const res = await call(server, 'GET', `${cashPath(A, USD)}/movements`, {
      token: tokens.admin1,
      query: { sort: JSON.stringify([['id', 'DESC']]), filter: JSON.stringify({ kind: 'count' }) },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.map((m: { kind: string }) => m.kind)).toEqual(['count']);
    expect(res.body.meta).toMatchObject({ total: 1 });
    const bad = await call(server, 'GET', `${cashPath(A, USD)}/movements`, {
      token: tokens.admin1,
      query: { filter: JSON.stringify({ kind: 'nope' }) },
    });
    expect(bad.status).toBe(400);
  });

  it('sets the low watermark of a tracked position; an untracked one is 404', async () => {
    const { A } = world.exchanges;
    const { USD, JPY } = world.currencies;
    const res = await call(server, 'PATCH', cashPath(A, USD), { token: tokens.admin1, body: { lowWatermark: '250' } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ lowWatermark: 250, balance: 990 });
    const untracked = await call(server, 'PATCH', cashPath(A, JPY), {
      token: tokens.admin1,
      body: { lowWatermark: 1 },
    });
    expect(untracked.status).toBe(404);
  });
});

describe('POST /admin/cash/transfers', () => {
  it('moves cash between two exchanges of a branch: two entries and an audit row, one transaction', async () => {
    const { A, B } = world.exchanges;
    const { USD } = world.currencies;
    const res = await call(server, 'POST', '/admin/cash/transfers', {
      token: tokens.admin1,
      body: { fromExchangeId: A, toExchangeId: B, currencyId: USD, amount: 90, reason: 'top up B' },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.from.movement).toMatchObject({ kind: 'transferOut', amount: -90, balanceAfter: 900 });
    expect(res.body.to.movement).toMatchObject({ kind: 'transferIn', amount: 90, balanceAfter: 95 });
    const audit = await server.db
      .selectFrom('audit_log')
      .select('entity_id')
      .where('action', '=', 'cash.transfer')
      .execute();
    expect(audit.map((a) => a.entity_id)).toEqual([`${A}:${USD}`]);
  });

  it('refuses across branches, to the same exchange, beyond available, and out of reach', async () => {
    const { A, B, C } = world.exchanges;
    const { USD } = world.currencies;
    const transfer = (token: string, body: Record<string, unknown>) =>
      call(server, 'POST', '/admin/cash/transfers', { token, body: { currencyId: USD, amount: 1, ...body } });
    const across = await transfer(tokens.superadmin, { fromExchangeId: A, toExchangeId: C });
    expect(across.status).toBe(400);
    expect(across.body.errors).toEqual({ toExchangeId: 'otherBranch' });
    const same = await transfer(tokens.admin1, { fromExchangeId: A, toExchangeId: A });
    expect(same.body.errors).toEqual({ toExchangeId: 'sameAsSource' });
    const outOfReach = await transfer(tokens.admin1, { fromExchangeId: A, toExchangeId: C });
    expect(outOfReach.status).toBe(400);
    expect(outOfReach.body.errors).toEqual({ toExchangeId: 'notFound' });
    const tooMuch = await transfer(tokens.admin1, { fromExchangeId: B, toExchangeId: A, amount: 96 });
    expect(tooMuch.body.errors).toEqual({ amount: 'belowHeld' });
    // operatorB holds cash:write but only reaches B.
    const operator = await transfer(tokens.operatorB, { fromExchangeId: B, toExchangeId: A });
    expect(operator.body.errors).toEqual({ toExchangeId: 'notFound' });
    expect((await transfer(tokens.operatorA, { fromExchangeId: A, toExchangeId: B })).status).toBe(403);
  });
});

describe('orders against a tracked position', () => {
  it('refuses an order beyond available with insufficientReserve, and settles and releases on moves', async () => {
    const { B } = world.exchanges;
    const { USD, EUR } = world.currencies;
    // Exchange B: USD→EUR at 0.93. Track EUR with 100.
    expect((await move(tokens.admin1, B, EUR, { kind: 'deposit', amount: 100 })).status).toBe(201);
    const body = (clientAmount: number) =>
      orderBody(world, { cashbox: { id: B }, currency1: { id: USD }, currency2: { id: EUR }, clientAmount });
    const refused = await call(server, 'POST', '/partner/orders', { key: world.keys.branch, body: body(200) });
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body.errors).toEqual({ exchangeAmount: 'insufficientReserve' });
    expect(refused.body.message).toContain('100 EUR is available');
    const estimate = await call(server, 'POST', '/partner/public/estimate', {
      key: world.keys.branch,
      body: { exchangeId: B, sourceCurrencyId: USD, destCurrencyId: EUR, amount: 200, direction: 'source' },
    });
    expect(estimate.status, estimate.text).toBe(400);
    expect(estimate.body.errors).toEqual({ amount: 'insufficientReserve' });

    const settled = await placeOrder(server, world.keys.branch, body(50)); // 46.50 EUR
    const cancelled = await placeOrder(server, world.keys.branch, body(20)); // 18.60 EUR
    expect(await positionOf(B, EUR)).toMatchObject({ balance: 100, held: 65.1, available: 34.9 });
    for (const status of ['CLIENTPAYMENTWAIT', 'EXCHANGEPAYMENTWAIT', 'SUCCESS']) {
      const res = await call(server, 'POST', `/admin/orders/${settled.id}/status`, {
        token: tokens.admin1,
        body: { status },
      });
      expect(res.status, res.text).toBe(200);
    }
    expect(
      (await call(server, 'POST', `/partner/orders/${cancelled.id}/cancel`, { key: world.keys.branch })).status,
    ).toBe(200);
    expect(await positionOf(B, EUR)).toMatchObject({ balance: 53.5, held: 0, available: 53.5 });
    // USD at B was tracked (the transfer): it received the client's 50 USD.
    expect(await positionOf(B, USD)).toMatchObject({ balance: 145 });
    const ledger = await call(server, 'GET', `${cashPath(B, EUR)}/movements`, { token: tokens.admin1 });
    expect(ledger.body.data.map((m: { kind: string; amount: number }) => [m.kind, m.amount])).toEqual([
      ['deposit', 100],
      ['orderSettled', -46.5],
    ]);
  });
});

describe('the reserve partners see', () => {
  it('is the smaller of maxAmount × rate and available when tracked, refreshed when the position changes', async () => {
    const { A } = world.exchanges;
    const { USD, BTC } = world.currencies;
    const rateOf = async () => {
      const res = await call(server, 'GET', '/partner/public/rates', {
        key: world.keys.public,
        query: { exchangeId: A, sourceCurrencyId: world.currencies.USDT, destCurrencyId: BTC },
      });
      expect(res.status, res.text).toBe(200);
      return res.body[0].reserve as number;
    };
    const offerOf = async () => {
      const res = await call(server, 'GET', '/partner/offers', { key: world.keys.branch, query: { limit: 100 } });
      return res.body.data.find((o: { id: number }) => o.id === world.offers.aUsdtBtc).reserve as number;
    };
    const xmlAmount = async () => {
      const res = await call(server, 'GET', '/partner/public/rates.xml', { key: world.keys.public });
      return /<from>USDT<\/from><to>BTC<\/to>.*?<amount>([^<]+)<\/amount>/.exec(res.text)?.[1];
    };
    // BTC at A is tracked since the deposit of 0.00000001 above: that is all one order can receive.
    expect(await rateOf()).toBe(0.00000001);
    expect(await xmlAmount()).toBe('0.00000001');
    expect((await move(tokens.admin1, A, BTC, { kind: 'deposit', amount: '0.5' })).status).toBe(201);
    expect(await rateOf()).toBe(0.50000001);
    expect(await offerOf()).toBe(0.50000001);
    expect(await xmlAmount()).toBe('0.50000001');
    expect((await move(tokens.admin1, A, BTC, { kind: 'deposit', amount: 5 })).status).toBe(201);
    // Now maxAmount × rate is smaller: 100000 × 0.0000155123456789, rounded down to 8 decimals.
    expect(await rateOf()).toBe(1.55123456);
    // USD at A is tracked too: the reserve of BTC→USD is its available USD.
    const usd = await positionOf(A, USD);
    const rates = await call(server, 'GET', '/partner/public/rates', {
      key: world.keys.public,
      query: { exchangeId: A, sourceCurrencyId: BTC, destCurrencyId: USD },
    });
    expect(rates.body[0].reserve).toBe(usd.available);
  });

  it('/metrics carries the available cash of each tracked position', async () => {
    const text = await (await fetch(`${server.url}/metrics`)).text();
    expect(text).toMatch(
      new RegExp(`pxs_cash_available\\{exchange_id="${world.exchanges.A}",currency="BTC"\\} 5\\.50000001`),
    );
  });
});
