import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/http/errors.js';
import { SYSTEM_ACTOR, updateStaffUser } from '../../src/features/staff/service.js';
import { cliAudit } from '../../src/features/audit/service.js';
import { call, type TestServer } from '../helpers/server.js';
import type { StaffName } from '../helpers/staff.js';
import { STAFF_PASSWORD, type World } from '../helpers/world.js';
import { startWorld } from '../helpers/fixture.js';

let server: TestServer;
let world: World;
let tokens: Record<StaffName, string>;

beforeAll(async () => ({ server, world, tokens } = await startWorld()));
afterAll(() => server?.close());

const admin = (method: string, path: string, body?: unknown, who: StaffName = 'admin1') => call(server, method, path, { token: tokens[who], body });
const login = (email: string, password: string) => call(server, 'POST', '/auth/login', { body: { email, password } });
const PASSWORD = 'a-long-enough-password';

describe('PATCH /admin/staff/{id}', () => {
  it('changes exchanges and permissions; exchanges must be of the user\'s branch', async () => {
    const res = await admin('PATCH', `/admin/staff/${world.staff.readOnlyA.id}`, { exchangeIds: [world.exchanges.B], permissions: ['clients:read'] });
    expect(res.body).toMatchObject({ exchangeIds: [world.exchanges.B], permissions: ['clients:read'] });
    const bad = await admin('PATCH', `/admin/staff/${world.staff.readOnlyA.id}`, { exchangeIds: [world.exchanges.C] });
    expect(bad.body.errors).toEqual({ exchangeIds: 'notFound' });
  });

  it('deactivation closes the user\'s tokens at once; reactivation opens them again', async () => {
    const token = tokens.operatorB;
    expect((await call(server, 'GET', '/api-keys', { token })).status).toBe(200);
    expect((await admin('PATCH', `/admin/staff/${world.staff.operatorB.id}`, { isActive: false })).body.isActive).toBe(false);
    expect((await call(server, 'GET', '/api-keys', { token })).status).toBe(401);
    await admin('PATCH', `/admin/staff/${world.staff.operatorB.id}`, { isActive: true });
    expect((await call(server, 'GET', '/api-keys', { token })).status).toBe(200);
  });

  it('sets a new password', async () => {
    await admin('PATCH', `/admin/staff/${world.staff.operatorB.id}`, { password: 'brand-new-password' });
    expect((await login(world.staff.operatorB.email, 'brand-new-password')).status).toBe(200);
    expect((await login(world.staff.operatorB.email, STAFF_PASSWORD)).status).toBe(401);
  });

  it('keeps roles in their lanes', async () => {
    expect((await admin('PATCH', `/admin/staff/${world.staff.operatorA.id}`, { role: 'superadmin' })).status).toBe(403);
    expect((await admin('PATCH', `/admin/staff/${world.staff.operatorA.id}`, { branchId: world.branches.b2 })).body.errors).toEqual({ branchId: 'notFound' });
    expect((await admin('PATCH', `/admin/staff/${world.staff.admin2.id}`, { isActive: false })).status).toBe(404);
    expect((await admin('PATCH', `/admin/staff/${world.staff.superadmin.id}`, { isActive: false })).status).toBe(404);
  });

  it('does not let anyone lock themselves out', async () => {
    for (const change of [{ isActive: false }, { role: 'operator' }]) {
      const res = await admin('PATCH', `/admin/staff/${world.staff.admin1.id}`, change);
      expect(res.status).toBe(422);
      expect(res.body.message).toBe('You cannot change the role of, or deactivate, your own account');
    }
  });

  it('moves a user to another branch, dropping exchanges of the old one', async () => {
    const created = await admin('POST', '/admin/staff', { email: 'mover@test.local', password: PASSWORD, role: 'operator', exchangeIds: [world.exchanges.A] });
    const moved = await admin('PATCH', `/admin/staff/${created.body.id}`, { branchId: world.branches.b2 }, 'superadmin');
    expect(moved.body).toMatchObject({ branchId: world.branches.b2, exchangeIds: [] });
    expect((await admin('GET', `/admin/staff/${created.body.id}`)).status).toBe(404);
  });

  it('promotes to superadmin (no branch, no exchanges) and demotes back into a named branch', async () => {
    const created = await admin('POST', '/admin/staff', { email: 'rising@test.local', password: PASSWORD, role: 'operator', exchangeIds: [world.exchanges.A] });
    const up = await admin('PATCH', `/admin/staff/${created.body.id}`, { role: 'superadmin' }, 'superadmin');
    expect(up.body).toMatchObject({ role: 'superadmin', branchId: null, exchangeIds: [] });
    const down = await admin('PATCH', `/admin/staff/${created.body.id}`, { role: 'admin' }, 'superadmin');
    expect(down.body.errors).toEqual({ branchId: 'required' });
    const ok = await admin('PATCH', `/admin/staff/${created.body.id}`, { role: 'admin', branchId: world.branches.b1 }, 'superadmin');
    expect(ok.body).toMatchObject({ role: 'admin', branchId: world.branches.b1 });
  });

  it('never leaves the network without an active superadmin', async () => {
    const supers = await server.db.selectFrom('staff_users').select('id').where('role', '=', 'superadmin').where('id', '<>', world.staff.superadmin.id).execute();
    for (const s of supers) await updateStaffUser(server.ctx, SYSTEM_ACTOR, s.id, { isActive: false }, cliAudit());
    const last = updateStaffUser(server.ctx, SYSTEM_ACTOR, world.staff.superadmin.id, { isActive: false }, cliAudit());
    await expect(last).rejects.toBeInstanceOf(AppError);
    await expect(last).rejects.toMatchObject({ statusCode: 422, message: 'The last active superadmin cannot be demoted or deactivated' });
  });
});
