import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorld } from '../helpers/fixture.js';
import { call, type CallOptions, type CallResult, type TestServer } from '../helpers/server.js';
import type { StaffName } from '../helpers/staff.js';
import { STAFF_PASSWORD, type World } from '../helpers/world.js';
import { orderBody } from '../features/orders/support.js';

/**
 * The OpenAPI document says what the service does: the headers it sends are declared on the answers
 * that carry them, and only there; a body the service lets you leave out is not required; the statuses listed
 * are the ones an operation can give.
 */
let server: TestServer;
let world: World;
let tokens: Record<StaffName, string>;
let doc: any;

beforeAll(async () => {
  ({ server, world, tokens } = await startWorld());
  doc = await (await fetch(`${server.url}/api/v1/openapi.json`)).json();
});
afterAll(() => server?.close());

const HEADERS = ['ETag', 'Cache-Control', 'Vary', 'Idempotent-Replayed'];

type Operation = { id: string; path: string; method: string; op: any };
function operations(): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) out.push({ id: op.operationId, path, method, op });
  }
  return out;
}
const operation = (id: string) => operations().find((o) => o.id === id)!.op;
const declared = (id: string, status: number): string[] =>
  Object.keys(operation(id).responses[status]?.headers ?? {}).filter((h) => HEADERS.includes(h));

describe('request bodies', () => {
  const OPTIONAL = ['rotateWebhookSecret', 'rotateAdminWebhookSecret', 'rollApiKey', 'rollBranchApiKey'];

  it('are optional exactly where the service takes none, and required everywhere else', () => {
    const optional = operations()
      .filter((o) => o.op.requestBody && o.op.requestBody.required !== true)
      .map((o) => o.id)
      .sort();
    expect(optional).toEqual([...OPTIONAL].sort());
    for (const id of OPTIONAL) expect(operation(id).requestBody.required, id).toBe(false);
  });
});

describe('statuses', () => {
  // Operations whose 409 is a state of the resource, not a request in flight.
  const STATE_CONFLICTS = [
    // an offer that is not suspended has nothing to resume
    'resumeAdminOffer',
    // a rate source that offers are still priced from
    'deleteAdminRateSource',
  ];

  it('list 409 only where an Idempotency-Key can still be in flight or the resource is in a conflicting state', () => {
    for (const { id, op } of operations()) {
      const idempotent = (op.parameters ?? []).some((p: any) => p.in === 'header' && p.name === 'idempotency-key');
      expect(Boolean(op.responses[409]), id).toBe(idempotent || STATE_CONFLICTS.includes(id));
      if (idempotent) expect(op.responses[409].description, id).toMatch(/Idempotency-Key is still being processed/);
    }
    expect(operation('createClient').responses[409]).toBeDefined();
  });

  it('list 401 on every operation that takes credentials, and 403 and 429 on every partner operation', () => {
    for (const { id, op } of operations()) {
      const schemes = (op.security ?? []).flatMap((s: object) => Object.keys(s));
      if (schemes.length > 0) expect(op.responses[401], id).toBeDefined();
      if (schemes.includes('apiKey')) {
        expect(op.responses[403], id).toBeDefined();
        expect(op.responses[429], id).toBeDefined();
      }
    }
  });

  it('a public endpoint answers 403 to a page whose origin its key does not allow, as the document now lists', async () => {
    await call(server, 'PATCH', `/api-keys/${world.keyIds.public}`, {
      token: tokens.superadmin,
      body: { allowedOrigins: ['https://partner.example'] },
    });
    const res = await call(server, 'GET', '/partner/public/currencies', {
      key: world.keys.public,
      headers: { origin: 'https://elsewhere.example' },
    });
    expect(res.status).toBe(403);
    expect(operation('listPublicCurrencies').responses[403]).toBeDefined();
    await call(server, 'PATCH', `/api-keys/${world.keyIds.public}`, {
      token: tokens.superadmin,
      body: { allowedOrigins: null },
    });
  });
});

describe('response headers', () => {
  /**
   * Every request below: the headers of interest it got must be the ones the document declares for that
   * operation and status, both ways (Idempotent-Replayed is declared on the success and sent on a replay only).
   */
  const seen: { id: string; res: CallResult; replay?: boolean }[] = [];
  const send = async (id: string, method: string, path: string, options: CallOptions = {}, replay?: boolean) => {
    const res = await call(server, method, path, options);
    seen.push({ id, res, replay });
    return res;
  };

  beforeAll(async () => {
    const pub = { key: world.keys.public };
    const branch = { key: world.keys.branch };
    const currencies = await send('listPublicCurrencies', 'GET', '/partner/public/currencies', pub);
    await send('listPublicCurrencies', 'GET', '/partner/public/currencies', {
      ...pub,
      headers: { 'if-none-match': currencies.headers.get('etag')! },
    });
    await send('listPublicCurrencies', 'GET', '/partner/public/currencies', { key: 'pk_not_a_key' });
    await send('getEstimate', 'POST', '/partner/public/estimate', { ...pub, body: {} });
    await send('getExchange', 'GET', `/partner/exchanges/${world.exchanges.A}`, branch);
    await send('getExchange', 'GET', '/partner/exchanges/999999', branch);
    await send('listOrders', 'GET', '/partner/orders', branch);

    const orderKey = { ...branch, body: orderBody(world), headers: { 'idempotency-key': randomUUID() } };
    await send('createOrder', 'POST', '/partner/orders', orderKey);
    await send('createOrder', 'POST', '/partner/orders', orderKey, true);
    const clientKey = {
      ...branch,
      body: { firstName: 'Ana', lastName: 'Silva', email: 'headers@example.com', phone: '+351912345679' },
      headers: { 'idempotency-key': randomUUID() },
    };
    await send('createClient', 'POST', '/partner/clients', clientKey);
    await send('createClient', 'POST', '/partner/clients', clientKey, true);
    const hookKey = {
      ...branch,
      body: { url: 'https://receiver.example/hook', events: ['order.created'] },
      headers: { 'idempotency-key': randomUUID() },
    };
    const hook = await send('createWebhook', 'POST', '/partner/webhooks', hookKey);
    await send('createWebhook', 'POST', '/partner/webhooks', hookKey, true);
    await send('rotateWebhookSecret', 'POST', `/partner/webhooks/${hook.body.id}/rotate-secret`, branch);
    await send('rotateAdminWebhookSecret', 'POST', `/admin/webhooks/${hook.body.id}/rotate-secret`, {
      token: tokens.superadmin,
    });

    await send('login', 'POST', '/auth/login', { body: { email: 'superadmin@test.local', password: STAFF_PASSWORD } });
    await send('login', 'POST', '/auth/login', {
      body: { email: 'superadmin@test.local', password: 'wrong-password-here' },
    });
    await send('createApiKey', 'POST', '/api-keys', {
      token: tokens.superadmin,
      body: { name: 'headers', type: 'personal' },
    });
    await send('rollApiKey', 'POST', `/api-keys/${world.keyIds.superadmin}/roll`, { token: tokens.superadmin });
    await send('rollBranchApiKey', 'POST', `/admin/api-keys/${world.keyIds.admin1}/roll`, { token: tokens.admin1 });
    await send('streamOrderChanges', 'GET', '/admin/orders/stream', {});
    await send('listAdminOrders', 'GET', '/admin/orders', { token: tokens.superadmin });
  });

  it('are sent where the document declares them, and only there', () => {
    const wrong: string[] = [];
    for (const { id, res, replay } of seen) {
      const sent = HEADERS.filter((h) => res.headers.has(h)).sort();
      const expected = declared(id, res.status)
        .filter((h) => h !== 'Idempotent-Replayed' || replay)
        .sort();
      if (sent.join() !== expected.join())
        wrong.push(
          `${id} ${res.status}${replay ? ' (replay)' : ''}: sent [${sent.join()}], declared [${expected.join()}]`,
        );
    }
    expect(wrong).toEqual([]);
  });

  it("cover each kind: a tagged read and its 304, a public endpoint's refusal, a replay, a secret shown once", () => {
    const got = (id: string, status: number, replay = false) =>
      seen.find((s) => s.id === id && s.res.status === status && Boolean(s.replay) === replay)?.res;
    expect(got('listPublicCurrencies', 200)?.headers.get('cache-control')).toBe('private, no-cache');
    expect(got('listPublicCurrencies', 304)?.headers.get('etag')).toMatch(/^"/);
    expect(got('listPublicCurrencies', 401)?.headers.get('vary')).toBe('Origin');
    expect(got('getEstimate', 400)?.headers.get('vary')).toBe('Origin');
    expect(got('createClient', 201, true)?.headers.get('idempotent-replayed')).toBe('true');
    expect(got('createWebhook', 201, true)?.headers.get('cache-control')).toBe('no-store');
    for (const id of ['rotateWebhookSecret', 'rotateAdminWebhookSecret'])
      expect(got(id, 200)?.headers.get('cache-control'), id).toBe('no-store');
    for (const id of ['rollApiKey', 'rollBranchApiKey', 'createApiKey'])
      expect(got(id, 201)?.headers.get('cache-control'), id).toBe('no-store');
    expect(got('login', 200)?.headers.get('cache-control')).toBe('no-store');
    expect(got('streamOrderChanges', 401)?.headers.get('cache-control')).toBe('no-store');
    // Every request above got the answer it was written for: none is left unexamined by a status it did not expect.
    expect(seen.map((s) => `${s.id} ${s.res.status}`)).toEqual([
      'listPublicCurrencies 200',
      'listPublicCurrencies 304',
      'listPublicCurrencies 401',
      'getEstimate 400',
      'getExchange 200',
      'getExchange 404',
      'listOrders 200',
      'createOrder 201',
      'createOrder 201',
      'createClient 201',
      'createClient 201',
      'createWebhook 201',
      'createWebhook 201',
      'rotateWebhookSecret 200',
      'rotateAdminWebhookSecret 200',
      'login 200',
      'login 401',
      'createApiKey 201',
      'rollApiKey 201',
      'rollBranchApiKey 201',
      'streamOrderChanges 401',
      'listAdminOrders 200',
    ]);
  });
});
