import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderStatus } from '../../../src/db/schema.js';
import { ORDER_STATUSES, STAFF_MOVES } from '../../../src/features/orders/transitions.js';
import { call, type TestServer } from '../../helpers/server.js';
import type { StaffName } from '../../helpers/staff.js';
import type { World } from '../../helpers/world.js';
import { startWorld } from '../../helpers/fixture.js';
import { historyCount, orderBody, orderIn, PATH_TO, placeOrder, recordedEvents, subscribeBranch } from './support.js';

let server: TestServer;
let world: World;
let tokens: Record<StaffName, string>;
let webhookId: string;
let operator: string;

const move = (id: number, status: string, token = operator, comment?: string) =>
  call(server, 'POST', `/admin/orders/${id}/status`, {
    token,
    body: comment === undefined ? { status } : { status, comment },
  });

const orderInStatus = (status: OrderStatus) => orderIn(server, world, operator, status);
const historyOf = (id: number) => historyCount(server.db, id);

beforeAll(async () => {
  ({ server, world, tokens } = await startWorld());
  webhookId = await subscribeBranch(server.db, world.branches.b1);
  operator = tokens.operatorA;
});
afterAll(() => server?.close());

const allowed = ORDER_STATUSES.flatMap((from) => STAFF_MOVES[from].map((to) => [from, to] as const));
const refused = ORDER_STATUSES.flatMap((from) =>
  ORDER_STATUSES.filter((to) => !STAFF_MOVES[from].includes(to)).map((to) => [from, to] as const),
);

describe('POST /admin/orders/{id}/status: allowed moves', () => {
  it.each(allowed)('%s → %s', async (from, to) => {
    const id = await orderInStatus(from);
    const res = await move(id, to, operator, `to ${to}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.status).toBe(to);
    expect(res.body.history.at(-1)).toEqual({
      fromStatus: from,
      toStatus: to,
      actor: {
        type: 'staff',
        apiKeyId: null,
        staffUserId: world.staff.operatorA.id,
        staffEmail: world.staff.operatorA.email,
      },
      comment: `to ${to}`,
      createdAt: expect.any(String),
    });
    expect(res.body.history).toHaveLength(PATH_TO[from].length + 2);

    const events = (await recordedEvents(server.db, webhookId, id)).slice(1 + PATH_TO[from].length);
    const changed = {
      id: expect.any(String),
      event: 'order.status_changed',
      timestamp: expect.any(String),
      status: to,
      data: { id, status: to },
    };
    const expected =
      to === 'CANCEL'
        ? [
            changed,
            {
              id: expect.any(String),
              event: 'order.cancelled',
              timestamp: expect.any(String),
              data: { id, status: 'CANCEL' },
            },
          ]
        : [changed];
    expect(events.map((e) => e.body)).toEqual(expected);
    expect(events.map((e) => e.event)).toEqual(expected.map((e) => e.event));
  });
});

describe('POST /admin/orders/{id}/status: refused moves', () => {
  const orders = {} as Record<OrderStatus, number>;
  beforeAll(async () => {
    for (const status of ORDER_STATUSES) orders[status] = await orderInStatus(status);
  });

  it.each(refused)('%s → %s: 422, nothing changes', async (from, to) => {
    const id = orders[from];
    const before = await historyOf(id);
    const res = await move(id, to);
    expect(res.status).toBe(422);
    const allowedNext = STAFF_MOVES[from];
    const message =
      from === to
        ? `Order is already in status ${from}`
        : allowedNext.length === 0
          ? `Order in status ${from} cannot move to ${to}: ${from} is final`
          : `Order in status ${from} cannot move to ${to}; allowed: ${allowedNext.join(', ')}`;
    expect(res.body).toEqual({ statusCode: 422, message, error: 'Unprocessable Entity' });
    const row = await server.db.selectFrom('orders').select('status').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.status).toBe(from);
    expect(await historyOf(id)).toBe(before);
  });

  it('refuses an unknown status and a missing one with 400', async () => {
    expect((await move(orders.ORDERINIT, 'PAID')).body.errors).toEqual({ status: 'invalidValue' });
    const res = await call(server, 'POST', `/admin/orders/${orders.ORDERINIT}/status`, { token: operator, body: {} });
    expect(res.body.errors).toEqual({ status: 'required' });
  });
});

describe('the status history', () => {
  it('records who moved the order, from where to where, and when, oldest first', async () => {
    const { id } = await placeOrder(server, world.keys.operatorA, orderBody(world));
    const admin = tokens.admin1;
    await move(id, 'CLIENTPAYMENTWAIT', operator, 'client notified');
    await move(id, 'EXCHANGEPAYMENTWAIT', admin);
    await move(id, 'SUCCESS', operator, 'paid out');
    const res = await call(server, 'GET', `/admin/orders/${id}`, { token: admin });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('SUCCESS');
    expect(res.body.branchId).toBe(world.branches.b1);
    expect(res.body.history).toEqual([
      {
        fromStatus: null,
        toStatus: 'ORDERINIT',
        actor: {
          type: 'api_key',
          apiKeyId: world.keyIds.operatorA,
          staffUserId: world.staff.operatorA.id,
          staffEmail: world.staff.operatorA.email,
        },
        comment: null,
        createdAt: expect.any(String),
      },
      {
        fromStatus: 'ORDERINIT',
        toStatus: 'CLIENTPAYMENTWAIT',
        actor: {
          type: 'staff',
          apiKeyId: null,
          staffUserId: world.staff.operatorA.id,
          staffEmail: world.staff.operatorA.email,
        },
        comment: 'client notified',
        createdAt: expect.any(String),
      },
      {
        fromStatus: 'CLIENTPAYMENTWAIT',
        toStatus: 'EXCHANGEPAYMENTWAIT',
        actor: {
          type: 'staff',
          apiKeyId: null,
          staffUserId: world.staff.admin1.id,
          staffEmail: world.staff.admin1.email,
        },
        comment: null,
        createdAt: expect.any(String),
      },
      {
        fromStatus: 'EXCHANGEPAYMENTWAIT',
        toStatus: 'SUCCESS',
        actor: {
          type: 'staff',
          apiKeyId: null,
          staffUserId: world.staff.operatorA.id,
          staffEmail: world.staff.operatorA.email,
        },
        comment: 'paid out',
        createdAt: expect.any(String),
      },
    ]);
    const times = res.body.history.map((h: { createdAt: string }) => Date.parse(h.createdAt));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(Date.parse(res.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(res.body.createdAt));
    const events = await recordedEvents(server.db, webhookId, id);
    expect(events.map((e) => [e.event, e.body.data.status])).toEqual([
      ['order.created', 'ORDERINIT'],
      ['order.status_changed', 'CLIENTPAYMENTWAIT'],
      ['order.status_changed', 'EXCHANGEPAYMENTWAIT'],
      ['order.status_changed', 'SUCCESS'],
    ]);
  });
});
