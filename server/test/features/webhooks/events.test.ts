import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookWorker } from '../../../src/features/delivery/worker.js';
import { call, type TestServer } from '../../helpers/server.js';
import type { World } from '../../helpers/world.js';
import { startWorld } from '../../helpers/fixture.js';
import { eventually, register, startReceiver, worker, type Receiver } from './support.js';

let server: TestServer;
let world: World;
let receiver: Receiver;
let running: WebhookWorker;
let secret: string;

beforeAll(async () => {
  ({ server, world } = await startWorld());
  receiver = await startReceiver();
  secret = (await register(server, world.keys.branch, receiver.url)).secretKey;
  running = await worker(server);
});
afterAll(async () => {
  await running?.stop();
  await receiver?.close();
  await server?.close();
});

const token = async (who: string) => (await server.ctx.tokens.sign(world.staff[who].id)).accessToken;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The next `n` requests after `from`, as parsed envelopes with their event header. */
async function next(from: number, n: number) {
  const got = (await receiver.waitFor(from + n)).slice(from, from + n);
  return got.map((r) => ({ header: r.headers['x-webhook-event'], envelope: JSON.parse(r.body) }));
}

describe("events from the product's own changes, end to end", () => {
  it('order.created when a partner places an order', async () => {
    const from = receiver.received.length;
    const res = await call(server, 'POST', '/partner/orders', {
      key: world.keys.branch,
      body: {
        cashbox: { id: world.exchanges.A },
        currency1: { id: world.currencies.USD },
        currency2: { id: world.currencies.EUR },
        operationType: 'offer',
        clientAmount: 100,
      },
    });
    expect(res.status).toBe(201);
    const [e] = await next(from, 1);
    expect(e.header).toBe('order.created');
    expect(e.envelope).toEqual({
      id: expect.stringMatching(UUID),
      event: 'order.created',
      timestamp: expect.stringMatching(ISO),
      data: {
        id: res.body.id,
        status: 'ORDERINIT',
        amountSource: '100',
        amountDest: '92.15',
        expiresAt: res.body.expiresAt,
      },
    });
  });

  it('order.status_changed with a top-level status on each staff move; order.cancelled too on cancellation', async () => {
    // Counted before the request: its delivery can arrive before the response is read.
    const created = receiver.received.length;
    const order = await call(server, 'POST', '/partner/orders', {
      key: world.keys.branch,
      body: {
        cashbox: { id: world.exchanges.A },
        currency1: { id: world.currencies.USD },
        currency2: { id: world.currencies.EUR },
        operationType: 'offer',
        clientAmount: 50,
      },
    });
    await receiver.waitFor(created + 1);
    const id = order.body.id;
    const from = receiver.received.length;
    const moved = await call(server, 'POST', `/admin/orders/${id}/status`, {
      token: await token('admin1'),
      body: { status: 'CLIENTPAYMENTWAIT' },
    });
    expect(moved.status).toBe(200);
    const [changed] = await next(from, 1);
    expect(changed.header).toBe('order.status_changed');
    expect(changed.envelope).toEqual({
      id: expect.stringMatching(UUID),
      event: 'order.status_changed',
      timestamp: expect.stringMatching(ISO),
      status: 'CLIENTPAYMENTWAIT',
      data: { id, status: 'CLIENTPAYMENTWAIT' },
    });

    const cancelled = await call(server, 'POST', `/partner/orders/${id}/cancel`, { key: world.keys.branch });
    expect(cancelled.status).toBe(200);
    const both = await next(from + 1, 2);
    const byEvent = Object.fromEntries(both.map((e) => [e.header, e.envelope]));
    expect(byEvent['order.status_changed']).toEqual({
      id: expect.stringMatching(UUID),
      event: 'order.status_changed',
      timestamp: expect.stringMatching(ISO),
      status: 'CANCEL',
      data: { id, status: 'CANCEL' },
    });
    expect(byEvent['order.cancelled']).toEqual({
      id: expect.stringMatching(UUID),
      event: 'order.cancelled',
      timestamp: expect.stringMatching(ISO),
      data: { id, status: 'CANCEL' },
    });
    expect(byEvent['order.cancelled'].timestamp).toBe(byEvent['order.status_changed'].timestamp);
  });

  it('offer.updated on every offer creation and change, with decimal strings', async () => {
    const from = receiver.received.length;
    const created = await call(server, 'POST', '/admin/offers', {
      token: await token('admin1'),
      body: {
        exchangeId: world.exchanges.B,
        currency1Id: world.currencies.BTC,
        currency2Id: world.currencies.EUR,
        rate: '59000.5',
        minAmount: '0.001',
        maxAmount: '2',
      },
    });
    expect(created.status).toBe(201);
    const patched = await call(server, 'PATCH', `/admin/offers/${created.body.id}`, {
      token: await token('admin1'),
      body: { rate: '59100.25', isActive: false },
    });
    expect(patched.status).toBe(200);
    // Two deliveries to one webhook may be sent side by side, so they are told apart by their rate, not their order.
    const both = await next(from, 2);
    const [first, second] = ['59000.5', '59100.25'].map((rate) => both.find((e) => e.envelope.data.rate === rate));
    const data = (rate: string, isActive: boolean) => ({
      id: created.body.id,
      exchangeId: world.exchanges.B,
      currency1: { id: world.currencies.BTC, code: 'BTC' },
      currency2: { id: world.currencies.EUR, code: 'EUR' },
      rate,
      minAmount: '0.001',
      maxAmount: '2',
      isActive,
      updatedAt: expect.stringMatching(ISO),
    });
    expect(first).toEqual({
      header: 'offer.updated',
      envelope: {
        id: expect.stringMatching(UUID),
        event: 'offer.updated',
        timestamp: expect.stringMatching(ISO),
        data: data('59000.5', true),
      },
    });
    expect(second).toEqual({
      header: 'offer.updated',
      envelope: {
        id: expect.stringMatching(UUID),
        event: 'offer.updated',
        timestamp: expect.stringMatching(ISO),
        data: data('59100.25', false),
      },
    });
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
  });

  it('no event for a refused change', async () => {
    const created = receiver.received.length;
    const order = await call(server, 'POST', '/partner/orders', {
      key: world.keys.branch,
      body: {
        cashbox: { id: world.exchanges.A },
        currency1: { id: world.currencies.USD },
        currency2: { id: world.currencies.EUR },
        operationType: 'offer',
        clientAmount: 20,
      },
    });
    await receiver.waitFor(created + 1);
    const before = await server.db.selectFrom('webhook_deliveries').select('id').execute();
    const refused = await call(server, 'POST', `/admin/orders/${order.body.id}/status`, {
      token: await token('admin1'),
      body: { status: 'SUCCESS' },
    });
    expect(refused.status).toBe(422);
    expect(await server.db.selectFrom('webhook_deliveries').select('id').execute()).toHaveLength(before.length);
  });

  it('shows in the metrics: deliveries by outcome, attempt latency, lag and queue depth', async () => {
    // An outcome is counted once it is recorded, which can come a moment after the receiver saw the request.
    await eventually(async () =>
      (await server.db.selectFrom('webhook_deliveries').select('status').execute()).every(
        (d) => d.status === 'succeeded',
      ),
    );
    const text = await (await fetch(`${server.url}/metrics`)).text();
    const value = (line: string) =>
      Number(
        text
          .split('\n')
          .find((l) => l.startsWith(line))
          ?.split(' ')
          .at(-1),
      );
    expect(value('pxs_webhook_deliveries_total{outcome="success"}')).toBeGreaterThanOrEqual(7);
    expect(value('pxs_webhook_attempt_duration_seconds_count')).toBeGreaterThanOrEqual(7);
    expect(value('pxs_webhook_delivery_lag_seconds_count')).toBeGreaterThanOrEqual(7);
    expect(text).toMatch(/^pxs_webhook_queue_depth \d+$/m);
  });
});
