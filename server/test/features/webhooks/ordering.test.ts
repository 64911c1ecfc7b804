import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookWorker } from '../../../src/features/delivery/worker.js';
import type { OrderStatus } from '../../../src/db/schema.js';
import { call, type TestServer } from '../../helpers/server.js';
import type { StaffName } from '../../helpers/staff.js';
import type { World } from '../../helpers/world.js';
import { startWorld } from '../../helpers/fixture.js';
import { register, startReceiver, worker, type Receiver } from './support.js';

/**
 * Deliveries are not sent in order (docs/webhooks.md, Deliveries): the worker sends side by side, and a failed
 * attempt is retried later, after the deliveries of later changes. The envelope's `id` is a random UUID and does not
 * order them; an order's events are put in order by their status, which only moves forward (SUCCESS and CANCEL
 * are final), or by reading the order again.
 */
let server: TestServer;
let world: World;
let tokens: Record<StaffName, string>;
let receiver: Receiver;
let running: WebhookWorker;
/** The index of the one request answered 502: the first delivery of the move to CLIENTPAYMENTWAIT. */
let failed = -1;

/** How far along a status is: an order's status only ever moves to a higher rank. */
const RANK: Record<OrderStatus, number> = {
  ORDERINIT: 0,
  CLIENTPAYMENTWAIT: 1,
  EXCHANGEPAYMENTWAIT: 2,
  CASHOUT: 3,
  SUCCESS: 4,
  CANCEL: 4,
};
const RETRY_AFTER_MS = 2_000;

beforeAll(async () => {
  ({ server, world, tokens } = await startWorld());
  receiver = await startReceiver((r, index) => {
    const body = JSON.parse(r.body);
    if (failed === -1 && body.event === 'order.status_changed' && body.status === 'CLIENTPAYMENTWAIT') {
      failed = index;
      return { status: 502, body: 'bad gateway' };
    }
    return { status: 200, body: 'ok' };
  });
  await register(server, world.keys.branch, receiver.url, ['order.created', 'order.status_changed', 'order.cancelled']);
});
afterAll(async () => {
  await running?.stop();
  await receiver?.close();
  await server?.close();
});

type Envelope = { id: string; event: string; timestamp: string; data: { id: number; status: OrderStatus } };

describe('the order of deliveries', () => {
  it("can differ from the order of the changes; an order's statuses, which only move forward, tell the true order", async () => {
    const placed = await call(server, 'POST', '/partner/orders', {
      key: world.keys.branch,
      body: {
        cashbox: { id: world.exchanges.A },
        currency1: { id: world.currencies.USD },
        currency2: { id: world.currencies.EUR },
        operationType: 'offer',
        clientAmount: 100,
      },
    });
    expect(placed.status, placed.text).toBe(201);
    const id = placed.body.id as number;
    for (const status of ['CLIENTPAYMENTWAIT', 'EXCHANGEPAYMENTWAIT', 'CANCEL']) {
      const moved = await call(server, 'POST', `/admin/orders/${id}/status`, {
        token: tokens.admin1,
        body: { status },
      });
      expect(moved.status, moved.text).toBe(200);
    }
    // Started once every change is made, the worker sends the five deliveries side by side: only the retry, due
    // RETRY_AFTER_MS after its failure, waits on the clock, which keeps the test from hanging on the machine's speed.
    running = await worker(server, { retryBaseMs: RETRY_AFTER_MS });

    // order.created, CLIENTPAYMENTWAIT (502, then its retry), EXCHANGEPAYMENTWAIT, CANCEL and order.cancelled.
    const got = await receiver.waitFor(6, RETRY_AFTER_MS + 20_000);
    expect(got).toHaveLength(6);
    const arrived = got.flatMap((r, i) => (i === failed ? [] : [JSON.parse(r.body) as Envelope]));
    expect(arrived.every((e) => e.data.id === id)).toBe(true);
    expect(new Set(arrived.map((e) => e.id)).size).toBe(5);

    // The true order of the changes: the order's history.
    const history = (
      await server.db
        .selectFrom('order_status_history')
        .select('to_status')
        .where('order_id', '=', id)
        .orderBy('id')
        .execute()
    ).map((h) => h.to_status);
    expect(history).toEqual(['ORDERINIT', 'CLIENTPAYMENTWAIT', 'EXCHANGEPAYMENTWAIT', 'CANCEL']);

    // (1) The arrival order is not the order of the changes: the retried CLIENTPAYMENTWAIT came after CANCEL.
    const statusChanges = arrived.filter((e) => e.event === 'order.status_changed').map((e) => e.data.status);
    expect(statusChanges).not.toEqual(history.slice(1));
    expect(arrived.at(-1)).toMatchObject({ event: 'order.status_changed', data: { status: 'CLIENTPAYMENTWAIT' } });
    expect(got.at(-1)!.headers['x-webhook-attempt']).toBe('2');

    // (2) Ordered by how far along their status is, the deliveries give the true order of the changes.
    const byStatus = [
      ...new Set([...arrived].sort((a, b) => RANK[a.data.status] - RANK[b.data.status]).map((e) => e.data.status)),
    ];
    expect(byStatus).toEqual(history);

    // The documented receiver: keep the furthest status applied, ignore an event whose status is not further along.
    let applied: OrderStatus | undefined;
    const ignored: Envelope[] = [];
    for (const e of arrived) {
      if (applied === undefined || RANK[e.data.status] > RANK[applied]) applied = e.data.status;
      else ignored.push(e);
    }
    expect(applied).toBe('CANCEL');
    expect(ignored.map((e) => [e.event, e.data.status])).toContainEqual(['order.status_changed', 'CLIENTPAYMENTWAIT']);
    // Reading the order again gives the same answer.
    const read = await call(server, 'GET', `/partner/orders/${id}`, { key: world.keys.branch });
    expect(read.body.status).toBe(applied);
  });
});
