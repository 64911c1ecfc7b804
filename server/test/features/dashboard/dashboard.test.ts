import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorld } from '../../helpers/fixture.js';
import { call, type TestServer } from '../../helpers/server.js';
import type { StaffName } from '../../helpers/staff.js';
import type { World } from '../../helpers/world.js';
import { orderBody, placeOrder } from '../orders/support.js';
import { register } from '../webhooks/support.js';

let server: TestServer;
let world: World;
let tokens: Record<StaffName, string>;
const ids: Record<string, number> = {};

beforeAll(async () => {
  ({ server, world, tokens } = await startWorld());
  ids.a1 = (await placeOrder(server, world.keys.branch, orderBody(world))).id;
  ids.a2 = (await placeOrder(server, world.keys.branch, orderBody(world, { clientAmount: 200 }))).id;
  ids.b1 = (
    await placeOrder(
      server,
      world.keys.branch,
      orderBody(world, { cashbox: { id: world.exchanges.B }, clientAmount: 50 }),
    )
  ).id;
  ids.c1 = (
    await placeOrder(
      server,
      world.keys.otherBranch,
      orderBody(world, { cashbox: { id: world.exchanges.C }, clientAmount: 50 }),
    )
  ).id;
  // a2 moved, then a1 changed long ago: a1 has waited longest.
  await call(server, 'POST', `/admin/orders/${ids.a2}/status`, { token: tokens.admin1, body: { status: 'CANCEL' } });
  await server.db
    .updateTable('orders')
    .set({ updated_at: new Date(Date.now() - 3600_000) })
    .where('id', '=', ids.b1)
    .execute();
  // An order from yesterday counts as waiting, not as today's.
  ids.old = (await placeOrder(server, world.keys.branch, orderBody(world, { clientAmount: 300 }))).id;
  await server.db
    .updateTable('orders')
    .set({ created_at: new Date(Date.now() - 3 * 86400_000), updated_at: new Date(Date.now() - 2 * 86400_000) })
    .where('id', '=', ids.old)
    .execute();
});
afterAll(() => server?.close());

const since = () => new Date(Date.now() - 86400_000).toISOString();
const board = async (who: StaffName) => {
  const res = await call(server, 'GET', '/admin/dashboard', { token: tokens[who], query: { since: since() } });
  expect(res.status).toBe(200);
  return res.body;
};

describe('GET /admin/dashboard', () => {
  it("counts today's orders by status and lists the open ones that waited longest, in the caller's scope", async () => {
    const admin1 = await board('admin1');
    expect(admin1.orders.byStatus).toEqual({
      ORDERINIT: 2,
      CLIENTPAYMENTWAIT: 0,
      EXCHANGEPAYMENTWAIT: 0,
      CASHOUT: 0,
      SUCCESS: 0,
      CANCEL: 1,
    });
    expect(admin1.orders.total).toBe(3);
    expect(admin1.orders.waitingLongest.map((o: { id: number }) => o.id)).toEqual([ids.old, ids.b1, ids.a1]);
    expect(admin1.orders.waitingLongest[2]).toMatchObject({
      status: 'ORDERINIT',
      exchangeId: world.exchanges.A,
      clientAmount: 100,
      currency1: 'USD',
      currency2: 'EUR',
    });

    const operatorA = await board('operatorA');
    expect(operatorA.orders.total).toBe(2);
    expect(operatorA.orders.waitingLongest.map((o: { id: number }) => o.id)).toEqual([ids.old, ids.a1]);
    expect((await board('operatorB')).orders.waitingLongest.map((o: { id: number }) => o.id)).toEqual([ids.b1]);
    const admin2 = await board('admin2');
    expect(admin2.orders.total).toBe(1);
    expect(admin2.orders.waitingLongest.map((o: { id: number }) => o.id)).toEqual([ids.c1]);
    expect((await board('superadmin')).orders.total).toBe(4);
  });

  it('takes today as midnight UTC when since is left out, and refuses a since that is not a date-time', async () => {
    const res = await call(server, 'GET', '/admin/dashboard', { token: tokens.admin1 });
    expect(res.status).toBe(200);
    expect(new Date(res.body.since).toISOString()).toMatch(/T00:00:00\.000Z$/);
    const bad = await call(server, 'GET', '/admin/dashboard', { token: tokens.admin1, query: { since: 'yesterday' } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({ since: expect.any(String) });
  });

  it('lists the webhooks in trouble the caller may see, and leaves out what its permissions do not cover', async () => {
    const failing = await register(server, world.keys.operatorA, 'http://127.0.0.1:8/a');
    const dead = await register(server, world.keys.branch, 'http://127.0.0.1:8/b');
    await register(server, world.keys.branch, 'http://127.0.0.1:8/healthy');
    const other = await register(server, world.keys.otherBranch, 'http://127.0.0.1:8/c');
    await server.db.updateTable('webhooks').set({ fail_count: 3 }).where('id', 'in', [failing.id, other.id]).execute();
    await server.db
      .updateTable('webhooks')
      .set({ is_active: false, fail_count: 10, deactivated_at: new Date() })
      .where('id', '=', dead.id)
      .execute();

    const hooks = (body: any) => body.webhooksInTrouble.map((w: { id: string }) => w.id);
    expect(hooks(await board('admin1'))).toEqual([dead.id, failing.id]);
    expect((await board('admin1')).webhooksInTrouble[0]).toMatchObject({
      isActive: false,
      failCount: 10,
      deactivatedAt: expect.any(String),
    });
    expect(hooks(await board('operatorA'))).toEqual([failing.id]);
    expect(hooks(await board('operatorB'))).toEqual([]);
    expect(hooks(await board('admin2'))).toEqual([other.id]);
    expect(hooks(await board('superadmin'))).toEqual(
      [dead.id, failing.id, other.id].sort((x, y) => (x === dead.id ? -1 : y === dead.id ? 1 : x.localeCompare(y))),
    );
    const readOnly = await board('readOnlyA');
    expect(readOnly.webhooksInTrouble).toBeNull();
    expect(readOnly.orders.total).toBe(2);
  });

  it('needs a staff token', async () => {
    expect((await call(server, 'GET', '/admin/dashboard')).status).toBe(401);
    expect((await call(server, 'GET', '/admin/dashboard', { key: world.keys.branch })).status).toBe(401);
  });
});
