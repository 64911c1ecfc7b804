import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderStatus } from '../../../src/db/schema.js';
import { call, type TestServer } from '../../helpers/server.js';
import type { StaffName } from '../../helpers/staff.js';
import type { World } from '../../helpers/world.js';
import { startWorld } from '../../helpers/fixture.js';
import { historyCount, orderIn, recordedEvents, subscribeBranch } from './support.js';

let server: TestServer;
let world: World;
let tokens: Record<StaffName, string>;
let webhookId: string;
let operator: string;

const orderInStatus = (status: OrderStatus) => orderIn(server, world, operator, status);
const historyOf = (id: number) => historyCount(server.db, id);

beforeAll(async () => {
  ({ server, world, tokens } = await startWorld());
  webhookId = await subscribeBranch(server.db, world.branches.b1);
  operator = tokens.operatorA;
});
afterAll(() => server?.close());

describe('POST /partner/orders/{id}/cancel', () => {
  it.each(['ORDERINIT', 'CLIENTPAYMENTWAIT'] as const)(
    'from %s → 200 CANCEL, history and both events',
    async (from) => {
      const id = await orderInStatus(from);
      const res = await call(server, 'POST', `/partner/orders/${id}/cancel`, { key: world.keys.operatorA });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ id, status: 'CANCEL' });
      const last = await server.db
        .selectFrom('order_status_history')
        .selectAll()
        .where('order_id', '=', id)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      expect(last).toMatchObject({
        from_status: from,
        to_status: 'CANCEL',
        actor_type: 'api_key',
        api_key_id: world.keyIds.operatorA,
        staff_user_id: world.staff.operatorA.id,
      });
      const events = (await recordedEvents(server.db, webhookId, id)).slice(-2);
      expect(events.map((e) => e.body)).toEqual([
        {
          id: expect.any(String),
          event: 'order.status_changed',
          timestamp: expect.any(String),
          status: 'CANCEL',
          data: { id, status: 'CANCEL' },
        },
        {
          id: expect.any(String),
          event: 'order.cancelled',
          timestamp: expect.any(String),
          data: { id, status: 'CANCEL' },
        },
      ]);
      expect(events[0].body.timestamp).toBe(events[1].body.timestamp);
    },
  );

  it.each(['EXCHANGEPAYMENTWAIT', 'CASHOUT', 'SUCCESS', 'CANCEL'] as const)(
    "from %s → 422 with the contract's message",
    async (from) => {
      const id = await orderInStatus(from);
      const before = await historyOf(id);
      const res = await call(server, 'POST', `/partner/orders/${id}/cancel`, { key: world.keys.branch });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        statusCode: 422,
        message: `Order in status ${from} cannot be cancelled`,
        error: 'Unprocessable Entity',
      });
      expect(await historyOf(id)).toBe(before);
    },
  );

  it('a read-only key gets 403 and the order stays', async () => {
    const id = await orderInStatus('ORDERINIT');
    const res = await call(server, 'POST', `/partner/orders/${id}/cancel`, { key: world.keys.readOnlyA });
    expect(res.status).toBe(403);
    expect((await call(server, 'GET', `/partner/orders/${id}`, { key: world.keys.readOnlyA })).body.status).toBe(
      'ORDERINIT',
    );
  });
});
