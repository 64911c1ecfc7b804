import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

const post = (key: string, overrides: Record<string, unknown>) =>
  call(server, 'POST', '/partner/orders', { key, body: orderBody(world, overrides) });

describe('POST /partner/orders: which amounts', () => {
  it('offer: both amounts → 400 exchangeAmount notAllowed', async () => {
    const res = await post(world.keys.branch, { clientAmount: 100, exchangeAmount: 92.15 });
    expect(res.body).toEqual({
      statusCode: 400,
      message: 'give either clientAmount or exchangeAmount for an offer order, not both',
      error: 'Bad Request',
      errors: { exchangeAmount: 'notAllowed' },
    });
  });

  it('offer: no amount → 400 clientAmount required', async () => {
    const res = await post(world.keys.branch, { clientAmount: undefined });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ clientAmount: 'required' });
  });

  it('finop: both amounts taken as given, no offer, no limits, no rate', async () => {
    // 5 USD is under the USD→EUR offer's 10 USD minimum, and USD→JPY has no offer at all: a finop needs neither.
    const res = await post(world.keys.branch, {
      operationType: 'finop',
      currency2: { id: world.currencies.JPY },
      clientAmount: 5,
      exchangeAmount: 777,
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      operationType: 'finop',
      clientAmount: 5,
      exchangeAmount: 777,
      offer: null,
      status: 'ORDERINIT',
    });
    expect(res.body).not.toHaveProperty('rate');
    const row = await server.db
      .selectFrom('orders')
      .select(['offer_id', 'rate', 'is_reverse'])
      .where('id', '=', res.body.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ offer_id: null, rate: null, is_reverse: null });
    const [created] = await recordedEvents(server.db, webhookId, res.body.id);
    expect(created.body.data).toEqual({
      id: res.body.id,
      status: 'ORDERINIT',
      amountSource: '5',
      amountDest: '777',
      expiresAt: res.body.expiresAt,
    });
  });

  it.each([
    [{ clientAmount: 10 }, { exchangeAmount: 'required' }],
    [{ clientAmount: undefined, exchangeAmount: 10 }, { clientAmount: 'required' }],
    [{ clientAmount: undefined }, { clientAmount: 'required', exchangeAmount: 'required' }],
  ])('finop: %o → 400 %o', async (overrides, errors) => {
    const res = await post(world.keys.branch, { operationType: 'finop', ...overrides });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual(errors);
  });

  it('finop: an amount finer than its currency → 400 tooManyDecimals', async () => {
    const res = await post(world.keys.branch, { operationType: 'finop', clientAmount: 10, exchangeAmount: 9.215 });
    expect(res.body).toEqual({
      statusCode: 400,
      message: 'exchangeAmount has more than 2 decimal places, the precision of EUR',
      error: 'Bad Request',
      errors: { exchangeAmount: 'tooManyDecimals' },
    });
  });

  it.each([
    [{ clientAmount: 0 }, { clientAmount: 'tooSmall' }],
    [{ clientAmount: -5 }, { clientAmount: 'tooSmall' }],
    [{ operationType: 'finop', clientAmount: 1, exchangeAmount: 0 }, { exchangeAmount: 'tooSmall' }],
    [{ clientAmount: 'a hundred' }, { clientAmount: 'invalidType' }],
    [{ operationType: 'swap' }, { operationType: 'invalidValue' }],
    [{ cashbox: undefined }, { cashbox: 'required' }],
    [{ cashbox: { id: 'A' } }, { 'cashbox.id': 'invalidType' }],
    [{ extra: 1 }, { extra: 'notAllowed' }],
    [{ currency2: { id: 0 } }, { 'currency2.id': 'tooSmall' }],
  ])('%o → 400 %o', async (overrides, errors) => {
    const res = await post(world.keys.branch, overrides);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual(errors);
  });

  it('the same currency on both sides → 400 currency2 sameAsSource', async () => {
    const res = await post(world.keys.branch, { currency2: { id: world.currencies.USD } });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ currency2: 'sameAsSource' });
  });
});

describe('POST /partner/orders: permissions', () => {
  it.each([
    ['readOnlyA', 'This key lacks the orders:write permission'],
    ['public', 'A public key may only call the public endpoints'],
    ['otherPublic', 'A public key may only call the public endpoints'],
  ] as const)('%s → 403', async (key, message) => {
    const res = await post(world.keys[key], {});
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ statusCode: 403, message, error: 'Forbidden' });
  });

  it('no key → 401', async () => {
    const res = await call(server, 'POST', '/partner/orders', { body: orderBody(world) });
    expect(res.status).toBe(401);
  });
});
