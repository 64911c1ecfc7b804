import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestServer, type TestServer } from '../helpers/server.js';
import type { World } from '../helpers/world.js';
import { startWorld } from '../helpers/fixture.js';

let server: TestServer;
let w: World;

beforeAll(async () => ({ server, world: w } = await startWorld({ env: { BODY_LIMIT_BYTES: '2048' } })));
afterAll(() => server?.close());

const estimate = (init: { rawBody?: string; headers?: Record<string, string> }) =>
  call(server, 'POST', '/partner/public/estimate', { key: w.keys.public, ...init });

describe("errors in the contract's envelope", () => {
  it('answers an unknown route with 404', async () => {
    const res = await call(server, 'GET', '/partner/nothing-here', { key: w.keys.branch });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ statusCode: 404, error: 'Not Found' });
    // Outside /api a GET is the staff console's (test/http/console.test.ts); anything else is still a 404.
    expect((await fetch(`${server.url}/nope`, { method: 'POST' })).status).toBe(404);
  });

  it('answers a body that is not JSON with 400', async () => {
    const res = await estimate({ rawBody: '{"exchangeId": 1,', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ statusCode: 400, message: 'Request body is not valid JSON', error: 'Bad Request' });
  });

  it('answers another content type with 415', async () => {
    const res = await estimate({
      rawBody: 'amount=1',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject({ statusCode: 415, error: 'Unsupported Media Type' });
  });

  it('answers JSON as text/plain, in a charset other than UTF-8 or under a Content-Encoding with 415', async () => {
    const json = JSON.stringify({
      exchangeId: w.exchanges.A,
      sourceCurrencyId: w.currencies.USD,
      destCurrencyId: w.currencies.EUR,
      amount: 100,
    });
    for (const headers of [
      { 'content-type': 'text/plain' } as Record<string, string>,
      { 'content-type': 'application/json; charset=utf-16' },
      { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    ]) {
      const res = await estimate({ rawBody: json, headers });
      expect(res.status, JSON.stringify(headers)).toBe(415);
      expect(res.body).toMatchObject({ statusCode: 415, error: 'Unsupported Media Type' });
    }
    for (const headers of [
      { 'content-type': 'application/json; charset=UTF-8' } as Record<string, string>,
      { 'content-type': 'application/json; charset="utf8"', 'content-encoding': 'identity' },
    ]) {
      expect((await estimate({ rawBody: json, headers })).status, JSON.stringify(headers)).toBe(200);
    }
  });

  it('answers a body over BODY_LIMIT_BYTES with 413', async () => {
    const res = await estimate({
      rawBody: JSON.stringify({ pad: 'x'.repeat(4096) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ statusCode: 413, message: 'Request body is too large', error: 'Payload Too Large' });
  });

  it('does not coerce JSON body types (query strings are coerced, bodies are not)', async () => {
    const res = await call(server, 'POST', '/partner/public/estimate', {
      key: w.keys.public,
      body: {
        exchangeId: String(w.exchanges.A),
        sourceCurrencyId: w.currencies.USD,
        destCurrencyId: w.currencies.EUR,
        amount: '100',
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ exchangeId: 'invalidType', amount: 'invalidType' });
  });

  it('takes an empty body sent as JSON as no body: a route that needs one says so, one that does not answers', async () => {
    const res = await estimate({ rawBody: '', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ errors: { body: 'invalidType' } });
    // Many HTTP clients send the header with every POST; a body-less action is not refused for it.
    const hook = await call(server, 'POST', '/partner/webhooks', {
      key: w.keys.branch,
      body: { url: 'https://example.com/hooks/empty-body', events: ['order.created'] },
    });
    expect(hook.status, hook.text).toBe(201);
    const rotated = await call(server, 'POST', `/partner/webhooks/${hook.body.id}/rotate-secret`, {
      key: w.keys.branch,
      rawBody: '',
      headers: { 'content-type': 'application/json' },
    });
    expect(rotated.status, rotated.text).toBe(200);
  });

  it('never shows a stack trace or SQL in a 500', async () => {
    // A real fault of the database, not a patched function: hot queries are compiled once per process and
    // would not call a patched query builder again. A fresh instance has prepared nothing on its connections.
    const broken = await startTestServer({ database: server.database });
    await sql`alter table orders rename to orders_moved`.execute(server.db);
    try {
      const res = await call(broken, 'GET', '/partner/orders', { key: w.keys.branch });
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ statusCode: 500, message: 'Internal server error', error: 'Internal Server Error' });
      expect(res.text).not.toMatch(/orders|relation|select/i);
    } finally {
      await sql`alter table orders_moved rename to orders`.execute(server.db);
      await broken.close();
    }
  });
});

describe('request ids', () => {
  it('echoes a well-formed X-Request-Id and makes one otherwise', async () => {
    const given = await call(server, 'GET', '/partner/public/exchanges', {
      key: w.keys.public,
      headers: { 'x-request-id': 'abc-123' },
    });
    expect(given.headers.get('x-request-id')).toBe('abc-123');
    const made = await call(server, 'GET', '/partner/public/exchanges', {
      key: w.keys.public,
      headers: { 'x-request-id': 'bad id with spaces' },
    });
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('tells browsers not to sniff any answer, errors included', async () => {
    for (const res of [
      await call(server, 'GET', '/partner/public/exchanges', { key: w.keys.public }),
      await call(server, 'GET', '/partner/orders', { key: 'sk_nonsense' }),
      await call(server, 'GET', '/partner/nothing-here', { key: w.keys.branch }),
    ])
      expect([res.status, res.headers.get('x-content-type-options')]).toEqual([res.status, 'nosniff']);
  });
});

describe('operations endpoints', () => {
  it('serves /health, /ready and /metrics', async () => {
    expect(await (await fetch(`${server.url}/health`)).json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${server.url}/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual(process.env.REDIS_URL ? { status: 'ready', redis: 'ok' } : { status: 'ready' });
    const labels = '{method="GET",route="/api/v1/partner/offers",status="200"}';
    const scrape = async () => {
      const text = await (await fetch(`${server.url}/metrics`)).text();
      const value = (name: string) =>
        Number(new RegExp(`^${name}${labels.replace(/[{}/]/g, '\\$&')} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
      return { text, total: value('pxs_http_requests_total'), count: value('pxs_http_request_duration_seconds_count') };
    };
    const before = await scrape();
    for (let i = 0; i < 3; i++) await call(server, 'GET', '/partner/offers', { key: w.keys.branch });
    // A request is counted when its response has finished, which may be just after the client has it.
    let after = await scrape();
    for (let i = 0; i < 50 && after.count < before.count + 3; i++) {
      await new Promise((r) => setTimeout(r, 20));
      after = await scrape();
    }
    const metrics = after.text;
    expect(after.count).toBe(before.count + 3);
    expect(after.total).toBe(after.count);
    expect(metrics).toContain('pxs_http_request_duration_seconds_bucket');
    expect(metrics).toContain('pxs_webhook_queue_depth');
    expect(metrics).toContain('pxs_dependency_up{dependency="database"} 1');
    expect(metrics.includes('pxs_dependency_up{dependency="redis"} 1')).toBe(Boolean(process.env.REDIS_URL));
  });

  it('reports not ready when the database is gone', async () => {
    const s = await startTestServer();
    try {
      await s.database.close();
      const res = await fetch(`${s.url}/ready`);
      expect(res.status).toBe(503);
      expect(await (await fetch(`${s.url}/metrics`)).text()).toContain('pxs_dependency_up{dependency="database"} 0');
    } finally {
      await s.app.close();
      await s.ctx.close().catch(() => undefined);
    }
  });
});
