import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../helpers/eventually.js';
import { call, startTestServer, type TestServer } from '../../helpers/server.js';
import type { StaffName } from '../../helpers/staff.js';
import type { World } from '../../helpers/world.js';
import { startWorld } from '../../helpers/fixture.js';

let server: TestServer;
let world: World;
let tokens: Record<StaffName, string>;

beforeAll(async () => ({ server, world, tokens } = await startWorld()));
afterAll(() => server?.close());

const FIELDS = [
  'id',
  'name',
  'type',
  'keyPrefix',
  'branchId',
  'isActive',
  'lastUsedAt',
  'expiresAt',
  'replacedBy',
  'allowedOrigins',
  'createdAt',
  'updatedAt',
].sort();
const list = (who: StaffName) => call(server, 'GET', '/api-keys', { token: tokens[who] });
const revoke = (who: StaffName, id: string) => call(server, 'DELETE', `/api-keys/${id}`, { token: tokens[who] });
const usePartnerApi = (key: string) => call(server, 'GET', '/partner/public/exchanges', { key });

describe('GET /api-keys', () => {
  it("lists the caller's own keys with prefix and metadata, never the raw key or its hash", async () => {
    const res = await list('superadmin');
    expect(res.status).toBe(200);
    const own = ['branch', 'public', 'superadmin', 'otherBranch', 'otherPublic'] as const;
    expect(res.body.map((k: { id: string }) => k.id).sort()).toEqual(own.map((n) => world.keyIds[n]).sort());
    for (const key of res.body) {
      expect(Object.keys(key).sort()).toEqual(FIELDS);
      expect(key.keyPrefix).toHaveLength(20);
    }
    const branchKey = res.body.find((k: { id: string }) => k.id === world.keyIds.branch);
    expect(branchKey.keyPrefix).toBe(world.keys.branch.slice(0, 20));
    expect(res.text).not.toContain(world.keys.branch);
  });

  it('shows another staff user only theirs', async () => {
    const res = await list('operatorA');
    expect(res.body.map((k: { id: string }) => k.id)).toEqual([world.keyIds.operatorA]);
  });

  it('shows when a key was last used', async () => {
    await usePartnerApi(world.keys.admin1);
    await server.ctx.lastUsed.flush();
    const key = (await list('admin1')).body.find((k: { id: string }) => k.id === world.keyIds.admin1);
    expect(Date.parse(key.lastUsedAt)).toBeGreaterThan(Date.now() - 60_000);
  });
});

describe('DELETE /api-keys/{id}', () => {
  it('lets the owner revoke a key: 204 without a body, and the key gets 401 on the very next request', async () => {
    const created = await call(server, 'POST', '/api-keys', {
      token: tokens.operatorB,
      body: { name: 'to revoke', type: 'personal' },
    });
    const rawKey = created.body.rawKey;
    expect((await usePartnerApi(rawKey)).status).toBe(200);
    const res = await revoke('operatorB', created.body.id);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    const after = await usePartnerApi(rawKey);
    expect(after.status).toBe(401);
    expect(after.body).toMatchObject({ statusCode: 401, message: 'Invalid or revoked API key' });
    const listed = (await list('operatorB')).body.find((k: { id: string }) => k.id === created.body.id);
    expect(listed.isActive).toBe(false);
  });

  it('answers 404 to anyone but the owner or a superadmin, and the key keeps working', async () => {
    for (const who of ['admin1', 'operatorA', 'admin2'] as const) {
      const res = await revoke(who, world.keyIds.operatorB);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ statusCode: 404, errors: { apiKey: 'notFound' } });
    }
    expect((await usePartnerApi(world.keys.operatorB)).status).toBe(200);
  });

  it('lets a superadmin revoke any key', async () => {
    expect((await revoke('superadmin', world.keyIds.readOnlyA)).status).toBe(204);
    expect((await usePartnerApi(world.keys.readOnlyA)).status).toBe(401);
  });

  it('answers 404 for an unknown key and 400 for an id that is not a uuid', async () => {
    expect((await revoke('superadmin', '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await revoke('superadmin', 'not-a-uuid')).status).toBe(400);
  });

  it('is idempotent for the owner', async () => {
    expect((await revoke('superadmin', world.keyIds.otherPublic)).status).toBe(204);
    expect((await revoke('superadmin', world.keyIds.otherPublic)).status).toBe(204);
  });
});

describe('revocation across instances', () => {
  let second: TestServer;
  beforeAll(async () => {
    second = await startTestServer({ database: server.database });
  });
  afterAll(() => second?.close());

  // Retried, as its twin in auth/rate-limit.test.ts: once in a full CI pass on PostgreSQL and Redis (never alone) the
  // other instance did not count the message within 10 s. Two causes found since, both tested in
  // auth/invalidation-bus.test.ts: a publish Redis refused was lost, and an instance whose subscriber subscribed
  // during its connection's handshake came back deaf (src/redis.ts).
  it(
    'reaches another instance that has the key cached: at once with Redis, when its cache entry ends without',
    { retry: 2 },
    async () => {
      const created = await call(server, 'POST', '/api-keys', {
        token: tokens.superadmin,
        body: { name: 'shared', type: 'branch', branchId: world.branches.b1 },
      });
      const rawKey = created.body.rawKey;
      expect((await call(second, 'GET', '/partner/public/exchanges', { key: rawKey })).status).toBe(200);
      // The other instance cached the key before this moment, so its entry ends before `expiresBy`.
      const expiresBy = Date.now() + second.ctx.config.keys.cacheTtlMs;
      const before = second.ctx.keys.invalidations;
      expect((await revoke('superadmin', created.body.id)).status).toBe(204);
      if (process.env.REDIS_URL) {
        // Counted, not timed: the revocation's message emptied the other instance's cache.
        await eventually(async () => second.ctx.keys.invalidations > before);
        expect((await call(second, 'GET', '/partner/public/exchanges', { key: rawKey })).status).toBe(401);
        return;
      }
      // Without Redis only the entry's end can refuse the key: a request sent after it must be refused, however
      // slow the machine (no clock margin to tune).
      for (;;) {
        const sentAt = Date.now();
        const { status } = await call(second, 'GET', '/partner/public/exchanges', { key: rawKey });
        if (sentAt > expiresBy) {
          expect(status).toBe(401);
          return;
        }
        if (status === 401) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  );
});
