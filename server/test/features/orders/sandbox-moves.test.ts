import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookWorker } from '../../../src/features/delivery/worker.js';
import { call, type TestServer } from '../../helpers/server.js';
import type { StaffName } from '../../helpers/staff.js';
import type { World } from '../../helpers/world.js';
import { startWorld } from '../../helpers/fixture.js';
import { orderBody, placeOrder } from './support.js';
import { register, startReceiver, worker, type Receiver } from '../webhooks/support.js';

let server: TestServer;
let world: World;
let tokens: Record<StaffName, string>;
let receiver: Receiver;
let running: WebhookWorker;
/** An order branch 1 placed before it became a sandbox: a real order, never movable by a partner. */
let realOrder: number;

const move = (key: string, id: number, status: string, comment?: string) =>
  call(server, 'POST', `/partner/sandbox/orders/${id}/status`, {
    key,
    body: comment === undefined ? { status } : { status, comment },
  });
const setSandbox = (branchId: number, isSandbox: boolean) =>
  call(server, 'PATCH', `/admin/branches/${branchId}`, { token: tokens.superadmin, body: { isSandbox } });

beforeAll(async () => {
  ({ server, world, tokens } = await startWorld());
  realOrder = (await placeOrder(server, world.keys.branch, orderBody(world))).id;
  const made = await setSandbox(world.branches.b1, true);
  expect(made.status, made.text).toBe(200);
  receiver = await startReceiver();
  await register(server, world.keys.branch, receiver.url);
  running = await worker(server);
});
afterAll(async () => {
  await running?.stop();
  await receiver?.close();
  await server?.close();
});

describe('sandbox branches in the back office', () => {
  it('a superadmin creates, lists and switches sandbox branches; others get 403', async () => {
    const created = await call(server, 'POST', '/admin/branches', {
      token: tokens.superadmin,
      body: { name: 'Playground', isSandbox: true },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ name: 'Playground', isSandbox: true });
    const plain = await call(server, 'POST', '/admin/branches', { token: tokens.superadmin, body: { name: 'Plain' } });
    expect(plain.body.isSandbox).toBe(false);
    const off = await setSandbox(created.body.id, false);
    expect(off.body).toMatchObject({ id: created.body.id, name: 'Playground', isSandbox: false });
    const list = await call(server, 'GET', '/admin/branches', { token: tokens.superadmin, query: { limit: 100 } });
    expect(list.body.data.find((b: { id: number }) => b.id === world.branches.b1).isSandbox).toBe(true);
    expect(
      (
        await call(server, 'PATCH', `/admin/branches/${world.branches.b2}`, {
          token: tokens.admin2,
          body: { isSandbox: true },
        })
      ).status,
    ).toBe(403);
    expect(
      (await call(server, 'PATCH', '/admin/branches/999999', { token: tokens.superadmin, body: { isSandbox: true } }))
        .status,
    ).toBe(404);
    expect(
      (await call(server, 'PATCH', `/admin/branches/${world.branches.b2}`, { token: tokens.superadmin, body: {} }))
        .status,
    ).toBe(400);
    expect(
      (
        await call(server, 'PATCH', `/admin/branches/${world.branches.b2}`, {
          token: tokens.superadmin,
          body: { isSandbox: 'yes' },
        })
      ).status,
    ).toBe(400);
  });
});

describe('POST /partner/sandbox/orders/{id}/status', () => {
  it('moves an own sandbox order along the transition table, with the same webhooks as a staff move, all marked sandbox', async () => {
    const from = receiver.received.length;
    const order = await placeOrder(server, world.keys.branch, orderBody(world));
    expect(order).toMatchObject({ status: 'ORDERINIT', sandbox: true });
    const path = ['CLIENTPAYMENTWAIT', 'EXCHANGEPAYMENTWAIT', 'CASHOUT', 'SUCCESS'];
    for (const status of path) {
      const res = await move(world.keys.branch, order.id, status, `test ${status}`);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ id: order.id, status, sandbox: true });
    }
    // The worker sends a webhook's due deliveries side by side (as for a move's two events below): moves made in
    // quick succession may arrive in any order, so they are put in the order of the moves before comparing.
    const rank = (e: { event: string; data: { status: string } }) =>
      e.event === 'order.created' ? -1 : path.indexOf(e.data.status);
    const got = (await receiver.waitFor(from + 1 + path.length))
      .slice(from)
      .map((r) => JSON.parse(r.body))
      .sort((a, b) => rank(a) - rank(b));
    expect(got.map((e) => e.event)).toEqual(['order.created', ...path.map(() => 'order.status_changed')]);
    expect(got[0].data).toEqual({
      id: order.id,
      status: 'ORDERINIT',
      amountSource: '100',
      amountDest: '92.15',
      expiresAt: order.expiresAt,
      sandbox: true,
    });
    path.forEach((status, i) =>
      expect(got[i + 1]).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        event: 'order.status_changed',
        timestamp: expect.any(String),
        status,
        data: { id: order.id, status, sandbox: true },
      }),
    );
    const history = await server.db
      .selectFrom('order_status_history')
      .selectAll()
      .where('order_id', '=', order.id)
      .orderBy('id')
      .execute();
    expect(history.map((h) => [h.to_status, h.actor_type, h.api_key_id, h.comment])).toEqual([
      ['ORDERINIT', 'api_key', world.keyIds.branch, null],
      ...path.map((s) => [s, 'api_key', world.keyIds.branch, `test ${s}`]),
    ]);
    const read = await call(server, 'GET', `/partner/orders/${order.id}`, { key: world.keys.branch });
    expect(read.body).toMatchObject({ status: 'SUCCESS', sandbox: true });
    const admin = await call(server, 'GET', `/admin/orders/${order.id}`, { token: tokens.admin1 });
    expect(admin.body.sandbox).toBe(true);
  });

  it('a move to CANCEL emits order.cancelled too, marked sandbox', async () => {
    const from = receiver.received.length;
    const order = await placeOrder(server, world.keys.branch, orderBody(world));
    expect((await move(world.keys.branch, order.id, 'CANCEL')).body.status).toBe('CANCEL');
    const got = (await receiver.waitFor(from + 3)).slice(from).map((r) => JSON.parse(r.body));
    // The worker sends a move's two events side by side: their arrival order is not fixed.
    expect(got.map((e) => [e.event, e.data]).sort(([a], [b]) => String(a).localeCompare(String(b)))).toEqual([
      ['order.cancelled', { id: order.id, status: 'CANCEL', sandbox: true }],
      ['order.created', expect.objectContaining({ id: order.id, sandbox: true })],
      ['order.status_changed', { id: order.id, status: 'CANCEL', sandbox: true }],
    ]);
  });

  it("a move the transition table refuses is 422 with the staff move's message, and nothing changes", async () => {
    const order = await placeOrder(server, world.keys.branch, orderBody(world));
    const res = await move(world.keys.branch, order.id, 'SUCCESS');
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      statusCode: 422,
      error: 'Unprocessable Entity',
      message: 'Order in status ORDERINIT cannot move to SUCCESS; allowed: CLIENTPAYMENTWAIT, CANCEL',
    });
    expect((await call(server, 'GET', `/partner/orders/${order.id}`, { key: world.keys.branch })).body.status).toBe(
      'ORDERINIT',
    );
  });

  it('a bad body is 400', async () => {
    const order = await placeOrder(server, world.keys.branch, orderBody(world));
    expect((await move(world.keys.branch, order.id, 'DONE')).status).toBe(400);
    expect(
      (await call(server, 'POST', `/partner/sandbox/orders/${order.id}/status`, { key: world.keys.branch, body: {} }))
        .status,
    ).toBe(400);
  });

  it('outside a sandbox it is 404: another branch, a real order, a branch no longer a sandbox', async () => {
    const other = await placeOrder(
      server,
      world.keys.otherBranch,
      orderBody(world, { cashbox: { id: world.exchanges.C } }),
    );
    expect(other).toMatchObject({ sandbox: false });
    const res = await move(world.keys.otherBranch, other.id, 'CLIENTPAYMENTWAIT');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ statusCode: 404, errors: { order: 'notFound' } });
    expect((await move(world.keys.branch, realOrder, 'CLIENTPAYMENTWAIT')).status).toBe(404);
    expect((await call(server, 'GET', `/partner/orders/${realOrder}`, { key: world.keys.branch })).body).toMatchObject({
      status: 'ORDERINIT',
      sandbox: false,
    });

    const order = await placeOrder(server, world.keys.branch, orderBody(world));
    expect((await setSandbox(world.branches.b1, false)).status).toBe(200);
    try {
      expect((await move(world.keys.branch, order.id, 'CLIENTPAYMENTWAIT')).status).toBe(404);
    } finally {
      await setSandbox(world.branches.b1, true);
    }
    expect((await move(world.keys.branch, order.id, 'CLIENTPAYMENTWAIT')).status).toBe(200);
  });

  it("only the key that placed the order moves it: another branch's key and another key of the branch get 404", async () => {
    const order = await placeOrder(server, world.keys.branch, orderBody(world));
    expect((await move(world.keys.otherBranch, order.id, 'CLIENTPAYMENTWAIT')).status).toBe(404);
    expect((await move(world.keys.operatorA, order.id, 'CLIENTPAYMENTWAIT')).status).toBe(404);
    expect((await move(world.keys.superadmin, order.id, 'CLIENTPAYMENTWAIT')).status).toBe(404);
    const mine = await placeOrder(server, world.keys.operatorA, orderBody(world));
    expect((await move(world.keys.operatorA, mine.id, 'CLIENTPAYMENTWAIT')).status).toBe(200);
    expect((await call(server, 'GET', `/partner/orders/${order.id}`, { key: world.keys.branch })).body.status).toBe(
      'ORDERINIT',
    );
  });

  it('a public key gets 403, a key without orders:write 403, no key 401', async () => {
    const order = await placeOrder(server, world.keys.branch, orderBody(world));
    const pub = await move(world.keys.public, order.id, 'CLIENTPAYMENTWAIT');
    expect(pub.status).toBe(403);
    expect(pub.body).toMatchObject({ statusCode: 403, message: 'A public key may only call the public endpoints' });
    expect((await move(world.keys.readOnlyA, order.id, 'CLIENTPAYMENTWAIT')).status).toBe(403);
    expect(
      (
        await call(server, 'POST', `/partner/sandbox/orders/${order.id}/status`, {
          body: { status: 'CLIENTPAYMENTWAIT' },
        })
      ).status,
    ).toBe(401);
    expect((await call(server, 'GET', `/partner/orders/${order.id}`, { key: world.keys.branch })).body.status).toBe(
      'ORDERINIT',
    );
  });
});
