import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/domain-error.js';
import { asHttpError } from '../../../src/http/error-table.js';
import { SYSTEM_ACTOR, updateStaffUser } from '../../../src/features/staff/service.js';
import { cliAudit } from '../../../src/features/audit/service.js';
import { up } from '../../../src/db/migrations/011_webhooks_follow_owner.js';
import { call, type TestServer } from '../../helpers/server.js';
import { staffToken, type StaffName } from '../../helpers/staff.js';
import { STAFF_PASSWORD, type World } from '../../helpers/world.js';
import { startWorld } from '../../helpers/fixture.js';

let server: TestServer;
let world: World;
let tokens: Record<StaffName, string>;

beforeAll(async () => ({ server, world, tokens } = await startWorld()));
afterAll(() => server?.close());

const admin = (method: string, path: string, body?: unknown, who: StaffName = 'admin1') =>
  call(server, method, path, { token: tokens[who], body });
const login = (email: string, password: string) => call(server, 'POST', '/auth/login', { body: { email, password } });
const PASSWORD = 'a-long-enough-password';

describe('PATCH /admin/staff/{id}', () => {
  it("changes exchanges and permissions; exchanges must be of the user's branch", async () => {
    const res = await admin('PATCH', `/admin/staff/${world.staff.readOnlyA.id}`, {
      exchangeIds: [world.exchanges.B],
      permissions: ['clients:read'],
    });
    expect(res.body).toMatchObject({ exchangeIds: [world.exchanges.B], permissions: ['clients:read'] });
    const bad = await admin('PATCH', `/admin/staff/${world.staff.readOnlyA.id}`, { exchangeIds: [world.exchanges.C] });
    expect(bad.body.errors).toEqual({ exchangeIds: 'notFound' });
  });

  it("deactivation closes the user's tokens at once; after a reactivation the user logs in again", async () => {
    const token = tokens.operatorB;
    expect((await call(server, 'GET', '/api-keys', { token })).status).toBe(200);
    expect((await admin('PATCH', `/admin/staff/${world.staff.operatorB.id}`, { isActive: false })).body.isActive).toBe(
      false,
    );
    expect((await call(server, 'GET', '/api-keys', { token })).status).toBe(401);
    await admin('PATCH', `/admin/staff/${world.staff.operatorB.id}`, { isActive: true });
    // The deactivation voided the tokens issued before it (docs/decisions.md, "Token cutoff"): a new login is needed.
    expect((await call(server, 'GET', '/api-keys', { token })).status).toBe(401);
    const again = await login(world.staff.operatorB.email, STAFF_PASSWORD);
    expect(again.status).toBe(200);
    expect((await call(server, 'GET', '/api-keys', { token: again.body.accessToken })).status).toBe(200);
  });

  it('sets a new password', async () => {
    await admin('PATCH', `/admin/staff/${world.staff.operatorB.id}`, { password: 'brand-new-password' });
    expect((await login(world.staff.operatorB.email, 'brand-new-password')).status).toBe(200);
    expect((await login(world.staff.operatorB.email, STAFF_PASSWORD)).status).toBe(401);
  });

  it('keeps roles in their lanes', async () => {
    expect((await admin('PATCH', `/admin/staff/${world.staff.operatorA.id}`, { role: 'superadmin' })).status).toBe(403);
    expect(
      (await admin('PATCH', `/admin/staff/${world.staff.operatorA.id}`, { branchId: world.branches.b2 })).body.errors,
    ).toEqual({ branchId: 'notFound' });
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
    const created = await admin('POST', '/admin/staff', {
      email: 'mover@test.local',
      password: PASSWORD,
      role: 'operator',
      exchangeIds: [world.exchanges.A],
    });
    const moved = await admin(
      'PATCH',
      `/admin/staff/${created.body.id}`,
      { branchId: world.branches.b2 },
      'superadmin',
    );
    expect(moved.body).toMatchObject({ branchId: world.branches.b2, exchangeIds: [] });
    expect((await admin('GET', `/admin/staff/${created.body.id}`)).status).toBe(404);
  });

  it("moves a user's webhooks with them: the new branch's admin sees and runs them, the old one's no longer does", async () => {
    const created = await admin('POST', '/admin/staff', {
      email: 'hook-mover@test.local',
      password: PASSWORD,
      role: 'operator',
      exchangeIds: [world.exchanges.A],
      permissions: ['webhooks:manage'],
    });
    const token = await staffToken(server, created.body.id);
    const key = await call(server, 'POST', '/api-keys', { token, body: { name: 'till', type: 'personal' } });
    const hook = await call(server, 'POST', '/partner/webhooks', {
      key: key.body.rawKey,
      body: { url: 'http://127.0.0.1:8/hook', events: ['order.created'] },
    });
    expect(hook.status).toBe(201);
    expect((await admin('GET', `/admin/webhooks/${hook.body.id}`)).status).toBe(200);
    // A delivery about branch 1's order: the log of the branch the user leaves.
    await server.db
      .insertInto('webhook_deliveries')
      .values({
        webhook_id: hook.body.id,
        event: 'order.created',
        body: '{"data":{"id":1}}',
        status: 'succeeded',
        attempts: 1,
      })
      .execute();
    expect((await admin('GET', `/admin/webhooks/${hook.body.id}/deliveries`)).body.data).toHaveLength(1);

    expect(
      (await admin('PATCH', `/admin/staff/${created.body.id}`, { branchId: world.branches.b2 }, 'superadmin')).status,
    ).toBe(200);
    // The webhook goes with the user; branch 1's delivery log stays behind, out of branch 2's admin's sight.
    expect((await admin('GET', `/admin/webhooks/${hook.body.id}/deliveries`, undefined, 'admin2')).body.data).toEqual(
      [],
    );
    expect(
      await server.db.selectFrom('webhook_deliveries').select('id').where('webhook_id', '=', hook.body.id).execute(),
    ).toEqual([]);
    for (const [who, status] of [
      ['admin1', 404],
      ['admin2', 200],
    ] as const) {
      expect((await admin('GET', `/admin/webhooks/${hook.body.id}`, undefined, who)).status, who).toBe(status);
      expect((await admin('POST', `/admin/webhooks/${hook.body.id}/rotate-secret`, {}, who)).status, who).toBe(status);
    }
    expect(
      (await admin('GET', '/admin/webhooks', undefined, 'admin2')).body.data.map((w: { id: string }) => w.id),
    ).toContain(hook.body.id);
    // Both branches' histories hold the move.
    for (const who of ['admin1', 'admin2'] as const) {
      const history = await admin('GET', `/admin/audit?entityType=staff&entityId=${created.body.id}`, undefined, who);
      expect(
        history.body.data.filter((e: { after: { branchId?: number } }) => e.after.branchId === world.branches.b2),
        who,
      ).toHaveLength(1);
    }
    expect((await admin('PATCH', `/admin/staff/${created.body.id}`, { role: 'superadmin' }, 'superadmin')).status).toBe(
      200,
    );
    expect((await admin('GET', `/admin/webhooks/${hook.body.id}`, undefined, 'admin2')).status).toBe(404);
  });

  it('files the webhooks of users moved before this rule under their branch (migration 011)', async () => {
    const hook = await server.db
      .insertInto('webhooks')
      .values({
        branch_id: world.branches.b2,
        staff_user_id: world.staff.operatorA.id,
        url: 'http://127.0.0.1:8/misfiled',
        events: ['order.created'],
        secret_key: 'x'.repeat(64),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await up(server.db as unknown as Kysely<unknown>);
    const row = await server.db
      .selectFrom('webhooks')
      .select('branch_id')
      .where('id', '=', hook.id)
      .executeTakeFirstOrThrow();
    expect(row.branch_id).toBe(world.branches.b1);
    await server.db.deleteFrom('webhooks').where('id', '=', hook.id).execute();
  });

  it('promotes to superadmin (no branch, no exchanges) and demotes back into a named branch', async () => {
    const created = await admin('POST', '/admin/staff', {
      email: 'rising@test.local',
      password: PASSWORD,
      role: 'operator',
      exchangeIds: [world.exchanges.A],
    });
    const up = await admin('PATCH', `/admin/staff/${created.body.id}`, { role: 'superadmin' }, 'superadmin');
    expect(up.body).toMatchObject({ role: 'superadmin', branchId: null, exchangeIds: [] });
    const down = await admin('PATCH', `/admin/staff/${created.body.id}`, { role: 'admin' }, 'superadmin');
    expect(down.body.errors).toEqual({ branchId: 'required' });
    const ok = await admin(
      'PATCH',
      `/admin/staff/${created.body.id}`,
      { role: 'admin', branchId: world.branches.b1 },
      'superadmin',
    );
    expect(ok.body).toMatchObject({ role: 'admin', branchId: world.branches.b1 });
  });

  it('never leaves the network without an active superadmin', async () => {
    const supers = await server.db
      .selectFrom('staff_users')
      .select('id')
      .where('role', '=', 'superadmin')
      .where('id', '<>', world.staff.superadmin.id)
      .execute();
    for (const s of supers) await updateStaffUser(server.ctx, SYSTEM_ACTOR, s.id, { isActive: false }, cliAudit());
    const last = updateStaffUser(server.ctx, SYSTEM_ACTOR, world.staff.superadmin.id, { isActive: false }, cliAudit());
    const refusal = await last.then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(refusal).toBeInstanceOf(DomainError);
    expect(asHttpError(refusal)).toMatchObject({
      statusCode: 422,
      message: 'The last active superadmin cannot be demoted or deactivated',
    });
  });
});
