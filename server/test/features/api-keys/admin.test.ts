import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorld } from '../../helpers/fixture.js';
import { call, type TestServer } from '../../helpers/server.js';
import type { StaffName } from '../../helpers/staff.js';
import type { World } from '../../helpers/world.js';

let server: TestServer;
let world: World;
let tokens: Record<StaffName, string>;

beforeAll(async () => ({ server, world, tokens } = await startWorld()));
afterAll(() => server?.close());

const list = async (who: StaffName, query: Record<string, string | number | boolean> = {}) => {
  const res = await call(server, 'GET', '/admin/api-keys', { token: tokens[who], query });
  expect(res.status, res.text).toBe(200);
  return res.body;
};
const names = (body: { data: { name: string }[] }) => body.data.map((k) => k.name).sort();

describe('GET /admin/api-keys', () => {
  it("lists a branch's branch and public keys and its staff's personal keys, with their owners, never the raw key", async () => {
    const admin1 = await list('admin1');
    expect(names(admin1)).toEqual(['admin1', 'branch', 'operatorA', 'operatorB', 'public', 'readOnlyA']);
    const branchKey = admin1.data.find((k: { name: string }) => k.name === 'branch');
    expect(branchKey).toMatchObject({
      type: 'branch',
      branchId: world.branches.b1,
      isActive: true,
      staffUserId: world.staff.superadmin.id,
      ownerEmail: 'superadmin@test.local',
    });
    expect(branchKey.keyPrefix).toHaveLength(20);
    expect(JSON.stringify(admin1)).not.toContain(world.keys.branch);
    expect(names(await list('admin2'))).toEqual(['otherBranch', 'otherPublic']);
    expect((await list('superadmin')).meta.total).toBe(9);
  });

  it('filters by type, branch and state, and pages', async () => {
    expect(names(await list('superadmin', { type: 'public' }))).toEqual(['otherPublic', 'public']);
    expect(names(await list('superadmin', { branchId: world.branches.b2 }))).toEqual(['otherBranch', 'otherPublic']);
    expect(await list('superadmin', { limit: 2, skip: 8 })).toMatchObject({
      data: [{}],
      meta: { total: 9, skip: 8, limit: 2, nextCursor: null },
    });
    expect(
      (await call(server, 'GET', '/admin/api-keys', { token: tokens.superadmin, query: { type: 'secret' } })).status,
    ).toBe(400);
  });

  it('is for admins and superadmins only', async () => {
    expect((await call(server, 'GET', '/admin/api-keys', { token: tokens.operatorA })).status).toBe(403);
    expect((await call(server, 'GET', '/admin/api-keys')).status).toBe(401);
  });
});

describe('DELETE /admin/api-keys/{id}', () => {
  it('lets an admin revoke a key of its branch, effective at once', async () => {
    expect((await call(server, 'GET', '/partner/offers', { key: world.keys.operatorB })).status).toBe(200);
    const res = await call(server, 'DELETE', `/admin/api-keys/${world.keyIds.operatorB}`, { token: tokens.admin1 });
    expect(res.status).toBe(204);
    expect((await call(server, 'GET', '/partner/offers', { key: world.keys.operatorB })).status).toBe(401);
    expect(names(await list('admin1', { isActive: false }))).toEqual(['operatorB']);
    expect(
      (await call(server, 'DELETE', `/admin/api-keys/${world.keyIds.operatorB}`, { token: tokens.admin1 })).status,
    ).toBe(204);
  });

  it("is 404 for another branch's key, 403 for an operator, 400 for a malformed id", async () => {
    for (const id of [world.keyIds.otherBranch, world.keyIds.otherPublic]) {
      const res = await call(server, 'DELETE', `/admin/api-keys/${id}`, { token: tokens.admin1 });
      expect(res.status).toBe(404);
      expect(res.body.errors).toEqual({ apiKey: 'notFound' });
    }
    expect((await call(server, 'GET', '/partner/offers', { key: world.keys.otherBranch })).status).toBe(200);
    expect(
      (await call(server, 'DELETE', `/admin/api-keys/${world.keyIds.public}`, { token: tokens.operatorA })).status,
    ).toBe(403);
    expect((await call(server, 'DELETE', '/admin/api-keys/not-a-uuid', { token: tokens.admin1 })).status).toBe(400);
    expect(
      (await call(server, 'DELETE', `/admin/api-keys/${world.keyIds.otherPublic}`, { token: tokens.superadmin }))
        .status,
    ).toBe(204);
  });
});
