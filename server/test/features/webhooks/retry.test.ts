import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookWorker } from '../../../src/features/delivery/worker.js';
import { call, type TestServer } from '../../helpers/server.js';
import type { World } from '../../helpers/world.js';
import { deliveries, emit, eventually, register, sleep, startReceiver, worker, type Receiver } from './support.js';
import { startWorld } from '../../helpers/fixture.js';

let server: TestServer;
let world: World;
let receiver: Receiver;
let running: WebhookWorker | undefined;

beforeAll(async () => ({ server, world } = await startWorld()));
afterEach(async () => {
  await running?.stop();
  running = undefined;
  await receiver?.close();
  await server.db.deleteFrom('webhooks').execute();
});
afterAll(() => server?.close());

const orderEvent = () => emit(server, { branchId: world.branches.b1, exchangeId: world.exchanges.A });
const attemptsOf = (deliveryId: string) =>
  server.db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where('delivery_id', '=', deliveryId)
    .orderBy('attempt_number')
    .execute();

describe('retries', () => {
  it('follow base ×1, ×2, ×4, ×8, ×16 after failures, then the delivery fails after 6 attempts', async () => {
    const base = 150;
    receiver = await startReceiver(() => ({ status: 500, body: 'down' }));
    const hook = await register(server, world.keys.branch, receiver.url, ['order.created']);
    // Polling once a minute: each retry must come from the worker's own wake-up at its due time, not from a poll.
    running = await worker(server, { retryBaseMs: base, pollMs: 60_000 });
    await orderEvent();
    const got = await receiver.waitFor(6, 15_000);
    const gaps = got.slice(1).map((r, i) => r.at - got[i].at);
    gaps.forEach((gap, i) => {
      const expected = base * 2 ** i;
      // The next attempt is scheduled when the failure is recorded, after the receiver saw the request.
      expect(gap, `gap ${i + 1} of ${gaps.join(', ')} ms`).toBeGreaterThanOrEqual(expected);
      // Generous on the upper side (the suite shares two cores, and a busy moment only ever adds delay), yet far
      // below the minute a retry found by polling would wait.
      expect(gap, `gap ${i + 1} of ${gaps.join(', ')} ms`).toBeLessThan(expected * 1.5 + 2_000);
    });
    const total = gaps.reduce((a, b) => a + b);
    expect(total).toBeGreaterThanOrEqual(31 * base);
    expect(new Set(got.map((r) => r.headers['x-webhook-delivery'])).size).toBe(1);
    expect(got.map((r) => r.headers['x-webhook-attempt'])).toEqual(['1', '2', '3', '4', '5', '6']);

    const [d] = await eventually(async () => {
      const rows = await deliveries(server, hook.id);
      return rows[0].status === 'failed' && rows;
    });
    expect(d).toMatchObject({ attempts: 6, last_response_status: 500, last_error: 'HTTP 500', lease_expires_at: null });
    expect((await attemptsOf(d.id)).map((a) => [a.attempt_number, a.response_status, a.response_body])).toEqual(
      [1, 2, 3, 4, 5, 6].map((n) => [n, 500, 'down']),
    );
    await sleep(1000);
    expect(receiver.received).toHaveLength(6);
    const res = await call(server, 'GET', `/partner/webhooks/${hook.id}`, { key: world.keys.branch });
    expect(res.body).toMatchObject({ isActive: true, failCount: 6 });
  });

  it('happen when the receiver does not answer within the timeout', async () => {
    receiver = await startReceiver(() => 'hang');
    const hook = await register(server, world.keys.branch, receiver.url, ['order.created']);
    running = await worker(server, { timeoutMs: 300, retryBaseMs: 50, maxRetries: 1 });
    await orderEvent();
    await receiver.waitFor(2, 5000);
    const [d] = await eventually(async () => {
      const rows = await deliveries(server, hook.id);
      return rows[0].status === 'failed' && rows;
    });
    expect(d).toMatchObject({ attempts: 2, last_response_status: null, last_error: 'timeout after 300 ms' });
    const log = await attemptsOf(d.id);
    expect(log.map((a) => a.error)).toEqual(['timeout after 300 ms', 'timeout after 300 ms']);
    for (const a of log) expect(a.duration_ms).toBeGreaterThanOrEqual(295);
  });

  it('treat a redirect as a failure and never follow it', async () => {
    const target = await startReceiver();
    receiver = await startReceiver(() => ({ status: 302, headers: { location: target.url } }));
    const hook = await register(server, world.keys.branch, receiver.url, ['order.created']);
    running = await worker(server, { maxRetries: 0 });
    await orderEvent();
    await receiver.waitFor(1);
    const [d] = await eventually(async () => {
      const rows = await deliveries(server, hook.id);
      return rows[0].status === 'failed' && rows;
    });
    expect(d).toMatchObject({ last_response_status: 302, last_error: 'redirect not followed' });
    expect(target.received).toHaveLength(0);
    await target.close();
  });
});

describe('deactivation', () => {
  it('comes after exactly WEBHOOK_DEACTIVATE_AFTER consecutive failed attempts; nothing is sent afterwards', async () => {
    receiver = await startReceiver(() => ({ status: 500 }));
    const hook = await register(server, world.keys.branch, receiver.url, ['order.created']);
    running = await worker(server, { retryBaseMs: 30, deactivateAfter: 3 });
    await orderEvent();
    await receiver.waitFor(3);
    const [d] = await eventually(async () => {
      const rows = await deliveries(server, hook.id);
      return rows[0].status === 'abandoned' && rows;
    });
    expect(d.attempts).toBe(3);
    const res = await call(server, 'GET', `/partner/webhooks/${hook.id}`, { key: world.keys.branch });
    expect(res.body).toMatchObject({ isActive: false, failCount: 3 });

    await orderEvent();
    await sleep(700);
    expect(receiver.received).toHaveLength(3);
    expect(await deliveries(server, hook.id)).toHaveLength(1);

    receiver.reply = () => ({ status: 200 });
    const again = await call(server, 'POST', `/partner/webhooks/${hook.id}/reactivate`, { key: world.keys.branch });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: hook.id, isActive: true, failCount: 0 });
    expect(again.body.secretKey).toBeUndefined();
    await orderEvent();
    await receiver.waitFor(4);
    await eventually(async () => (await deliveries(server, hook.id)).some((row) => row.status === 'succeeded'));
  });

  it('counts consecutive failures only: a success resets failCount', async () => {
    receiver = await startReceiver((_, i) => ({ status: i < 2 ? 500 : 200 }));
    const hook = await register(server, world.keys.branch, receiver.url, ['order.created']);
    running = await worker(server, { retryBaseMs: 30, deactivateAfter: 3 });
    await orderEvent();
    await receiver.waitFor(3);
    await eventually(async () => (await deliveries(server, hook.id))[0].status === 'succeeded');
    const res = await call(server, 'GET', `/partner/webhooks/${hook.id}`, { key: world.keys.branch });
    expect(res.body).toMatchObject({ isActive: true, failCount: 0 });
  });
});
