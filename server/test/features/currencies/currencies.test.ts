import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type TestServer } from '../../helpers/server.js';
import type { StaffName } from '../../helpers/staff.js';
import type { World } from '../../helpers/world.js';
import { startWorld } from '../../helpers/fixture.js';

let server: TestServer;
let world: World;
let tokens: Record<StaffName, string>;

beforeAll(async () => ({ server, world, tokens } = await startWorld()));
afterAll(() => server?.close());

const asSuperadmin = (method: string, path: string, body?: unknown) =>
  call(server, method, path, { token: tokens.superadmin, body });
const IMAGE = { id: '00000000-0000-4000-8000-0000000000aa', path: '/img/gbp.svg' };

describe('currencies', () => {
  it('creates a currency that offers can then use', async () => {
    const res = await asSuperadmin('POST', '/admin/currencies', {
      ticker: 'GBP',
      name: 'Pound Sterling',
      decimals: 2,
      image: IMAGE,
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      ticker: 'GBP',
      name: 'Pound Sterling',
      kind: 'fiat',
      decimals: 2,
      image: IMAGE,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const offer = await call(server, 'POST', '/admin/offers', {
      token: tokens.admin1,
      body: {
        exchangeId: world.exchanges.A,
        currency1Id: res.body.id,
        currency2Id: world.currencies.EUR,
        rate: '1.17',
        maxAmount: 1000,
      },
    });
    expect(offer.status).toBe(201);
    const currencies = await call(server, 'GET', '/partner/public/currencies', { key: world.keys.public });
    expect(currencies.body).toContainEqual({ id: res.body.id, name: 'Pound Sterling', ticker: 'GBP', image: IMAGE });
  });

  it.each([
    ['a duplicate ticker', { ticker: 'USD', name: 'Dollar again', decimals: 2 }, { ticker: 'alreadyExists' }],
    ['a lower-case ticker', { ticker: 'usd', name: 'x', decimals: 2 }, { ticker: 'invalidFormat' }],
    ['too many decimals', { ticker: 'XYZ', name: 'x', decimals: 19 }, { decimals: 'tooLarge' }],
    [
      'an image without an id',
      { ticker: 'XYZ', name: 'x', decimals: 2, image: { path: '/x.svg' } },
      { 'image.id': 'required' },
    ],
  ])('refuses %s with 400', async (_name, body, errors) => {
    const res = await asSuperadmin('POST', '/admin/currencies', body);
    expect(res.status).toBe(400);
    expect(res.body.errors).toMatchObject(errors);
  });

  it('changes name, ticker, decimals and image; a taken ticker is a 400', async () => {
    const res = await asSuperadmin('PATCH', `/admin/currencies/${world.currencies.JPY}`, {
      name: 'Japanese Yen',
      decimals: 0,
      image: IMAGE,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ticker: 'JPY', name: 'Japanese Yen', image: IMAGE });
    expect(
      (await asSuperadmin('PATCH', `/admin/currencies/${world.currencies.JPY}`, { image: null })).body.image,
    ).toBeNull();
    expect(
      (await asSuperadmin('PATCH', `/admin/currencies/${world.currencies.JPY}`, { ticker: 'EUR' })).body.errors,
    ).toEqual({ ticker: 'alreadyExists' });
    expect((await asSuperadmin('PATCH', '/admin/currencies/999999', { name: 'x' })).body.errors).toEqual({
      currency: 'notFound',
    });
    expect((await asSuperadmin('PATCH', `/admin/currencies/${world.currencies.JPY}`, {})).status).toBe(400);
  });

  it('lists currencies to admins, with filters', async () => {
    const res = await call(server, 'GET', '/admin/currencies', {
      token: tokens.admin2,
      query: { filter: '{"kind":"crypto"}', sort: '[["ticker","ASC"]]' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.map((c: { ticker: string }) => c.ticker)).toEqual(['BTC', 'USDT']);
    expect(res.body.meta).toEqual({ total: 2, skip: 0, limit: expect.any(Number), nextCursor: null });
  });
});
