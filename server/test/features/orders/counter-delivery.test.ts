import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type TestServer } from '../../helpers/server.js';
import type { StaffName } from '../../helpers/staff.js';
import type { World } from '../../helpers/world.js';
import { startWorld } from '../../helpers/fixture.js';
import { register, startReceiver, worker } from '../webhooks/support.js';
import { orderBody } from './support.js';

// A file of its own: a test worker may only call local receivers, so this database has no other webhook.
let server: TestServer;
let world: World;
let tokens: Record<StaffName, string>;

beforeAll(async () => {
  ({ server, world, tokens } = await startWorld());
});
afterAll(() => server?.close());

const counter = (body: unknown) => call(server, 'POST', '/admin/orders', { token: tokens.operatorA, body });
const partner = (body: unknown) => call(server, 'POST', '/partner/orders', { key: world.keys.operatorA, body });

describe('a counter order at the receiver', () => {
  it("is delivered as order.created to the webhook of the exchange's branch, as a partner's order is", async () => {
    const receiver = await startReceiver();
    const running = await worker(server);
    try {
      await register(server, world.keys.branch, receiver.url, ['order.created']);
      const partnerOrder = await partner(orderBody(world, { clientAmount: 20 }));
      const counterOrder = await counter(orderBody(world, { clientAmount: 30 }));
      expect([partnerOrder.status, counterOrder.status]).toEqual([201, 201]);
      const received = (await receiver.waitFor(2)).map((r) => JSON.parse(r.body));
      expect(received.map((b) => [b.event, b.data.id]).sort()).toEqual(
        [
          ['order.created', partnerOrder.body.id],
          ['order.created', counterOrder.body.id],
        ].sort(),
      );
      expect(received.find((b) => b.data.id === counterOrder.body.id).data).toEqual({
        id: counterOrder.body.id,
        status: 'ORDERINIT',
        amountSource: '30',
        amountDest: '27.64',
        expiresAt: counterOrder.body.expiresAt,
      });
    } finally {
      await running.stop();
      await receiver.close();
    }
  });
});
