import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorld } from '../../helpers/fixture.js';
import { call, type TestServer } from '../../helpers/server.js';
import type { StaffName } from '../../helpers/staff.js';
import type { World } from '../../helpers/world.js';

/** GET /admin/audit: what each role reads, the filters, the order and the pages; and a refused change leaves no row. */
let server: TestServer;
let world: World;
let tokens: Record<StaffName, string>;

beforeAll(async () => {
  ({ server, world, tokens } = await startWorld());
  const as = (who: StaffName, method: string, path: string, body: unknown) =>
    call(server, method, path, { token: tokens[who], body });
  // Two rate changes in branch 1, one in branch 2, and a network-wide currency change.
  expect((await as('admin1', 'PATCH', `/admin/offers/${world.offers.aUsdEur}`, { rate: '0.9301' })).status).toBe(200);
  expect((await as('admin1', 'PATCH', `/admin/offers/${world.offers.aUsdEur}`, { rate: '0.9302' })).status).toBe(200);
  expect((await as('admin2', 'PATCH', `/admin/offers/${world.offers.cUsdEur}`, { rate: '0.91' })).status).toBe(200);
  expect(
    (await as('superadmin', 'PATCH', `/admin/currencies/${world.currencies.EUR}`, { name: 'Euro (EU)' })).status,
  ).toBe(200);
});
afterAll(async () => {
  await server?.close();
});

const audit = (who: StaffName, query: Record<string, string | number> = {}) =>
  call(server, 'GET', '/admin/audit', { token: tokens[who], query });

describe('GET /admin/audit', () => {
  it('answers "who changed the rate, from what to what", newest first', async () => {
    const res = await audit('admin1', { entityType: 'offer', entityId: world.offers.aUsdEur });
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ total: 2, skip: 0, limit: 25, nextCursor: null });
    const [last, first] = res.body.data;
    expect(last).toMatchObject({
      actor: 'staff',
      staffUserId: world.staff.admin1.id,
      staffEmail: world.staff.admin1.email,
      role: 'admin',
      action: 'offer.update',
      entityType: 'offer',
      entityId: String(world.offers.aUsdEur),
      branchId: world.branches.b1,
      ip: '127.0.0.1',
      before: { rate: '0.9301' },
      after: { rate: '0.9302' },
    });
    expect(first).toMatchObject({ before: { rate: '0.9215' }, after: { rate: '0.9301' } });
    expect(last.id).toBeGreaterThan(first.id);
    expect(typeof last.requestId).toBe('string');
  });

  it("keeps a branch admin to its branch; network-wide changes are the superadmin's", async () => {
    const admin1 = (await audit('admin1')).body.data;
    expect(admin1.map((r: { branchId: number }) => r.branchId)).toEqual([world.branches.b1, world.branches.b1]);
    const admin2 = (await audit('admin2')).body.data;
    expect(admin2.map((r: { entityId: string }) => r.entityId)).toEqual([String(world.offers.cUsdEur)]);
    expect((await audit('admin2', { entityType: 'offer', entityId: world.offers.aUsdEur })).body.meta.total).toBe(0);
    const all = (await audit('superadmin')).body;
    expect(all.meta.total).toBe(4);
    expect(all.data[0]).toMatchObject({
      action: 'currency.update',
      branchId: null,
      before: { name: 'Euro' },
      after: { name: 'Euro (EU)' },
    });
  });

  it('refuses operators (403) and unauthenticated callers (401)', async () => {
    expect((await audit('operatorA')).status).toBe(403);
    expect((await call(server, 'GET', '/admin/audit')).status).toBe(401);
  });

  it('filters by actor, action and period, and pages', async () => {
    expect((await audit('superadmin', { staffUserId: world.staff.admin2.id })).body.meta.total).toBe(1);
    expect((await audit('superadmin', { actor: 'cli' })).body.meta.total).toBe(0);
    expect((await audit('superadmin', { action: 'currency.update' })).body.meta.total).toBe(1);
    expect((await audit('superadmin', { to: '2000-01-01T00:00:00Z' })).body.meta.total).toBe(0);
    expect(
      (await audit('superadmin', { from: '2000-01-01T00:00:00Z', to: '2999-01-01T00:00:00Z' })).body.meta.total,
    ).toBe(4);
    const oldest = await audit('superadmin', { sort: 'oldest', limit: 1, skip: 1 });
    expect(oldest.body).toMatchObject({
      meta: { total: 4, skip: 1, limit: 1 },
      data: [{ before: { rate: '0.9301' } }],
    });
    const bad = await audit('superadmin', { entityType: 'planet', from: 'yesterday' });
    expect(bad.status).toBe(400);
  });

  it('records nothing when the change is refused, since the row commits with the change', async () => {
    const before = (await audit('superadmin')).body.meta.total;
    const dup = await call(server, 'POST', '/admin/offers', {
      token: tokens.admin1,
      body: {
        exchangeId: world.exchanges.A,
        currency1Id: world.currencies.USD,
        currency2Id: world.currencies.EUR,
        rate: '1',
        maxAmount: '10',
      },
    });
    expect(dup.status).toBe(400);
    const self = await call(server, 'PATCH', `/admin/staff/${world.staff.admin1.id}`, {
      token: tokens.admin1,
      body: { isActive: false },
    });
    expect(self.status).toBe(422);
    expect((await audit('superadmin')).body.meta.total).toBe(before);
  });

  it('keeps one form of a UUID, whatever case the path gave it, and finds it in any case', async () => {
    const key = await call(server, 'POST', '/api-keys', {
      token: tokens.admin1,
      body: { name: 'audit case', type: 'personal' },
    });
    expect(key.status, key.text).toBe(201);
    const id = String(key.body.id);
    expect((await call(server, 'DELETE', `/api-keys/${id.toUpperCase()}`, { token: tokens.admin1 })).status).toBe(204);
    for (const entityId of [id, id.toUpperCase()]) {
      const found = await audit('superadmin', { entityType: 'apiKey', entityId });
      expect(found.body.data.map((e: { action: string; entityId: string }) => [e.action, e.entityId])).toEqual([
        ['apiKey.revoke', id],
        ['apiKey.create', id],
      ]);
    }
  });
});
