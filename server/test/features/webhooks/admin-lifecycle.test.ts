import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorld } from '../../helpers/fixture.js';
import { call, type TestServer } from '../../helpers/server.js';
import type { StaffName } from '../../helpers/staff.js';
import type { World } from '../../helpers/world.js';
import { orderBody, placeOrder } from '../orders/support.js';
import { deliveries, register } from './support.js';

/*
 * Staff stop a partner's webhook: deactivate (kept, no deliveries until reactivated) or delete. The case from the
 * security review: a branch key is revoked, but the branch's webhook it made keeps receiving the branch's events.
 */
let server: TestServer;
let world: World;
let tokens: Record<StaffName, string>;
const URL = 'https://hooks.partner.example/offboarded';

beforeAll(async () => ({ server, world, tokens } = await startWorld()));
afterAll(() => server?.close());

const as = (who: StaffName, method: string, path: string) => call(server, method, path, { token: tokens[who] });
const order = () => placeOrder(server, world.keys.operatorA, orderBody(world));
const deliveryFor = async (hookId: string, orderId: number) =>
  (await deliveries(server, hookId)).filter((d) => JSON.parse(d.body).data?.id === orderId);
const auditRows = (id: string) =>
  server.db
    .selectFrom('audit_log')
    .selectAll()
    .where('entity_type', '=', 'webhook')
    .where('entity_id', '=', id)
    .orderBy('id')
    .execute();

/** A webhook made with a branch key of branch 1 that a superadmin creates, then revokes. */
async function revokedBranchKeysHook() {
  const key = await call(server, 'POST', '/api-keys', {
    token: tokens.superadmin,
    body: { name: 'partner to offboard', type: 'branch', branchId: world.branches.b1 },
  });
  expect(key.status).toBe(201);
  const hook = await register(server, key.body.rawKey, URL);
  expect((await as('admin1', 'DELETE', `/admin/api-keys/${key.body.id}`)).status).toBe(204);
  return hook;
}

describe('POST /admin/webhooks/{id}/deactivate', () => {
  it("stops the deliveries of a revoked branch key's webhook, abandons pending ones, and is audited", async () => {
    const hook = await revokedBranchKeysHook();
    const before = await order();
    expect(await deliveryFor(hook.id, before.id)).toHaveLength(1); // the review's finding: the key is gone, the webhook is not

    const res = await as('admin1', 'POST', `/admin/webhooks/${hook.id}/deactivate`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: hook.id, isActive: false, branchId: world.branches.b1, staffUserId: null });
    expect(res.body.deactivatedAt).toEqual(expect.any(String));
    expect(res.body.secretKey).toBeUndefined();
    expect((await deliveryFor(hook.id, before.id))[0]).toMatchObject({
      status: 'abandoned',
      last_error: 'webhook deactivated by staff',
    });

    const after = await order();
    expect(await deliveryFor(hook.id, after.id)).toEqual([]);

    const again = await as('superadmin', 'POST', `/admin/webhooks/${hook.id}/deactivate`);
    expect(again.status).toBe(200);
    expect(again.body.deactivatedAt).toBe(res.body.deactivatedAt);
    const rows = await auditRows(hook.id);
    expect(rows.map((r) => r.action)).toEqual(['webhook.deactivate']);
    expect(rows[0]).toMatchObject({
      actor: 'staff',
      staff_user_id: world.staff.admin1.id,
      branch_id: world.branches.b1,
      request_id: res.headers.get('x-request-id'),
    });
    expect(rows[0].after).toMatchObject({ isActive: false, abandonedDeliveries: 1 });

    // Reactivation brings new events back; the abandoned delivery stays abandoned.
    expect((await as('admin1', 'POST', `/admin/webhooks/${hook.id}/reactivate`)).status).toBe(200);
    expect(await deliveryFor(hook.id, (await order()).id)).toHaveLength(1);
    expect((await deliveryFor(hook.id, before.id))[0].status).toBe('abandoned');
  });
});

describe('DELETE /admin/webhooks/{id}', () => {
  it('removes the webhook with its deliveries, so later orders make none, and is audited', async () => {
    const hook = await revokedBranchKeysHook();
    await order();
    expect(await deliveries(server, hook.id)).toHaveLength(1);

    const res = await as('admin1', 'DELETE', `/admin/webhooks/${hook.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(await server.db.selectFrom('webhooks').select('id').where('id', '=', hook.id).execute()).toEqual([]);
    await order();
    expect(await deliveries(server, hook.id)).toEqual([]);
    expect((await as('admin1', 'GET', `/admin/webhooks/${hook.id}`)).status).toBe(404);
    expect((await as('admin1', 'DELETE', `/admin/webhooks/${hook.id}`)).status).toBe(404);

    const rows = await auditRows(hook.id);
    expect(rows.map((r) => r.action)).toEqual(['webhook.delete']);
    expect(rows[0]).toMatchObject({
      staff_user_id: world.staff.admin1.id,
      branch_id: world.branches.b1,
      request_id: res.headers.get('x-request-id'),
    });
    expect(rows[0].before).toMatchObject({ url: URL, isActive: true });
    expect(rows[0].after).toEqual({ deleted: true, abandonedDeliveries: 1 });
    expect(JSON.stringify(rows[0])).not.toContain(hook.secretKey);
  });

  it('lets a superadmin delete any webhook, and an operator its own (made with its personal key)', async () => {
    const other = await register(server, world.keys.otherBranch, URL);
    expect((await as('superadmin', 'DELETE', `/admin/webhooks/${other.id}`)).status).toBe(204);
    const own = await register(server, world.keys.operatorA, URL);
    expect((await as('operatorA', 'POST', `/admin/webhooks/${own.id}/deactivate`)).status).toBe(200);
    expect((await as('operatorA', 'DELETE', `/admin/webhooks/${own.id}`)).status).toBe(204);
    expect((await auditRows(own.id)).map((r) => [r.action, r.staff_user_id])).toEqual([
      ['webhook.deactivate', world.staff.operatorA.id],
      ['webhook.delete', world.staff.operatorA.id],
    ]);
  });
});

describe('reach', () => {
  it("answers 404 out of reach (other branch, another operator's or the branch's for an operator), 403 without webhooks:manage", async () => {
    const branchHook = await register(server, world.keys.branch, URL);
    const operatorsHook = await register(server, world.keys.operatorA, URL);
    const cases: [StaffName, string, number][] = [
      ['admin2', branchHook.id, 404],
      ['admin2', operatorsHook.id, 404],
      ['operatorA', branchHook.id, 404],
      ['operatorB', operatorsHook.id, 404],
      ['readOnlyA', operatorsHook.id, 403],
    ];
    for (const [who, id, status] of cases) {
      for (const [method, path] of [
        ['POST', `/admin/webhooks/${id}/deactivate`],
        ['DELETE', `/admin/webhooks/${id}`],
      ]) {
        const res = await as(who, method, path);
        expect(res.status, `${who} ${method} ${path}`).toBe(status);
        if (status === 404) expect(res.body.errors).toEqual({ webhook: 'notFound' });
      }
      expect((await call(server, 'DELETE', `/admin/webhooks/${id}`)).status).toBe(401);
      expect((await call(server, 'DELETE', `/admin/webhooks/${id}`, { key: world.keys.branch })).status).toBe(401);
    }
    expect((await as('admin1', 'DELETE', '/admin/webhooks/not-a-uuid')).status).toBe(400);
    const rows = await server.db
      .selectFrom('webhooks')
      .select(['id', 'is_active'])
      .where('id', 'in', [branchHook.id, operatorsHook.id])
      .orderBy('id')
      .execute();
    expect(rows.every((r) => r.is_active)).toBe(true);
    expect(rows).toHaveLength(2);
    expect([...(await auditRows(branchHook.id)), ...(await auditRows(operatorsHook.id))]).toEqual([]);
  });
});

describe('Cache-Control: no-store on every answer with a webhook secret', () => {
  it('is sent by POST /partner/webhooks, also when an Idempotency-Key replays it', async () => {
    const body = { url: URL, events: ['order.created'] };
    const headers = { 'idempotency-key': 'no-store-check-1' };
    const first = await call(server, 'POST', '/partner/webhooks', { key: world.keys.branch, body, headers });
    expect(first.status).toBe(201);
    expect(first.headers.get('cache-control')).toBe('no-store');
    const replay = await call(server, 'POST', '/partner/webhooks', { key: world.keys.branch, body, headers });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.secretKey).toBe(first.body.secretKey);
    expect(replay.headers.get('cache-control')).toBe('no-store');
    const plain = await call(server, 'POST', '/partner/webhooks', { key: world.keys.branch, body });
    expect(plain.headers.get('cache-control')).toBe('no-store');

    const rotated = [
      await call(server, 'POST', `/partner/webhooks/${plain.body.id}/rotate-secret`, { key: world.keys.branch }),
      await as('admin1', 'POST', `/admin/webhooks/${plain.body.id}/rotate-secret`),
    ];
    for (const res of rotated) expect([res.status, res.headers.get('cache-control')]).toEqual([200, 'no-store']);
  });
});
