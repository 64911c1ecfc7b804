import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, type TestServer } from '../../helpers/server.js';
import type { World } from '../../helpers/world.js';
import { emit, register } from './support.js';
import { startWorld } from '../../helpers/fixture.js';

let server: TestServer;
let world: World;
const URL_A = 'https://hooks.partner.example/a';

beforeAll(async () => ({ server, world } = await startWorld()));
beforeEach(() => server.db.deleteFrom('webhooks').execute());
afterAll(() => server?.close());

const token = async (who: string) => (await server.ctx.tokens.sign(world.staff[who].id)).accessToken;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('POST /partner/webhooks', () => {
  it('creates an active webhook and shows its secret once', async () => {
    const res = await call(server, 'POST', '/partner/webhooks', {
      key: world.keys.branch,
      body: { url: URL_A, events: ['order.created', 'offer.updated'] },
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual([
      'createdAt',
      'events',
      'failCount',
      'id',
      'isActive',
      'note',
      'secretKey',
      'updatedAt',
      'url',
    ]);
    expect(res.body).toMatchObject({
      url: URL_A,
      events: ['order.created', 'offer.updated'],
      isActive: true,
      failCount: 0,
    });
    expect(res.body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body.secretKey).toMatch(/^[0-9a-f]{64}$/);
    expect(res.body.note).toMatch(/shown only once/);
    expect(res.body.createdAt).toMatch(ISO);

    const read = await call(server, 'GET', `/partner/webhooks/${res.body.id}`, { key: world.keys.branch });
    expect(read.status).toBe(200);
    expect(read.body.secretKey).toBeUndefined();
    expect(read.body.note).toBeUndefined();
    expect(read.text).not.toContain(res.body.secretKey);
  });

  it("belongs to the principal of the key: a branch key's branch, a personal key's user", async () => {
    const byBranch = await register(server, world.keys.branch, URL_A);
    const byOperator = await register(server, world.keys.operatorA, URL_A);
    const bySuper = await register(server, world.keys.superadmin, URL_A);
    const rows = await server.db
      .selectFrom('webhooks')
      .select(['id', 'branch_id', 'staff_user_id', 'created_by_key_id'])
      .execute();
    const row = (id: string) => rows.find((r) => r.id === id);
    expect(row(byBranch.id)).toMatchObject({
      branch_id: world.branches.b1,
      staff_user_id: null,
      created_by_key_id: world.keyIds.branch,
    });
    expect(row(byOperator.id)).toMatchObject({ branch_id: world.branches.b1, staff_user_id: world.staff.operatorA.id });
    expect(row(bySuper.id)).toMatchObject({ branch_id: null, staff_user_id: world.staff.superadmin.id });
  });

  it('needs a secret key with the webhooks:manage permission', async () => {
    const body = { url: URL_A, events: ['order.created'] };
    expect((await call(server, 'POST', '/partner/webhooks', { body })).status).toBe(401);
    expect((await call(server, 'POST', '/partner/webhooks', { key: world.keys.public, body })).status).toBe(403);
    const readOnly = await call(server, 'POST', '/partner/webhooks', { key: world.keys.readOnlyA, body });
    expect(readOnly.status).toBe(403);
    expect(readOnly.body.message).toBe('This key lacks the webhooks:manage permission');
  });
});

describe('the other partner endpoints', () => {
  it('list, read, update and delete only the webhooks the key can see', async () => {
    const branchHook = await register(server, world.keys.branch, URL_A);
    const opA = await register(server, world.keys.operatorA, `${URL_A}/opA`);
    const opB = await register(server, world.keys.operatorB, `${URL_A}/opB`);
    const other = await register(server, world.keys.otherBranch, `${URL_A}/other`);
    await register(server, world.keys.superadmin, `${URL_A}/super`);

    const ids = async (key: string, query = {}) =>
      (await call(server, 'GET', '/partner/webhooks', { key, query })).body.data.map((w: { id: string }) => w.id);
    expect(await ids(world.keys.branch)).toEqual([branchHook.id, opA.id, opB.id]);
    expect(await ids(world.keys.operatorA)).toEqual([opA.id]);
    expect(await ids(world.keys.otherBranch)).toEqual([other.id]);
    const page = await call(server, 'GET', '/partner/webhooks', {
      key: world.keys.branch,
      query: { limit: 1, skip: 1 },
    });
    expect(page.body.meta).toEqual({ total: 3, skip: 1, limit: 1, nextCursor: expect.any(String) });
    expect(page.body.data[0].secretKey).toBeUndefined();
    expect(
      (await call(server, 'GET', '/partner/webhooks', { key: world.keys.branch, query: { filter: '{"colour":1}' } }))
        .status,
    ).toBe(400);

    for (const [key, id] of [
      [world.keys.operatorB, opA.id],
      [world.keys.otherBranch, opA.id],
      [world.keys.operatorA, branchHook.id],
    ]) {
      const res = await call(server, 'GET', `/partner/webhooks/${id}`, { key });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ statusCode: 404, error: 'Not Found', errors: { webhook: 'notFound' } });
      for (const [method, path, body] of [
        ['PATCH', '', { events: ['order.created'] }],
        ['DELETE', ''],
        ['POST', '/reactivate'],
        ['POST', '/rotate-secret'],
        ['GET', '/deliveries'],
      ] as const) {
        expect(
          (await call(server, method, `/partner/webhooks/${id}${path}`, { key, body })).status,
          `${method} ${path}`,
        ).toBe(404);
      }
    }
    expect((await call(server, 'GET', `/partner/webhooks/${opA.id}`, { key: world.keys.branch })).status).toBe(200);
    expect((await call(server, 'GET', '/partner/webhooks/not-a-uuid', { key: world.keys.branch })).status).toBe(400);

    const patched = await call(server, 'PATCH', `/partner/webhooks/${opA.id}`, {
      key: world.keys.operatorA,
      body: { events: ['offer.updated'], url: 'https://hooks.partner.example/new' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      id: opA.id,
      events: ['offer.updated'],
      url: 'https://hooks.partner.example/new',
      isActive: true,
    });
    expect(patched.body.secretKey).toBeUndefined();
    expect(
      (await call(server, 'PATCH', `/partner/webhooks/${opA.id}`, { key: world.keys.operatorA, body: {} })).status,
    ).toBe(400);
    expect(
      (await call(server, 'PATCH', `/partner/webhooks/${opA.id}`, { key: world.keys.operatorA, body: { url: 'nope' } }))
        .body.message,
    ).toEqual(['url must be a URL address']);

    expect((await call(server, 'DELETE', `/partner/webhooks/${opB.id}`, { key: world.keys.branch })).status).toBe(204);
    expect((await call(server, 'DELETE', `/partner/webhooks/${opB.id}`, { key: world.keys.branch })).status).toBe(404);
    expect((await call(server, 'GET', `/partner/webhooks/${branchHook.id}`, { key: world.keys.public })).status).toBe(
      403,
    );
  });
});

describe('the outbox fan-out', () => {
  it('writes a delivery for each active, subscribed webhook whose principal can read the resource', async () => {
    const hooks = {
      branch: await register(server, world.keys.branch, URL_A),
      opA: await register(server, world.keys.operatorA, URL_A),
      opB: await register(server, world.keys.operatorB, URL_A),
      admin1: await register(server, world.keys.admin1, URL_A),
      superadmin: await register(server, world.keys.superadmin, URL_A),
      other: await register(server, world.keys.otherBranch, URL_A),
      offersOnly: await register(server, world.keys.branch, URL_A, ['offer.updated']),
      inactive: await register(server, world.keys.branch, URL_A),
    };
    await server.db.updateTable('webhooks').set({ is_active: false }).where('id', '=', hooks.inactive.id).execute();
    const reached = async (e: Parameters<typeof emit>[1]) => {
      await server.db.deleteFrom('webhook_deliveries').execute();
      expect(await emit(server, e)).toBeGreaterThan(0);
      const rows = await server.db.selectFrom('webhook_deliveries').select('webhook_id').execute();
      return Object.entries(hooks)
        .filter(([, h]) => rows.some((r) => r.webhook_id === h.id))
        .map(([name]) => name)
        .sort();
    };
    expect(await reached({ branchId: world.branches.b1, exchangeId: world.exchanges.B })).toEqual([
      'admin1',
      'branch',
      'opB',
      'superadmin',
    ]);
    expect(
      await reached({
        event: 'offer.updated',
        branchId: world.branches.b1,
        exchangeId: world.exchanges.A,
        data: { id: 1 },
      }),
    ).toEqual(['admin1', 'branch', 'offersOnly', 'opA', 'opB', 'superadmin']);
    expect(await reached({ branchId: world.branches.b2, exchangeId: world.exchanges.C })).toEqual([
      'other',
      'superadmin',
    ]);
  });
});

describe('/admin/webhooks', () => {
  it("shows an admin its branch's webhooks with their owners, a superadmin all, an operator its own", async () => {
    const branchHook = await register(server, world.keys.branch, URL_A);
    const opA = await register(server, world.keys.operatorA, URL_A);
    const other = await register(server, world.keys.otherBranch, URL_A);
    const list = await call(server, 'GET', '/admin/webhooks', { token: await token('admin1') });
    expect(list.status).toBe(200);
    expect(list.body.meta.total).toBe(2);
    expect(list.body.data.map((w: { id: string }) => w.id)).toEqual([branchHook.id, opA.id]);
    expect(list.body.data[1]).toMatchObject({
      branchId: world.branches.b1,
      staffUserId: world.staff.operatorA.id,
      deactivatedAt: null,
      isActive: true,
    });
    // The owner is named by their login (the console showed "staff #3"); a branch key's webhook has no owner.
    expect(list.body.data.map((w: { staffEmail: string | null }) => w.staffEmail)).toEqual([
      null,
      world.staff.operatorA.email,
    ]);
    expect(list.body.data[0].secretKey).toBeUndefined();
    expect((await call(server, 'GET', '/admin/webhooks', { token: await token('superadmin') })).body.meta.total).toBe(
      3,
    );
    expect(
      (await call(server, 'GET', '/admin/webhooks', { token: await token('admin2') })).body.data.map(
        (w: { id: string }) => w.id,
      ),
    ).toEqual([other.id]);
    expect(
      (await call(server, 'GET', '/admin/webhooks', { token: await token('operatorA') })).body.data.map(
        (w: { id: string }) => w.id,
      ),
    ).toEqual([opA.id]);
    expect((await call(server, 'GET', '/admin/webhooks', { token: await token('operatorB') })).body.meta.total).toBe(0);
    expect((await call(server, 'GET', '/admin/webhooks', { token: await token('readOnlyA') })).status).toBe(403);
    expect((await call(server, 'GET', '/admin/webhooks')).status).toBe(401);
    expect((await call(server, 'GET', '/admin/webhooks', { key: world.keys.branch })).status).toBe(401);
  });

  it('reads the delivery log and reactivates within the branch only', async () => {
    const hook = await register(server, world.keys.operatorA, URL_A);
    await emit(server, { branchId: world.branches.b1, exchangeId: world.exchanges.A });
    await server.db
      .updateTable('webhooks')
      .set({ is_active: false, fail_count: 10, deactivated_at: new Date() })
      .where('id', '=', hook.id)
      .execute();

    const log = await call(server, 'GET', `/admin/webhooks/${hook.id}/deliveries`, { token: await token('admin1') });
    expect(log.status).toBe(200);
    expect(log.body.data).toHaveLength(1);
    expect(log.body.data[0]).toMatchObject({
      event: 'order.created',
      status: 'pending',
      attempts: 0,
      lastResponseStatus: null,
    });
    expect(log.body.data[0].nextAttemptAt).toMatch(ISO);
    const filtered = await call(server, 'GET', `/admin/webhooks/${hook.id}/deliveries`, {
      token: await token('admin1'),
      query: { filter: '{"status":"failed"}' },
    });
    expect(filtered.body.meta.total).toBe(0);
    expect(
      (await call(server, 'GET', `/admin/webhooks/${hook.id}/deliveries`, { token: await token('admin2') })).status,
    ).toBe(404);
    expect(
      (await call(server, 'POST', `/admin/webhooks/${hook.id}/reactivate`, { token: await token('admin2') })).status,
    ).toBe(404);
    expect(
      (await call(server, 'POST', `/admin/webhooks/${hook.id}/reactivate`, { token: await token('operatorB') })).status,
    ).toBe(404);
    expect(
      (await call(server, 'POST', `/admin/webhooks/${hook.id}/reactivate`, { token: await token('readOnlyA') })).status,
    ).toBe(403);

    const res = await call(server, 'POST', `/admin/webhooks/${hook.id}/reactivate`, { token: await token('admin1') });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: hook.id, isActive: true, failCount: 0, deactivatedAt: null });
    expect(
      (await call(server, 'POST', `/admin/webhooks/${hook.id}/reactivate`, { token: await token('superadmin') }))
        .status,
    ).toBe(200);
  });
});
