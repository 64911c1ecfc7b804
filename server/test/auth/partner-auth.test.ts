import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../../src/auth/key-format.js';
import { issueApiKey } from '../../src/features/api-keys/issue.js';
import { call, startTestServer, type TestServer } from '../helpers/server.js';
import type { World } from '../helpers/world.js';
import { startWorld } from '../helpers/fixture.js';

let server: TestServer;
let w: World;

beforeAll(async () => ({ server, world: w } = await startWorld({ env: { LAST_USED_FLUSH_MS: '60000' } })));
afterAll(() => server?.close());

const offers = (key?: string, headers?: Record<string, string>) =>
  call(server, 'GET', '/partner/offers', { key, headers });

describe('API-key authentication', () => {
  it('refuses a request without a key', async () => {
    const res = await offers();
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
  });

  it('refuses every partner route without a key, HEAD included (each route carries the key check)', async () => {
    const routes = server.app.routeTable.filter((r) => r.url.startsWith('/api/v1/partner/') && r.method !== 'OPTIONS');
    expect(routes.length).toBeGreaterThan(10);
    const requests = routes.flatMap((r) =>
      (r.method === 'GET' ? ['GET', 'HEAD'] : [r.method]).map((method) => ({
        method,
        path: r.url.replace('/api/v1', '').replace(/:\w+/g, '1'),
      })),
    );
    const refused = await Promise.all(
      requests.map(
        async ({ method, path }) =>
          `${method} ${path} ${(await call(server, method, path, { body: method === 'GET' || method === 'HEAD' ? undefined : {} })).status}`,
      ),
    );
    expect(refused).toEqual(requests.map(({ method, path }) => `${method} ${path} 401`));
  });

  it('refuses a non-Bearer scheme, a malformed key and a well-formed unknown key with the same message', async () => {
    const unknown = generateApiKey('branch');
    for (const headers of [
      { authorization: `Basic ${w.keys.branch}` },
      { authorization: 'Bearer sk_branch_short' },
      { authorization: `Bearer ${w.keys.branch}x` },
    ]) {
      const res = await offers(undefined, headers);
      expect(res.status).toBe(401);
    }
    for (const key of [`${w.keys.branch.slice(0, -1)}${w.keys.branch.endsWith('a') ? 'b' : 'a'}`, unknown]) {
      const res = await offers(key);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ statusCode: 401, message: 'Invalid or revoked API key', error: 'Unauthorized' });
    }
  });

  it('refuses a revoked key at once on the instance that revoked it', async () => {
    const { key, rawKey } = await issueApiKey(server.db, {
      name: 'to revoke',
      type: 'branch',
      staffUserId: w.staff.superadmin.id,
      branchId: w.branches.b1,
    });
    expect((await offers(rawKey)).status).toBe(200);
    await server.db
      .updateTable('api_keys')
      .set({ is_active: false, revoked_at: new Date() })
      .where('id', '=', key.id)
      .execute();
    await server.ctx.keys.invalidate(`key:${key.id}`);
    const res = await offers(rawKey);
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Invalid or revoked API key');
  });

  it('refuses an expired key with "API key has expired", the moment it expires even if cached', async () => {
    const soon = new Date(Date.now() + 3000);
    const { rawKey } = await issueApiKey(server.db, {
      name: 'short-lived',
      type: 'personal',
      staffUserId: w.staff.operatorA.id,
      branchId: null,
      expiresAt: soon,
    });
    expect((await offers(rawKey)).status).toBe(200);
    await new Promise((r) => setTimeout(r, soon.getTime() - Date.now() + 50));
    const res = await offers(rawKey);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ statusCode: 401, message: 'API key has expired', error: 'Unauthorized' });
  });

  it('refuses the personal keys of a deactivated staff user, but not the branch keys it created', async () => {
    const staff = await server.db
      .insertInto('staff_users')
      .values({ email: 'leaver@test.local', password_hash: 'x', role: 'superadmin', updated_at: new Date() })
      .returning('id')
      .executeTakeFirstOrThrow();
    const personal = await issueApiKey(server.db, {
      name: 'p',
      type: 'personal',
      staffUserId: staff.id,
      branchId: null,
    });
    const branch = await issueApiKey(server.db, {
      name: 'b',
      type: 'branch',
      staffUserId: staff.id,
      branchId: w.branches.b1,
    });
    await server.db.updateTable('staff_users').set({ is_active: false }).where('id', '=', staff.id).execute();
    await server.ctx.keys.invalidate(`staff:${staff.id}`);
    expect((await offers(personal.rawKey)).status).toBe(401);
    expect((await offers(branch.rawKey)).status).toBe(200);
  });

  it('reads a key again when an invalidation lands while it is being read, instead of failing the request', async () => {
    const { rawKey } = await issueApiKey(server.db, {
      name: 'racing',
      type: 'branch',
      staffUserId: w.staff.operatorA.id,
      branchId: w.branches.b1,
    });
    for (let i = 0; i < 20; i++) {
      // The read is in flight when the cache is emptied, as when a revocation elsewhere arrives over Redis.
      const reading = server.ctx.keys.verify(rawKey);
      await server.ctx.keys.invalidate('test');
      expect(await reading).toMatchObject({ ok: true });
    }
  });

  it('limits a public key to the four public endpoints (403 elsewhere)', async () => {
    for (const [method, path] of [
      ['GET', '/partner/public/exchanges'],
      ['GET', '/partner/public/currencies'],
      ['GET', '/partner/public/rates'],
    ] as const) {
      expect((await call(server, method, path, { key: w.keys.public })).status).toBe(200);
    }
    const estimate = await call(server, 'POST', '/partner/public/estimate', {
      key: w.keys.public,
      body: {
        exchangeId: w.exchanges.A,
        sourceCurrencyId: w.currencies.USD,
        destCurrencyId: w.currencies.EUR,
        amount: 20,
      },
    });
    expect(estimate.status).toBe(200);
    for (const path of ['/partner/offers', `/partner/exchanges/${w.exchanges.A}`]) {
      const res = await call(server, 'GET', path, { key: w.keys.public });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ statusCode: 403, error: 'Forbidden' });
    }
  });

  it('records lastUsedAt in batches, not on the request path', async () => {
    const { key, rawKey } = await issueApiKey(server.db, {
      name: 'tracked',
      type: 'branch',
      staffUserId: w.staff.superadmin.id,
      branchId: w.branches.b1,
    });
    for (let i = 0; i < 5; i++) expect((await offers(rawKey)).status).toBe(200);
    const before = await server.db
      .selectFrom('api_keys')
      .select('last_used_at')
      .where('id', '=', key.id)
      .executeTakeFirstOrThrow();
    expect(before.last_used_at).toBeNull();
    await server.ctx.lastUsed.flush();
    const after = await server.db
      .selectFrom('api_keys')
      .select('last_used_at')
      .where('id', '=', key.id)
      .executeTakeFirstOrThrow();
    expect(after.last_used_at).toBeInstanceOf(Date);
    expect(Date.now() - after.last_used_at!.getTime()).toBeLessThan(10_000);
  });
});

describe('key cache bound', () => {
  it('stops serving a key revoked behind its back within the cache TTL', async () => {
    const short = await startTestServer({ env: { KEY_CACHE_TTL_MS: '300' }, database: server.database });
    try {
      const { key, rawKey } = await issueApiKey(server.db, {
        name: 'cached',
        type: 'branch',
        staffUserId: w.staff.superadmin.id,
        branchId: w.branches.b1,
      });
      expect((await offers(rawKey)).status).toBe(200);
      expect((await call(short, 'GET', '/partner/offers', { key: rawKey })).status).toBe(200);
      // Revoked in the database only: no invalidation message reaches `short`.
      await server.db
        .updateTable('api_keys')
        .set({ is_active: false, revoked_at: new Date() })
        .where('id', '=', key.id)
        .execute();
      await new Promise((r) => setTimeout(r, 350));
      expect((await call(short, 'GET', '/partner/offers', { key: rawKey })).status).toBe(401);
    } finally {
      await short.close();
    }
  });
});
