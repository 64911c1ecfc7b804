import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorld } from '../../server/test/helpers/fixture.js';
import { call, type TestServer } from '../../server/test/helpers/server.js';
import type { StaffName } from '../../server/test/helpers/staff.js';
import type { World } from '../../server/test/helpers/world.js';
import { createClient, PxsError } from '../src/index.js';

/**
 * Polling through the SDK against the real server: the events feed without a limit, and conditional GETs with
 * `etagCache` (If-None-Match out, 304 in, the kept body out to the caller). The SDK's fetch is wrapped so that the
 * test sees what went on the wire.
 */
let server: TestServer;
let world: World;
let tokens: Record<StaffName, string>;

interface Exchange {
  method: string;
  path: string;
  ifNoneMatch: string | null;
  status: number;
  etag: string | null;
}
function wire() {
  const log: Exchange[] = [];
  const fetchAndLog = async (request: Request) => {
    const response = await fetch(request);
    const url = new URL(request.url);
    log.push({
      method: request.method,
      path: url.pathname + url.search,
      ifNoneMatch: request.headers.get('if-none-match'),
      status: response.status,
      etag: response.headers.get('etag'),
    });
    return response;
  };
  return { log, fetch: fetchAndLog };
}

beforeAll(async () => {
  ({ server, world, tokens } = await startWorld());
});
afterAll(async () => {
  await server?.close();
});

const newOrder = (clientAmount: number) => ({
  cashbox: { id: world.exchanges.A },
  currency1: { id: world.currencies.USD },
  currency2: { id: world.currencies.EUR },
  operationType: 'offer' as const,
  clientAmount,
});

describe('listEvents', () => {
  it("reads the feed without a limit (the server's default, 100 a page) and follows next", async () => {
    const pxs = createClient({ baseUrl: server.url, apiKey: world.keys.branch });
    for (let i = 0; i < 101; i++) await pxs.createOrder(newOrder(10 + i));
    const first = await pxs.listEvents();
    expect(first.data).toHaveLength(100);
    expect(first.hasMore).toBe(true);
    const rest = await pxs.listEvents({ after: first.next });
    expect(rest.data.length).toBeGreaterThan(0);
    expect(rest.data[0].id).not.toBe(first.data[99].id);
  });
});

describe('etagCache', () => {
  it('polls an order: the second read sends If-None-Match, gets a 304 and resolves with the same order; a change brings the new one', async () => {
    const { log, fetch } = wire();
    const pxs = createClient({ baseUrl: server.url, apiKey: world.keys.branch, fetch, etagCache: true });
    const created = await pxs.createOrder(newOrder(100));
    const path = `/api/v1/partner/orders/${created.id}`;
    const reads = () => log.filter((e) => e.method === 'GET' && e.path === path);

    const first = await pxs.getOrder(created.id);
    expect(reads()).toEqual([
      { method: 'GET', path, ifNoneMatch: null, status: 200, etag: expect.stringMatching(/^".+"$/) },
    ]);
    const tag = reads()[0].etag;

    const second = await pxs.getOrder(created.id);
    expect(reads()[1]).toMatchObject({ ifNoneMatch: tag, status: 304 });
    expect(second).toEqual(first);
    // Each poll parses the kept body anew: what a caller does with one answer does not leak into the next.
    second.status = 'SUCCESS';
    expect((await pxs.getOrder(created.id)).status).toBe('ORDERINIT');
    expect(reads()[2]).toMatchObject({ ifNoneMatch: tag, status: 304 });

    await pxs.cancelOrder(created.id);
    const changed = await pxs.getOrder(created.id);
    expect(changed.status).toBe('CANCEL');
    expect(reads()[3]).toMatchObject({ ifNoneMatch: tag, status: 200 });
    const newTag = reads()[3].etag;
    expect(newTag).not.toBe(tag);

    expect(await pxs.getOrder(created.id)).toEqual(changed);
    expect(reads()[4]).toMatchObject({ ifNoneMatch: newTag, status: 304 });
  });

  it('polls the catalogue, JSON and XML alike, and follows a rate change', async () => {
    const { log, fetch } = wire();
    const pxs = createClient({ baseUrl: server.url, apiKey: world.keys.public, fetch, etagCache: true });
    const query = { exchangeId: world.exchanges.B };
    const rates = await pxs.listRates(query);
    expect(await pxs.listRates(query)).toEqual(rates);
    const xml = await pxs.getRatesXml(query);
    expect(await pxs.getRatesXml(query)).toBe(xml);
    expect(log.map((e) => [e.path.split('?')[0], e.ifNoneMatch === null ? 'plain' : 'conditional', e.status])).toEqual([
      ['/api/v1/partner/public/rates', 'plain', 200],
      ['/api/v1/partner/public/rates', 'conditional', 304],
      ['/api/v1/partner/public/rates.xml', 'plain', 200],
      ['/api/v1/partner/public/rates.xml', 'conditional', 304],
    ]);

    const patched = await call(server, 'PATCH', `/admin/offers/${world.offers.bUsdEur}`, {
      token: tokens.admin1,
      body: { rate: 0.9312345 },
    });
    expect(patched.status, patched.text).toBe(200);
    const changed = await pxs.listRates(query);
    expect(changed.find((r) => r.offerId === world.offers.bUsdEur)).toMatchObject({ rate: 0.9312345 });
    expect(await pxs.getRatesXml(query)).toContain('<out>0.9312345</out>');
    expect(log.slice(4).map((e) => [e.ifNoneMatch === null ? 'plain' : 'conditional', e.status])).toEqual([
      ['conditional', 200],
      ['conditional', 200],
    ]);
  });

  it("is off by default: no If-None-Match is sent, and a caller's own If-None-Match gets its 304 as a PxsError", async () => {
    const { log, fetch } = wire();
    const pxs = createClient({ baseUrl: server.url, apiKey: world.keys.branch, fetch });
    await pxs.getExchange(world.exchanges.A);
    await pxs.getExchange(world.exchanges.A);
    expect(log.map((e) => [e.ifNoneMatch, e.status])).toEqual([
      [null, 200],
      [null, 200],
    ]);

    const own = await pxs
      .getExchange(world.exchanges.A, { headers: { 'If-None-Match': log[0].etag! } })
      .catch((e: unknown) => e);
    expect(own).toBeInstanceOf(PxsError);
    expect((own as PxsError).statusCode).toBe(304);
  });

  it('keeps no answer without an ETag (a list of orders) and never an error', async () => {
    const { log, fetch } = wire();
    const pxs = createClient({ baseUrl: server.url, apiKey: world.keys.branch, fetch, etagCache: true });
    await pxs.listOrders({ limit: 5 });
    await pxs.listOrders({ limit: 5 });
    expect(await pxs.getOrder(2147483000).catch((e: PxsError) => e.statusCode)).toBe(404);
    expect(await pxs.getOrder(2147483000).catch((e: PxsError) => e.statusCode)).toBe(404);
    expect(log.map((e) => [e.ifNoneMatch, e.status])).toEqual([
      [null, 200],
      [null, 200],
      [null, 404],
      [null, 404],
    ]);
  });
});
