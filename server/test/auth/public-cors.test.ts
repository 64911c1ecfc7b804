import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueApiKey } from '../../src/features/api-keys/issue.js';
import { openTestDatabase, type TestDatabase } from '../helpers/database.js';
import { call, startTestServer, type CallResult, type TestServer } from '../helpers/server.js';
import { staffTokens, type StaffName } from '../helpers/staff.js';
import { createWorld, type World } from '../helpers/world.js';

const PAGE = 'https://partner-shop.example';
let database: TestDatabase;
let server: TestServer;
/** The same service with a tight per-key limit, for the 429. */
let limited: TestServer;
let w: World;
let tokens: Record<StaffName, string>;

beforeAll(async () => {
  database = await openTestDatabase();
  w = await createWorld(database.db);
  server = await startTestServer({ database });
  limited = await startTestServer({ database, env: { RATE_LIMIT_PER_MINUTE: '2' } });
  tokens = await staffTokens(server, w);
});
afterAll(async () => {
  await server?.close();
  await limited?.close();
  await database?.close();
});

const fromPage = (extra: Record<string, string> = {}) => ({ origin: PAGE, ...extra });
const preflight = (path: string, method: string, s: TestServer = server) =>
  call(s, 'OPTIONS', path, {
    headers: fromPage({
      'access-control-request-method': method,
      'access-control-request-headers': 'authorization,content-type',
    }),
  });
const estimateBody = () => ({
  exchangeId: w.exchanges.A,
  sourceCurrencyId: w.currencies.USD,
  destCurrencyId: w.currencies.EUR,
  amount: 100,
});

function expectReadableByPage(res: CallResult): void {
  expect(res.headers.get('access-control-allow-origin')).toBe(PAGE);
  expect(res.headers.get('vary')).toMatch(/\bOrigin\b/);
  expect(res.headers.get('access-control-expose-headers')).toContain('Retry-After');
}
function expectNoCors(res: CallResult): void {
  for (const name of [
    'access-control-allow-origin',
    'access-control-allow-methods',
    'access-control-allow-headers',
    'access-control-expose-headers',
  ]) {
    expect(res.headers.get(name), name).toBeNull();
  }
}

describe('CORS preflight', () => {
  it.each([
    ['/partner/public/exchanges', 'GET'],
    ['/partner/public/currencies', 'GET'],
    ['/partner/public/rates', 'GET'],
    ['/partner/public/estimate', 'POST'],
  ])(
    'answers the preflight of %s (%s) without a key: origin, methods, Authorization and Content-Type, max age',
    async (path, method) => {
      const res = await preflight(path, method);
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe(PAGE);
      expect(res.headers.get('access-control-allow-methods')).toBe(`${method}, OPTIONS`);
      expect(res.headers.get('access-control-allow-headers')).toBe('Authorization, Content-Type');
      expect(res.headers.get('access-control-max-age')).toBe('600');
      expect(res.headers.get('vary')).toMatch(/\bOrigin\b/);
      expect(res.text).toBe('');
    },
  );

  it('has no answer for secret-key, staff and unknown paths', async () => {
    for (const [path, method] of [
      ['/partner/offers', 'GET'],
      ['/partner/orders', 'POST'],
      ['/partner/public/nothing', 'GET'],
      ['/api-keys', 'GET'],
      ['/admin/orders', 'GET'],
      ['/auth/login', 'POST'],
    ]) {
      const res = await preflight(path, method);
      expect(res.status, path).toBe(404);
      expectNoCors(res);
    }
  });
});

describe('CORS on the public endpoints with a public key', () => {
  it("lets the page read every public endpoint's answer", async () => {
    for (const [method, path] of [
      ['GET', '/partner/public/exchanges'],
      ['GET', '/partner/public/currencies'],
      ['GET', '/partner/public/rates'],
    ]) {
      const res = await call(server, method, path, { key: w.keys.public, headers: fromPage() });
      expect(res.status, path).toBe(200);
      expectReadableByPage(res);
    }
    const res = await call(server, 'POST', '/partner/public/estimate', {
      key: w.keys.public,
      headers: fromPage(),
      body: estimateBody(),
    });
    expect(res.status).toBe(200);
    expectReadableByPage(res);
  });

  it('lets the page read the errors: 401 without or with a bad key, 400, 404, 403 for an origin the key refuses', async () => {
    const noKey = await call(server, 'GET', '/partner/public/rates', { headers: fromPage() });
    expect(noKey.status).toBe(401);
    expectReadableByPage(noKey);
    const badKey = await call(server, 'GET', '/partner/public/rates', { key: 'pk_not-a-key', headers: fromPage() });
    expect(badKey.status).toBe(401);
    expectReadableByPage(badKey);
    const badQuery = await call(server, 'GET', '/partner/public/rates', {
      key: w.keys.public,
      headers: fromPage(),
      query: { exchangeId: 'abc' },
    });
    expect(badQuery.status).toBe(400);
    expectReadableByPage(badQuery);
    const badBody = await call(server, 'POST', '/partner/public/estimate', {
      key: w.keys.public,
      headers: fromPage(),
      body: { ...estimateBody(), amount: -1 },
    });
    expect(badBody.status).toBe(400);
    expectReadableByPage(badBody);
    const missing = await call(server, 'POST', '/partner/public/estimate', {
      key: w.keys.public,
      headers: fromPage(),
      body: { ...estimateBody(), exchangeId: w.exchanges.C },
    });
    expect(missing.status).toBe(404);
    expectReadableByPage(missing);
    const { rawKey } = await issueApiKey(database.db, {
      name: 'elsewhere',
      type: 'public',
      staffUserId: w.staff.superadmin.id,
      branchId: w.branches.b1,
      allowedOrigins: ['https://other.example'],
    });
    const refused = await call(server, 'GET', '/partner/public/rates', { key: rawKey, headers: fromPage() });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(`Origin ${PAGE} is not allowed to use this key`);
    expectReadableByPage(refused);
  });

  it('lets the page read a 429 and its Retry-After', async () => {
    const { rawKey } = await issueApiKey(database.db, {
      name: 'busy page',
      type: 'public',
      staffUserId: w.staff.superadmin.id,
      branchId: w.branches.b1,
    });
    const answers: CallResult[] = [];
    for (let i = 0; i < 3; i++)
      answers.push(await call(limited, 'GET', '/partner/public/currencies', { key: rawKey, headers: fromPage() }));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 429]);
    expectReadableByPage(answers[2]);
    expect(Number(answers[2].headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('sends Vary: Origin but no Access-Control-Allow-Origin to a request without Origin (not a page)', async () => {
    const res = await call(server, 'GET', '/partner/public/rates', { key: w.keys.public });
    expect(res.status).toBe(200);
    expect(res.headers.get('vary')).toMatch(/\bOrigin\b/);
    expectNoCors(res);
  });
});

describe('no CORS for secret keys and staff', () => {
  it('a public endpoint called with a secret key answers, but without CORS headers: a page cannot read it', async () => {
    for (const key of [w.keys.branch, w.keys.operatorA]) {
      const res = await call(server, 'GET', '/partner/public/rates', { key, headers: fromPage() });
      expect(res.status).toBe(200);
      expectNoCors(res);
    }
  });

  it('secret-key endpoints send none, with any key and on errors', async () => {
    const ok = await call(server, 'GET', '/partner/offers', { key: w.keys.branch, headers: fromPage() });
    expect(ok.status).toBe(200);
    expectNoCors(ok);
    const publicKey = await call(server, 'GET', '/partner/offers', { key: w.keys.public, headers: fromPage() });
    expect(publicKey.status).toBe(403);
    expectNoCors(publicKey);
    const noKey = await call(server, 'POST', '/partner/orders', { headers: fromPage(), body: {} });
    expect(noKey.status).toBe(401);
    expectNoCors(noKey);
  });

  it('staff endpoints send none', async () => {
    for (const path of ['/api-keys', '/auth/me', '/admin/orders']) {
      const res = await call(server, 'GET', path, { token: tokens.superadmin, headers: fromPage() });
      expect(res.status, path).toBe(200);
      expectNoCors(res);
    }
    const login = await call(server, 'POST', '/auth/login', {
      headers: fromPage(),
      body: { email: 'nobody@example.com', password: 'x' },
    });
    expect(login.status).toBeGreaterThanOrEqual(400);
    expectNoCors(login);
  });
});
