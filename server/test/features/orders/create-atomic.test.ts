import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryRow } from '../../../src/features/orders/repository.js';
import { insertNewOrder, reserveOrderId } from '../../../src/features/orders/repository.js';
import { call, type TestServer } from '../../helpers/server.js';
import type { World } from '../../helpers/world.js';
import { startWorld } from '../../helpers/fixture.js';
import { historyCount, orderBody, recordedEvents, subscribeBranch } from './support.js';

let server: TestServer;
let world: World;
let webhookId: string;

beforeAll(async () => {
  ({ server, world } = await startWorld());
  webhookId = await subscribeBranch(server.db, world.branches.b1);
});
afterAll(() => server?.close());

// An order is written in one statement (order, first history row, deliveries of order.created), without a transaction.
describe('creating an order writes everything or nothing', () => {
  it('a created order has its history row and its event, which names it', async () => {
    const res = await call(server, 'POST', '/partner/orders', { key: world.keys.branch, body: orderBody(world) });
    expect(res.status, res.text).toBe(201);
    expect(await historyCount(server.db, res.body.id)).toBe(1);
    const events = await recordedEvents(server.db, webhookId, res.body.id);
    expect(events.map((e) => [e.event, e.body.data])).toEqual([
      [
        'order.created',
        {
          id: res.body.id,
          status: 'ORDERINIT',
          amountSource: String(res.body.clientAmount),
          amountDest: String(res.body.exchangeAmount),
          expiresAt: res.body.expiresAt,
        },
      ],
    ]);
  });

  it('when a part of the statement fails, neither the order nor its deliveries are written', async () => {
    const id = await reserveOrderId(server.db);
    const before = (await recordedEvents(server.db, webhookId)).length;
    // The history row breaks its table's check on actor_type, after the order row was inserted in the same statement.
    const badActor = { type: 'robot', staffUserId: null } as unknown as HistoryRow['actor'];
    await expect(
      insertNewOrder(
        server.db,
        {
          id,
          hashed_id: `atomic-${id}`,
          branch_id: world.branches.b1,
          cashbox_id: world.exchanges.A,
          currency1_id: world.currencies.USD,
          currency2_id: world.currencies.EUR,
          client_amount: '10',
          exchange_amount: '9',
          operation_type: 'finop',
          offer_id: null,
          rate: null,
          is_reverse: false,
          reference_rate: null,
          user_id: null,
          payment_method_source_id: null,
          payment_method_dest_id: null,
          comment: null,
          client_comment: null,
          user_wallet: null,
          tg_nick_name: null,
          created_by_key_id: world.keyIds.branch,
          sandbox: false,
          expires_at: null,
        },
        { c1_code: 'USD', c2_code: 'EUR' },
        { orderId: id, from: null, to: 'ORDERINIT', actor: badActor },
        {
          event: 'order.created',
          branchId: world.branches.b1,
          exchangeId: world.exchanges.A,
          data: { id, status: 'ORDERINIT' },
        },
      ),
    ).rejects.toThrow(/actor_type/);
    expect(await server.db.selectFrom('orders').select('id').where('id', '=', id).executeTakeFirst()).toBeUndefined();
    expect(await recordedEvents(server.db, webhookId)).toHaveLength(before);
  });

  it('ids come from the orders sequence, increasing', async () => {
    const a = await call(server, 'POST', '/partner/orders', { key: world.keys.branch, body: orderBody(world) });
    const b = await call(server, 'POST', '/partner/orders', { key: world.keys.branch, body: orderBody(world) });
    expect(b.body.id).toBeGreaterThan(a.body.id);
  });
});
