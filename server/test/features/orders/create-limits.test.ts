import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type TestServer } from '../../helpers/server.js';
import type { World } from '../../helpers/world.js';
import { orderBody } from './support.js';
import { startWorld } from '../../helpers/fixture.js';
import { eventually } from '../../helpers/eventually.js';

let server: TestServer;
let world: World;

beforeAll(async () => ({ server, world } = await startWorld()));
afterAll(() => server?.close());

describe('POST /partner/orders: limits of the offer', () => {
  const refused = async (overrides: Record<string, unknown>) =>
    call(server, 'POST', '/partner/orders', { key: world.keys.branch, body: orderBody(world, overrides) });

  it('accepts the limits themselves', async () => {
    expect((await refused({ clientAmount: 10 })).status).toBe(201);
    expect((await refused({ clientAmount: 10000 })).status).toBe(201);
  });

  it.each([
    [
      { clientAmount: 9.99 },
      'clientAmount',
      'belowMinimum',
      'clientAmount is below the minimum of 10 USD for this offer',
    ],
    [
      { clientAmount: 10000.01 },
      'clientAmount',
      'aboveMaximum',
      'clientAmount is above the maximum of 10000 USD for this offer',
    ],
    // 9.2 EUR ÷ 0.9215 = 9.98372… → 9.99 USD, under the 10 USD minimum
    [
      { clientAmount: undefined, exchangeAmount: 9.2 },
      'exchangeAmount',
      'belowMinimum',
      'exchangeAmount is below the minimum of 10 USD for this offer',
    ],
    // reverse (EUR→USD): the USD side is the exchange amount
    [
      { currency1: { id: 0 }, clientAmount: undefined, exchangeAmount: 10000.01 },
      'exchangeAmount',
      'aboveMaximum',
      'exchangeAmount is above the maximum of 10000 USD for this offer',
    ],
    [
      { clientAmount: 10.001 },
      'clientAmount',
      'tooManyDecimals',
      'clientAmount has more than 2 decimal places, the precision of USD',
    ],
    [
      { clientAmount: undefined, exchangeAmount: 50.123 },
      'exchangeAmount',
      'tooManyDecimals',
      'exchangeAmount has more than 2 decimal places, the precision of EUR',
    ],
  ])('%o → 400 %s: %s', async (overrides, field, code, message) => {
    const o = { ...overrides } as Record<string, unknown>;
    if ((o.currency1 as { id: number } | undefined)?.id === 0)
      Object.assign(o, { currency1: { id: world.currencies.EUR }, currency2: { id: world.currencies.USD } });
    const res = await refused(o);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ statusCode: 400, message, error: 'Bad Request', errors: { [field]: code } });
  });

  it('refuses an amount with more digits than a JSON number keeps, rather than pricing it rounded', async () => {
    const raw = (amount: string, path = '/partner/orders', body = orderBody(world, { clientAmount: 0 })) =>
      call(server, 'POST', path, {
        key: world.keys.branch,
        headers: { 'content-type': 'application/json' },
        rawBody: JSON.stringify(body).replace(/"(clientAmount|amount)":0/, `"$1":${amount}`),
      });
    // JSON.parse reads these as 1234567890123456.8 and 90071992.54740994.
    for (const amount of ['1234567890123456.78', '90071992.54740993', '1.123456789012345678']) {
      const res = await raw(amount);
      expect(res.status, amount).toBe(400);
      expect(res.body.errors).toEqual({ clientAmount: 'tooPrecise' });
      expect(res.body.message).toBe(
        `clientAmount has more significant digits than a JSON number keeps exactly (${amount}); send at most 15`,
      );
    }
    // A refusal quotes the number cut short, however long the partner sent it.
    const huge = `0.${'1'.repeat(10_000)}`;
    const cut = await raw(huge);
    expect(cut.status).toBe(400);
    expect(cut.body.message).toBe(
      `clientAmount has more significant digits than a JSON number keeps exactly (0.${'1'.repeat(38)}…); send at most 15`,
    );
    const estimate = await raw('90071992.54740993', '/partner/public/estimate', {
      exchangeId: world.exchanges.A,
      sourceCurrencyId: world.currencies.USD,
      destCurrencyId: world.currencies.EUR,
      amount: 0,
    } as never);
    expect(estimate.body.errors).toEqual({ amount: 'tooPrecise' });
    // Long but exact numbers, and long digit runs inside strings, pass as before.
    const long = await raw('100.00000000000000');
    expect(long.status, long.text).toBe(201);
    const client = await call(server, 'POST', '/partner/clients', {
      key: world.keys.branch,
      body: {
        firstName: 'Long',
        lastName: 'Digits',
        email: `digits-12345678901234567-${Date.now()}@example.com`,
        phone: '+15550001111',
      },
    });
    expect(client.status, client.text).toBe(201);
  });

  it('refuses a pair without an active offer at the cashbox', async () => {
    const res = await refused({ currency2: { id: world.currencies.JPY } });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ offer: 'notFound' });
  });

  it('writes nothing for a refused order', async () => {
    const before = await server.db
      .selectFrom('orders')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    await refused({ clientAmount: 1 });
    const after = await server.db
      .selectFrom('orders')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  // numeric(38,18) holds values below 10^20: a larger amount, given or computed, is a 400, not a failed insert.
  it('refuses an amount an order cannot hold, given or computed through a large rate', async () => {
    const given = await refused({ operationType: 'finop', clientAmount: 1e20, exchangeAmount: 1 });
    expect(given.status).toBe(400);
    expect(given.body.errors).toEqual({ clientAmount: 'tooLarge' });

    await server.db
      .updateTable('offers')
      .set({ rate: '99999999999999999999.999999999999999999' })
      .where('id', '=', world.offers.aEurJpy)
      .execute();
    const eurJpy = { currency1: { id: world.currencies.EUR }, currency2: { id: world.currencies.JPY } };
    const order = await refused({ ...eurJpy, clientAmount: 100 });
    expect(order.status).toBe(400);
    expect(order.body).toEqual({
      statusCode: 400,
      message: 'clientAmount gives an amount too large to be exchanged',
      error: 'Bad Request',
      errors: { clientAmount: 'tooLarge' },
    });
    const body = {
      exchangeId: world.exchanges.A,
      sourceCurrencyId: world.currencies.EUR,
      destCurrencyId: world.currencies.JPY,
      amount: 100,
    };
    const estimate = await eventually(async () => {
      const res = await call(server, 'POST', '/partner/public/estimate', { key: world.keys.public, body });
      return res.status === 400 && res;
    });
    expect(estimate.body.errors).toEqual({ amount: 'tooLarge' });
  });
});
