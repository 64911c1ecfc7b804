import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS } from '../../../src/auth/principal.js';
import { call, startTestServer, type TestServer } from '../../helpers/server.js';
import type { StaffName } from '../../helpers/staff.js';
import type { World } from '../../helpers/world.js';
import { startWorld } from '../../helpers/fixture.js';

/**
 * A personal key acts with its staff user's role, branch, exchanges and permissions as they are at request
 * time: a change made in the back office applies to the key's next request, on every instance.
 */
let server: TestServer;
let second: TestServer;
let world: World;
let tokens: Record<StaffName, string>;

beforeAll(async () => {
  ({ server, world, tokens } = await startWorld());
  second = await startTestServer({ database: server.database });
});
afterAll(async () => {
  await second?.close();
  await server?.close();
});

const patchStaff = async (who: StaffName, id: number, body: Record<string, unknown>) => {
  const res = await call(server, 'PATCH', `/admin/staff/${id}`, { token: tokens[who], body });
  expect(res.status).toBe(200);
  return res.body;
};
const principal = async (key: string) => {
  const result = await server.ctx.keys.verify(key);
  if (!result.ok) throw new Error(`key refused: ${result.reason}`);
  return result.principal;
};
const exchangesSeenBy = async (target: { url: string }, key: string) => {
  const res = await call(target, 'GET', '/partner/public/exchanges', { key });
  return res.status === 200 ? res.body.map((e: { id: number }) => e.id) : res.status;
};

describe('personal keys follow their staff user', () => {
  it('takes a changed exchange list on the next request', async () => {
    expect((await principal(world.keys.operatorA)).exchangeIds).toEqual([world.exchanges.A]);
    await patchStaff('admin1', world.staff.operatorA.id, { exchangeIds: [world.exchanges.B] });
    expect((await principal(world.keys.operatorA)).exchangeIds).toEqual([world.exchanges.B]);
    await patchStaff('admin1', world.staff.operatorA.id, { exchangeIds: [] });
    expect((await principal(world.keys.operatorA)).exchangeIds).toEqual([]);
  });

  it('takes changed permissions on the next request', async () => {
    expect([...(await principal(world.keys.readOnlyA)).permissions].sort()).toEqual(['clients:read', 'orders:read']);
    await patchStaff('admin1', world.staff.readOnlyA.id, { permissions: ['orders:read'] });
    expect([...(await principal(world.keys.readOnlyA)).permissions]).toEqual(['orders:read']);
  });

  it('takes a changed role: an operator made admin reaches every exchange of the branch', async () => {
    const before = await principal(world.keys.operatorB);
    expect(before.exchangeIds).toEqual([world.exchanges.B]);
    await patchStaff('admin1', world.staff.operatorB.id, { role: 'admin' });
    const after = await principal(world.keys.operatorB);
    expect(after.exchangeIds).toBeNull();
    expect([...after.permissions].sort()).toEqual([...ALL_PERMISSIONS].sort());
    await patchStaff('admin1', world.staff.operatorB.id, { role: 'operator' });
  });

  it('follows its user to another branch, on every instance', async () => {
    expect(await exchangesSeenBy(second, world.keys.operatorA)).toEqual([
      world.exchanges.A,
      world.exchanges.B,
      world.exchanges.X,
    ]);
    await patchStaff('superadmin', world.staff.operatorA.id, {
      branchId: world.branches.b2,
      exchangeIds: [world.exchanges.C],
    });
    expect(await exchangesSeenBy(server, world.keys.operatorA)).toEqual([world.exchanges.C]);
    await expect
      .poll(() => exchangesSeenBy(second, world.keys.operatorA), { timeout: 10_000, interval: 100 })
      .toEqual([world.exchanges.C]);
  });

  it('is refused (401) while its user is deactivated, and works again once reactivated', async () => {
    expect(await exchangesSeenBy(server, world.keys.operatorB)).toEqual([
      world.exchanges.A,
      world.exchanges.B,
      world.exchanges.X,
    ]);
    await patchStaff('admin1', world.staff.operatorB.id, { isActive: false });
    const res = await call(server, 'GET', '/partner/public/exchanges', { key: world.keys.operatorB });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Invalid or revoked API key');
    await expect
      .poll(() => exchangesSeenBy(second, world.keys.operatorB), { timeout: 10_000, interval: 100 })
      .toBe(401);
    await patchStaff('admin1', world.staff.operatorB.id, { isActive: true });
    expect(await exchangesSeenBy(server, world.keys.operatorB)).toEqual([
      world.exchanges.A,
      world.exchanges.B,
      world.exchanges.X,
    ]);
  });

  it('leaves branch keys made by a deactivated user working: they belong to the branch', async () => {
    const created = await call(server, 'POST', '/api-keys', {
      token: tokens.superadmin,
      body: { name: 'branch', type: 'branch', branchId: world.branches.b1 },
    });
    const helper = await call(server, 'POST', '/admin/staff', {
      token: tokens.superadmin,
      body: { email: 'second-root@test.local', password: 'another-long-password', role: 'superadmin' },
    });
    expect(helper.status).toBe(201);
    const other = await server.ctx.tokens.sign(helper.body.id);
    const off = await call(server, 'PATCH', `/admin/staff/${world.staff.superadmin.id}`, {
      token: other.accessToken,
      body: { isActive: false },
    });
    expect(off.status).toBe(200);
    expect((await call(server, 'GET', '/partner/public/exchanges', { key: created.body.rawKey })).status).toBe(200);
    expect((await call(server, 'GET', '/partner/public/exchanges', { key: world.keys.superadmin })).status).toBe(401);
  });
});
