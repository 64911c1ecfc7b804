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

describe('GET /auth/me', () => {
  it('tells each staff user its role, branch, exchanges and effective permissions', async () => {
    const all = ['orders:read', 'orders:write', 'clients:read', 'clients:write', 'webhooks:manage', 'cash:write'];
    expect((await call(server, 'GET', '/auth/me', { token: tokens.superadmin })).body).toEqual({
      id: world.staff.superadmin.id,
      email: 'superadmin@test.local',
      role: 'superadmin',
      branchId: null,
      exchangeIds: null,
      permissions: all,
    });
    expect((await call(server, 'GET', '/auth/me', { token: tokens.admin1 })).body).toMatchObject({
      role: 'admin',
      branchId: world.branches.b1,
      exchangeIds: null,
      permissions: all,
    });
    expect((await call(server, 'GET', '/auth/me', { token: tokens.readOnlyA })).body).toEqual({
      id: world.staff.readOnlyA.id,
      email: 'readonlya@test.local',
      role: 'operator',
      branchId: world.branches.b1,
      exchangeIds: [world.exchanges.A],
      permissions: ['orders:read', 'clients:read'],
    });
  });

  it('reads the user live: a change of exchanges shows at once, a deactivated user gets 401', async () => {
    await server.db
      .insertInto('staff_user_exchanges')
      .values({ staff_user_id: world.staff.operatorB.id, exchange_id: world.exchanges.A })
      .execute();
    expect((await call(server, 'GET', '/auth/me', { token: tokens.operatorB })).body.exchangeIds).toEqual(
      [world.exchanges.A, world.exchanges.B].sort((a, b) => a - b),
    );
    await server.db
      .updateTable('staff_users')
      .set({ is_active: false })
      .where('id', '=', world.staff.operatorB.id)
      .execute();
    expect((await call(server, 'GET', '/auth/me', { token: tokens.operatorB })).status).toBe(401);
  });

  it('needs a staff token: none, a bad one and an API key get 401', async () => {
    for (const options of [{}, { token: 'nope' }, { key: world.keys.branch }]) {
      const res = await call(server, 'GET', '/auth/me', options);
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('Unauthorized');
    }
  });
});
