import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matches } from '../../src/http/etag.js';
import { call, type TestServer } from '../helpers/server.js';
import type { StaffName } from '../helpers/staff.js';
import type { World } from '../helpers/world.js';
import { startWorld } from '../helpers/fixture.js';
import { orderBody, placeOrder } from '../features/orders/support.js';

let server: TestServer;
let world: World;
let tokens: Record<StaffName, string>;
let orderId: number;
let clientId: number;
let webhookId: string;

beforeAll(async () => {
  ({ server, world, tokens } = await startWorld());
  orderId = (await placeOrder(server, world.keys.branch, orderBody(world))).id;
  const client = await call(server, 'POST', '/partner/clients', {
    key: world.keys.branch,
    body: { firstName: 'Ana', lastName: 'Silva', email: 'etag@example.com', phone: '+351912345678' },
  });
  clientId = client.body.id;
  webhookId = (
    await call(server, 'POST', '/partner/webhooks', {
      key: world.keys.branch,
      body: { url: 'https://receiver.example/hook', events: ['order.created'] },
    })
  ).body.id;
});
afterAll(() => server?.close());

const get = (path: string, key: string, ifNoneMatch?: string) =>
  call(server, 'GET', path, { key, headers: ifNoneMatch === undefined ? {} : { 'if-none-match': ifNoneMatch } });

describe('ETag and If-None-Match on the polled reads', () => {
  const routes = (): [string, string][] => [
    ['/partner/public/exchanges', world.keys.public],
    ['/partner/public/currencies', world.keys.public],
    ['/partner/public/rates', world.keys.public],
    ['/partner/public/rates.xml', world.keys.public],
    ['/partner/offers', world.keys.branch],
    [`/partner/exchanges/${world.exchanges.A}`, world.keys.branch],
    [`/partner/orders/${orderId}`, world.keys.branch],
    [`/partner/clients/${clientId}`, world.keys.branch],
    [`/partner/webhooks/${webhookId}`, world.keys.branch],
  ];

  it('tags each answer and answers a matching If-None-Match with 304 and no body', async () => {
    for (const [path, key] of routes()) {
      const first = await get(path, key);
      const tag = first.headers.get('etag');
      expect(first.status, path).toBe(200);
      expect(tag, path).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
      expect(first.headers.get('cache-control')).toBe('private, no-cache');
      expect((await get(path, key)).headers.get('etag'), `${path} is stable`).toBe(tag);
      const again = await get(path, key, tag!);
      expect(again.status, path).toBe(304);
      expect(again.text).toBe('');
      expect(again.headers.get('etag')).toBe(tag);
      // Rate-limit headers still come with a 304: it counts as a request.
      expect(again.headers.get('x-ratelimit-remaining')).not.toBeNull();
      expect((await get(path, key, '"something-else"')).status, path).toBe(200);
    }
  });

  it('accepts a list of tags, weak tags and *', async () => {
    const first = await get('/partner/offers', world.keys.branch);
    const tag = first.headers.get('etag')!;
    expect((await get('/partner/offers', world.keys.branch, `"old", ${tag}`)).status).toBe(304);
    expect((await get('/partner/offers', world.keys.branch, `W/${tag}`)).status).toBe(304);
    expect((await get('/partner/offers', world.keys.branch, '*')).status).toBe(304);
  });

  it('changes the tag when the data changes, so a poller gets the new body', async () => {
    const before = await get('/partner/public/rates', world.keys.public);
    const tag = before.headers.get('etag')!;
    const patched = await call(server, 'PATCH', `/admin/offers/${world.offers.aUsdEur}`, {
      token: tokens.admin1,
      body: { rate: 0.9301 },
    });
    expect(patched.status, patched.text).toBe(200);
    const after = await get('/partner/public/rates', world.keys.public, tag);
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(tag);
    expect(after.body.find((r: { offerId: number }) => r.offerId === world.offers.aUsdEur).rate).toBe(0.9301);

    const order = await get(`/partner/orders/${orderId}`, world.keys.branch);
    await call(server, 'POST', `/partner/orders/${orderId}/cancel`, { key: world.keys.branch });
    const cancelled = await get(`/partner/orders/${orderId}`, world.keys.branch, order.headers.get('etag')!);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('CANCEL');
  });

  it("never tags an error, a write or another key's view of the same route the same way", async () => {
    const missing = await get('/partner/orders/999999', world.keys.branch);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('etag')).toBeNull();
    expect((await get('/partner/orders/999999', world.keys.branch, '*')).status).toBe(404);
    const forbidden = await get('/partner/offers', world.keys.public, '*');
    expect(forbidden.status).toBe(403);
    const estimate = await call(server, 'POST', '/partner/public/estimate', {
      key: world.keys.public,
      body: {
        exchangeId: world.exchanges.A,
        sourceCurrencyId: world.currencies.USD,
        destCurrencyId: world.currencies.EUR,
        amount: 100,
      },
    });
    expect(estimate.status).toBe(200);
    expect(estimate.headers.get('etag')).toBeNull();
    const mine = (await get('/partner/public/rates', world.keys.public)).headers.get('etag')!;
    const theirs = await get('/partner/public/rates', world.keys.otherPublic, mine);
    expect(theirs.status).toBe(200);
    expect(theirs.headers.get('etag')).not.toBe(mine);
  });
});

describe('If-None-Match matching (RFC 9110)', () => {
  it.each([
    [undefined, false],
    ['', false],
    ['*', true],
    [' * ', true],
    ['"a"', true],
    ['W/"a"', true],
    ['"b", "a"', true],
    ['"b",W/"a"', true],
    ['"b"', false],
    ['a', false],
    ['"a', false],
  ] as const)('%j matches "a": %s', (header, expected) => {
    expect(matches(header, '"a"')).toBe(expected);
  });
});
