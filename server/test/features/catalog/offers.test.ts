import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type TestServer } from '../../helpers/server.js';
import type { World } from '../../helpers/world.js';
import { startWorld } from '../../helpers/fixture.js';

let server: TestServer;
let w: World;

beforeAll(async () => ({ server, world: w } = await startWorld()));
afterAll(() => server?.close());

const list = (query: Record<string, string | number> = {}, key = w.keys.branch) =>
  call(server, 'GET', '/partner/offers', { key, query });
const ids = (res: { body: { data: { id: number }[] } }) => res.body.data.map((o) => o.id);

describe('GET /partner/offers', () => {
  it("returns the branch's offers with defaults skip 0, limit 25, sorted by id", async () => {
    const res = await list();
    expect(res.status).toBe(200);
    const branch1 = [
      w.offers.aUsdEur,
      w.offers.aBtcUsd,
      w.offers.aEurJpy,
      w.offers.aUsdtBtc,
      w.offers.bUsdEur,
      w.offers.bEurUsdInactive,
      w.offers.xUsdEur,
    ];
    expect(ids(res)).toEqual(branch1);
    expect(res.body.meta).toEqual({ total: 7, skip: 0, limit: 25, nextCursor: null });
    expect(res.body.data[0]).toEqual({
      id: w.offers.aUsdEur,
      currency1: { id: w.currencies.USD, code: 'USD', name: 'US Dollar' },
      currency2: { id: w.currencies.EUR, code: 'EUR', name: 'Euro' },
      rate: 0.9215,
      minAmount: 10,
      maxAmount: 10000,
      // Untracked EUR: the most one order pays out, 10000 × 0.9215.
      reserve: 9215,
      isActive: true,
      exchange: { id: w.exchanges.A },
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      updatedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
  });

  it("never shows another branch's offers, whatever the filter", async () => {
    const res = await list({ filter: JSON.stringify({ exchangeId: w.exchanges.C }) });
    expect(res.body).toEqual({ data: [], meta: { total: 0, skip: 0, limit: 25, nextCursor: null } });
    const other = await list({}, w.keys.otherBranch);
    expect(ids(other)).toEqual([w.offers.cUsdEur]);
  });

  it('gives every secret key of the branch the branch-wide catalogue', async () => {
    for (const key of [w.keys.operatorA, w.keys.operatorB, w.keys.readOnlyA, w.keys.admin1])
      expect((await list({}, key)).body.meta.total).toBe(7);
    expect((await list({}, w.keys.superadmin)).body.meta.total).toBe(8);
  });

  it('pages with skip and limit and reports the total of all matches', async () => {
    const page = await list({ skip: 2, limit: 2 });
    expect(ids(page)).toEqual([w.offers.aEurJpy, w.offers.aUsdtBtc]);
    expect(page.body.meta).toEqual({ total: 7, skip: 2, limit: 2, nextCursor: expect.any(String) });
    const past = await list({ skip: 50, limit: 100 });
    expect(past.body).toEqual({ data: [], meta: { total: 7, skip: 50, limit: 100, nextCursor: null } });
  });

  it('filters on isActive, exchangeId, currency1Id and currency2Id', async () => {
    expect(ids(await list({ filter: '{"isActive":false}' }))).toEqual([w.offers.bEurUsdInactive]);
    expect(ids(await list({ filter: JSON.stringify({ exchangeId: w.exchanges.B }) }))).toEqual([
      w.offers.bUsdEur,
      w.offers.bEurUsdInactive,
    ]);
    expect(ids(await list({ filter: JSON.stringify({ currency1Id: w.currencies.USD, isActive: true }) }))).toEqual([
      w.offers.aUsdEur,
      w.offers.bUsdEur,
      w.offers.xUsdEur,
    ]);
    expect(ids(await list({ filter: JSON.stringify({ currency2Id: w.currencies.BTC }) }))).toEqual([w.offers.aUsdtBtc]);
  });

  it('sorts by several fields in either direction', async () => {
    const byRate = await list({ sort: '[["rate","DESC"]]', limit: 3 });
    expect(ids(byRate)).toEqual([w.offers.aBtcUsd, w.offers.aEurJpy, w.offers.bEurUsdInactive]);
    const byExchangeThenId = await list({ sort: '[["exchangeId","DESC"],["id","DESC"]]' });
    expect(ids(byExchangeThenId).slice(0, 3)).toEqual([w.offers.xUsdEur, w.offers.bEurUsdInactive, w.offers.bUsdEur]);
  });

  it.each([
    [{ limit: 101 }, 'limit'],
    [{ limit: 0 }, 'limit'],
    [{ skip: -1 }, 'skip'],
    [{ skip: 'abc' }, 'skip'],
    [{ filter: '{"isActive":' }, 'filter'],
    [{ filter: '[1]' }, 'filter'],
    [{ filter: '{"rate":1}' }, 'filter.rate'],
    [{ filter: '{"isActive":"yes"}' }, 'filter.isActive'],
    [{ sort: 'rate' }, 'sort'],
    [{ sort: '[["rate"]]' }, 'sort'],
    [{ sort: '[["secret","ASC"]]' }, 'sort.secret'],
    [{ sort: '[["rate","UP"]]' }, 'sort.rate'],
  ] as [Record<string, string | number>, string][])('refuses %j with 400 naming %s', async (query, field) => {
    const res = await list(query);
    expect(res.status).toBe(400);
    expect(res.body.statusCode).toBe(400);
    expect(res.body.error).toBe('Bad Request');
    expect(Object.keys(res.body.errors)).toContain(field);
  });
});

describe('GET /partner/exchanges/{id}', () => {
  it('returns the exchange with its schedule object', async () => {
    const res = await call(server, 'GET', `/partner/exchanges/${w.exchanges.A}`, { key: w.keys.operatorB });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: w.exchanges.A,
      name: 'Exchange A',
      address: '1 A Street',
      city: 'Alpha',
      isActive: true,
      schedule: {
        timezone: 'UTC',
        days: [
          { dayOfWeek: 1, openTime: '09:00', closeTime: '18:00', isClosed: false },
          { dayOfWeek: 7, openTime: '00:00', closeTime: '00:00', isClosed: true },
        ],
      },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const inactive = await call(server, 'GET', `/partner/exchanges/${w.exchanges.X}`, { key: w.keys.branch });
    expect(inactive.body.isActive).toBe(false);
  });

  it("answers 404 for another branch's exchange and an unknown id, 400 for a bad id", async () => {
    for (const id of [w.exchanges.C, 424242]) {
      const res = await call(server, 'GET', `/partner/exchanges/${id}`, { key: w.keys.branch });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ statusCode: 404, error: 'Not Found', errors: { exchange: 'notFound' } });
    }
    expect((await call(server, 'GET', '/partner/exchanges/abc', { key: w.keys.branch })).status).toBe(400);
    expect((await call(server, 'GET', '/partner/exchanges/99999999999', { key: w.keys.branch })).status).toBe(400);
  });
});

describe('GET /partner/public/currencies and /partner/public/rates', () => {
  it('lists the distinct currencies of active offers of active exchanges', async () => {
    const res = await call(server, 'GET', '/partner/public/currencies', { key: w.keys.public });
    expect(res.status).toBe(200);
    expect(res.body.map((c: { ticker: string }) => c.ticker)).toEqual(['USD', 'EUR', 'BTC', 'JPY', 'USDT']);
    expect(res.body[0]).toEqual({
      id: w.currencies.USD,
      name: 'US Dollar',
      ticker: 'USD',
      image: { id: '00000000-0000-4000-8000-000000000001', path: '/img/usd.svg' },
    });
    const other = await call(server, 'GET', '/partner/public/currencies', { key: w.keys.otherPublic });
    expect(other.body.map((c: { ticker: string }) => c.ticker)).toEqual(['USD', 'EUR']);
  });

  it('lists rates of active offers of active exchanges, filtered by query', async () => {
    const all = await call(server, 'GET', '/partner/public/rates', { key: w.keys.public });
    expect(all.body.map((r: { offerId: number }) => r.offerId)).toEqual([
      w.offers.aUsdEur,
      w.offers.aBtcUsd,
      w.offers.aEurJpy,
      w.offers.aUsdtBtc,
      w.offers.bUsdEur,
    ]);
    expect(all.body[3]).toEqual({
      offerId: w.offers.aUsdtBtc,
      exchangeId: w.exchanges.A,
      sourceCurrency: { id: w.currencies.USDT, ticker: 'USDT' },
      destCurrency: { id: w.currencies.BTC, ticker: 'BTC' },
      rate: 0.0000155123456789,
      minAmount: 10,
      maxAmount: 100000,
      // 100000 × 0.0000155123456789 rounded down to BTC's 8 decimals.
      reserve: 1.55123456,
      updatedAt: expect.any(String),
    });
    const filtered = await call(server, 'GET', '/partner/public/rates', {
      key: w.keys.public,
      query: { exchangeId: w.exchanges.B, sourceCurrencyId: w.currencies.USD, destCurrencyId: w.currencies.EUR },
    });
    expect(filtered.body.map((r: { offerId: number }) => r.offerId)).toEqual([w.offers.bUsdEur]);
    expect(
      (await call(server, 'GET', '/partner/public/rates', { key: w.keys.public, query: { exchangeId: w.exchanges.C } }))
        .body,
    ).toEqual([]);
    expect(
      (await call(server, 'GET', '/partner/public/rates', { key: w.keys.public, query: { exchangeId: 'x' } })).status,
    ).toBe(400);
    expect(
      (await call(server, 'GET', '/partner/public/rates', { key: w.keys.public, query: { unknown: 1 } })).status,
    ).toBe(400);
  });
});
