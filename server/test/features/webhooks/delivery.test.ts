import { createHmac, timingSafeEqual } from 'node:crypto';
import { verify as octokitVerify } from '@octokit/webhooks-methods';
import { sql } from 'kysely';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { enqueue } from '../../../src/features/delivery/outbox.js';
import { LEASE_LOST, pruneDeliveries, sweep } from '../../../src/features/delivery/repository.js';
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
  // The receiver first: a test that failed with attempts still hanging would otherwise wait out their timeout.
  await receiver?.close();
  await running?.stop();
  running = undefined;
  await server.db.deleteFrom('webhooks').execute();
});
afterAll(() => server?.close());

/** Independent check of the contract's header: HMAC-SHA256 over the raw bytes, compared in constant time. */
function contractSignatureValid(secret: string, rawBody: string, header: string | undefined): boolean {
  const expected = Buffer.from(
    `sha256=${createHmac('sha256', secret).update(Buffer.from(rawBody, 'utf8')).digest('hex')}`,
  );
  const given = Buffer.from(header ?? '');
  return expected.length === given.length && timingSafeEqual(expected, given);
}

describe('a delivery', () => {
  it('carries the envelope, the contract headers and both signatures, verifiable by independent code and libraries', async () => {
    receiver = await startReceiver();
    const hook = await register(server, world.keys.branch, receiver.url);
    expect(hook.secretKey).toMatch(/^[0-9a-f]{64}$/);
    const occurredAt = new Date('2024-05-01T12:00:00.000Z');
    await emit(server, {
      branchId: world.branches.b1,
      exchangeId: world.exchanges.A,
      occurredAt,
      data: { id: 7, status: 'ORDERINIT', amountSource: '100', amountDest: '92.15', note: 'ünïcødé ✓ "quoted"' },
    });
    running = await worker(server);
    const [r] = await receiver.waitFor(1);
    const [row] = await deliveries(server, hook.id);

    expect(JSON.parse(r.body)).toEqual({
      id: expect.any(String),
      event: 'order.created',
      timestamp: '2024-05-01T12:00:00.000Z',
      data: { id: 7, status: 'ORDERINIT', amountSource: '100', amountDest: '92.15', note: 'ünïcødé ✓ "quoted"' },
    });
    expect(r.body).toBe(row.body);
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.headers['x-webhook-event']).toBe('order.created');
    expect(r.headers['x-webhook-delivery']).toBe(row.id);
    expect(r.headers['webhook-id']).toBe(row.id);
    expect(Math.abs(Number(r.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(10);

    expect(contractSignatureValid(hook.secretKey, r.body, r.headers['x-webhook-signature'] as string)).toBe(true);
    expect(contractSignatureValid('0'.repeat(64), r.body, r.headers['x-webhook-signature'] as string)).toBe(false);
    expect(await octokitVerify(hook.secretKey, r.body, r.headers['x-webhook-signature'] as string)).toBe(true);
    expect(await octokitVerify(hook.secretKey, `${r.body} `, r.headers['x-webhook-signature'] as string)).toBe(false);

    const standard = new StandardWebhook(Buffer.from(hook.secretKey, 'utf8').toString('base64'));
    const headers = r.headers as Record<string, string>;
    expect(standard.verify(r.body, headers)).toEqual(JSON.parse(r.body));
    expect(() => standard.verify(r.body, { ...headers, 'webhook-id': 'another-id' })).toThrow();
    const old = String(Math.floor(Date.now() / 1000) - 3600);
    expect(() => standard.verify(r.body, { ...headers, 'webhook-timestamp': old })).toThrow();

    await eventually(async () => (await deliveries(server, hook.id))[0].status === 'succeeded');
  });

  it('is logged with every attempt: status, duration and the first 1 KB of the answer', async () => {
    receiver = await startReceiver((_, i) =>
      i === 0 ? { status: 503, body: 'x'.repeat(3000), delayMs: 30 } : { status: 204 },
    );
    const hook = await register(server, world.keys.branch, receiver.url, ['offer.updated']);
    await emit(server, {
      event: 'offer.updated',
      branchId: world.branches.b1,
      exchangeId: world.exchanges.A,
      data: { id: 1 },
    });
    running = await worker(server, { retryBaseMs: 50 });
    const got = await receiver.waitFor(2);
    expect(got[1].headers['x-webhook-delivery']).toBe(got[0].headers['x-webhook-delivery']);
    const id = got[0].headers['x-webhook-delivery'] as string;
    const detail = await eventually(async () => {
      const res = await call(server, 'GET', `/partner/webhooks/${hook.id}/deliveries/${id}`, {
        key: world.keys.branch,
      });
      return res.body.status === 'succeeded' && res.body.attemptLog.length === 2 && res;
    });
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({
      id,
      event: 'offer.updated',
      status: 'succeeded',
      attempts: 2,
      lastResponseStatus: 204,
      lastError: null,
      nextAttemptAt: null,
    });
    expect(detail.body.payload).toMatchObject({ event: 'offer.updated', data: { id: 1 } });
    const [first, second] = detail.body.attemptLog;
    expect(first).toMatchObject({ attempt: 1, responseStatus: 503, error: null });
    expect(first.responseBody).toBe('x'.repeat(1024));
    expect(second).toMatchObject({ attempt: 2, responseStatus: 204, responseBody: '', error: null });
    // Each attempt is timed from before its request to after its answer: the first ends after the receiver answered
    // it, 30 ms after reading it, and before the retry starts (2 ms for the rounding of the clocks' milliseconds).
    expect(Number.isInteger(first.durationMs)).toBe(true);
    const firstEnd = Date.parse(first.startedAt) + first.durationMs;
    expect(firstEnd).toBeGreaterThanOrEqual(got[0].at + 30 - 2);
    expect(firstEnd).toBeLessThanOrEqual(Date.parse(second.startedAt) + 2);

    const log = await call(server, 'GET', `/partner/webhooks/${hook.id}/deliveries`, { key: world.keys.branch });
    expect(log.status).toBe(200);
    expect(log.body.meta).toEqual({ total: 1, skip: 0, limit: 25, nextCursor: null });
    expect(log.body.data[0]).toMatchObject({ id, status: 'succeeded', attempts: 2, lastResponseStatus: 204 });
  });

  it('is signed with the new secret after a rotation, under the same delivery id', async () => {
    receiver = await startReceiver((_, i) => ({ status: i === 0 ? 500 : 200 }));
    const hook = await register(server, world.keys.branch, receiver.url, ['order.created']);
    await emit(server, { branchId: world.branches.b1, exchangeId: world.exchanges.A });
    running = await worker(server, { retryBaseMs: 1500 });
    const [first] = await receiver.waitFor(1);
    const rotated = await call(server, 'POST', `/partner/webhooks/${hook.id}/rotate-secret`, {
      key: world.keys.branch,
    });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secretKey).toMatch(/^[0-9a-f]{64}$/);
    expect(rotated.body.secretKey).not.toBe(hook.secretKey);
    expect(rotated.body.note).toContain('shown only once');
    const [, second] = await receiver.waitFor(2);
    expect(second.headers['x-webhook-delivery']).toBe(first.headers['x-webhook-delivery']);
    expect(contractSignatureValid(hook.secretKey, first.body, first.headers['x-webhook-signature'] as string)).toBe(
      true,
    );
    expect(
      contractSignatureValid(rotated.body.secretKey, second.body, second.headers['x-webhook-signature'] as string),
    ).toBe(true);
    expect(contractSignatureValid(hook.secretKey, second.body, second.headers['x-webhook-signature'] as string)).toBe(
      false,
    );
  });

  it('is never written for a change whose transaction rolls back', async () => {
    receiver = await startReceiver();
    const hook = await register(server, world.keys.branch, receiver.url, ['order.created']);
    running = await worker(server);
    await expect(
      server.db.transaction().execute(async (tx) => {
        const written = await enqueue(tx, [
          { event: 'order.created', branchId: world.branches.b1, exchangeId: world.exchanges.A, data: { id: 99 } },
        ]);
        expect(written).toBe(1);
        expect(
          await tx.selectFrom('webhook_deliveries').select('id').where('webhook_id', '=', hook.id).execute(),
        ).toHaveLength(1);
        throw new Error('the order change failed');
      }),
    ).rejects.toThrow('the order change failed');
    await sleep(600);
    expect(await deliveries(server, hook.id)).toEqual([]);
    expect(receiver.received).toEqual([]);
  });

  it('of a deleted webhook is abandoned, never sent', async () => {
    receiver = await startReceiver(() => ({ status: 500 }));
    const hook = await register(server, world.keys.branch, receiver.url, ['order.created']);
    // The failed first attempt's retry must not come due before the worker is stopped; the second delivery, due
    // at once, is what the next worker would send if the deletion left it.
    running = await worker(server, { retryBaseMs: 60_000 });
    await emit(server, { branchId: world.branches.b1, exchangeId: world.exchanges.A });
    await receiver.waitFor(1);
    await eventually(
      async () =>
        (await deliveries(server, hook.id))[0]?.status === 'pending' &&
        (await deliveries(server, hook.id))[0].leased_by === null,
    );
    await running.stop();
    await emit(server, { branchId: world.branches.b1, exchangeId: world.exchanges.A });
    expect((await deliveries(server, hook.id)).map((d) => d.status)).toEqual(['pending', 'pending']);

    const res = await call(server, 'DELETE', `/partner/webhooks/${hook.id}`, { key: world.keys.branch });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    running = await worker(server);
    await sleep(1000);
    expect(receiver.received).toHaveLength(1);
    expect(await deliveries(server, hook.id)).toEqual([]);
  });

  it('can be retried by hand after it failed, once more, under the same id', async () => {
    let healthy = false;
    receiver = await startReceiver(() => ({ status: healthy ? 200 : 500 }));
    const hook = await register(server, world.keys.branch, receiver.url, ['order.created']);
    running = await worker(server, { maxRetries: 0 });
    await emit(server, { branchId: world.branches.b1, exchangeId: world.exchanges.A });
    const [first] = await receiver.waitFor(1);
    const id = first.headers['x-webhook-delivery'] as string;
    await eventually(async () => (await deliveries(server, hook.id))[0].status === 'failed');
    healthy = true;
    const res = await call(server, 'POST', `/partner/webhooks/${hook.id}/deliveries/${id}/retry`, {
      key: world.keys.branch,
    });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ id, status: 'pending', attempts: 1 });
    const [, second] = await receiver.waitFor(2);
    expect(second.headers['x-webhook-delivery']).toBe(id);
    await eventually(async () => (await deliveries(server, hook.id))[0].status === 'succeeded');

    const other = await call(
      server,
      'POST',
      `/partner/webhooks/${hook.id}/deliveries/00000000-0000-4000-8000-000000000000/retry`,
      { key: world.keys.branch },
    );
    expect(other.status).toBe(404);
    expect(other.body).toEqual({ statusCode: 404, error: 'Not Found', errors: { delivery: 'notFound' } });
    const foreign = await call(server, 'POST', `/partner/webhooks/${hook.id}/deliveries/${id}/retry`, {
      key: world.keys.otherBranch,
    });
    expect(foreign.status).toBe(404);
  });

  it('of a slow receiver does not hold back the other webhooks', async () => {
    receiver = await startReceiver((r) =>
      r.headers['x-webhook-event'] === 'offer.updated' ? 'hang' : { status: 200 },
    );
    await register(server, world.keys.branch, receiver.url, ['offer.updated']);
    const fast = await register(server, world.keys.branch, receiver.url, ['order.created']);
    for (let i = 0; i < 20; i++)
      await emit(server, {
        event: 'offer.updated',
        branchId: world.branches.b1,
        exchangeId: world.exchanges.A,
        data: { id: i },
      });
    for (let i = 0; i < 5; i++) await emit(server, { branchId: world.branches.b1, exchangeId: world.exchanges.A });
    // Hung attempts never time out here: a timeout would free their slots for the next slow deliveries.
    running = await worker(server, { concurrency: 8, timeoutMs: 60_000 });
    // Within eventually's default: well under the hung attempts' 60 s, which is what holding back would take.
    await eventually(async () => (await deliveries(server, fast.id)).every((d) => d.status === 'succeeded'));
    // The slow webhook holds at most half of the worker's slots.
    const slow = () => receiver.received.filter((r) => r.headers['x-webhook-event'] === 'offer.updated').length;
    await eventually(async () => slow() === 4);
    await sleep(200);
    expect(slow()).toBe(4);
    await receiver.close();
  });

  it('of a slow receiver holds at most half of the slots, counting those it holds already', async () => {
    receiver = await startReceiver(() => 'hang');
    await register(server, world.keys.branch, receiver.url, ['offer.updated']);
    running = await worker(server, { concurrency: 8, timeoutMs: 60_000 });
    const slow = (id: number) => ({
      event: 'offer.updated' as const,
      branchId: world.branches.b1,
      exchangeId: world.exchanges.A,
      data: { id },
    });
    await emit(server, slow(0));
    await receiver.waitFor(1);
    // Ten due at once, claimed while one is in flight: three more fit, not another four.
    await server.db.transaction().execute((tx) =>
      enqueue(
        tx,
        Array.from({ length: 10 }, (_, i) => slow(i + 1)),
      ),
    );
    await eventually(async () => receiver.received.length >= 4);
    await sleep(300);
    expect(receiver.received).toHaveLength(4);
    await receiver.close();
  });

  it('in flight is finished and recorded when the worker stops', async () => {
    receiver = await startReceiver(() => ({ status: 200, delayMs: 400 }));
    const hook = await register(server, world.keys.branch, receiver.url, ['order.created']);
    running = await worker(server);
    await emit(server, { branchId: world.branches.b1, exchangeId: world.exchanges.A });
    await receiver.waitFor(1);
    await running.stop();
    const [d] = await deliveries(server, hook.id);
    expect(d).toMatchObject({ status: 'succeeded', attempts: 1, leased_by: null, lease_expires_at: null });
  });
});

const prunedTotal = async () => (await server.ctx.metrics.webhookDeliveriesPruned.get()).values[0]?.value ?? 0;

describe('a lost lease', () => {
  // The worker that claimed the attempt is gone: its lease ran out with no outcome recorded.
  const orphan = async (hookId: string, attempts: number) => {
    await emit(server, { branchId: world.branches.b1, exchangeId: world.exchanges.A });
    const [d] = await deliveries(server, hookId);
    await server.db
      .updateTable('webhook_deliveries')
      .set({
        attempts,
        leased_by: 'gone-worker',
        lease_expires_at: sql`now() - interval '1 second'`,
        next_attempt_at: sql`now() + interval '1 day'`,
      })
      .where('id', '=', d.id)
      .execute();
    return d.id;
  };
  const row = (id: string) =>
    server.db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('on the last attempt earns one more attempt, since the receiver may have answered 2xx; lost again, the delivery fails', async () => {
    receiver = await startReceiver();
    const hook = await register(server, world.keys.branch, receiver.url, ['order.created']);
    const id = await orphan(hook.id, 6);
    expect(await sweep(server.db, 6)).toMatchObject({ released: 1, failed: 0 });
    expect(await row(id)).toMatchObject({
      status: 'pending',
      attempts: 6,
      leased_by: null,
      lease_expires_at: null,
      last_error: LEASE_LOST,
    });

    // The grace attempt is claimed (attempt 7) and its lease is lost too: now the delivery ends.
    await server.db
      .updateTable('webhook_deliveries')
      .set({ attempts: 7, leased_by: 'gone-worker', lease_expires_at: sql`now() - interval '1 second'` })
      .where('id', '=', id)
      .execute();
    expect(await sweep(server.db, 6)).toMatchObject({ released: 0, failed: 1 });
    expect(await row(id)).toMatchObject({ status: 'failed', attempts: 7, leased_by: null });
    const log = await server.db
      .selectFrom('webhook_attempts')
      .select(['attempt_number', 'error'])
      .where('delivery_id', '=', id)
      .orderBy('attempt_number')
      .execute();
    expect(log.map((a) => a.attempt_number)).toEqual([6, 7]);
    expect(log.every((a) => a.error?.startsWith(LEASE_LOST))).toBe(true);
  });

  it('on the last attempt is sent once more by a worker, and a 2xx then succeeds', async () => {
    receiver = await startReceiver();
    const hook = await register(server, world.keys.branch, receiver.url, ['order.created']);
    const id = await orphan(hook.id, 6);
    await sweep(server.db, 6);
    running = await worker(server, { maxRetries: 5 });
    const [sent] = await receiver.waitFor(1);
    expect(sent.headers['x-webhook-delivery']).toBe(id);
    expect(sent.headers['x-webhook-attempt']).toBe('7');
    await eventually(async () => (await row(id)).status === 'succeeded');
  });
});

describe('delivery retention', () => {
  it('deletes finished deliveries and their attempts after WEBHOOK_RETENTION_DAYS, and keeps pending and recent ones', async () => {
    receiver = await startReceiver();
    const hook = await register(server, world.keys.branch, receiver.url);
    for (let i = 0; i < 4; i++)
      await emit(server, {
        branchId: world.branches.b1,
        exchangeId: world.exchanges.A,
        data: { id: i, status: 'ORDERINIT' },
      });
    running = await worker(server);
    await receiver.waitFor(4);
    await eventually(async () => (await deliveries(server, hook.id)).every((d) => d.status === 'succeeded'));
    await running.stop();
    running = undefined;

    // Two finished long ago, one failed long ago, one still pending though old, one recent.
    const [oldA, oldB, oldFailed, recent] = (await deliveries(server, hook.id)).map((d) => d.id);
    await emit(server, {
      branchId: world.branches.b1,
      exchangeId: world.exchanges.A,
      data: { id: 99, status: 'ORDERINIT' },
    });
    const pending = (await deliveries(server, hook.id)).find((d) => d.status === 'pending')!.id;
    const age = (ids: string[], days: number) =>
      server.db
        .updateTable('webhook_deliveries')
        .set({ updated_at: sql`now() - make_interval(days => ${days})` })
        .where('id', 'in', ids)
        .execute();
    await age([oldA, oldB, oldFailed, pending], 31);
    await age([recent], 29);
    await server.db.updateTable('webhook_deliveries').set({ status: 'failed' }).where('id', '=', oldFailed).execute();
    await server.db
      .updateTable('webhook_deliveries')
      .set({ next_attempt_at: sql`now() + interval '1 day'` })
      .where('id', '=', pending)
      .execute();
    const before = await prunedTotal();

    running = await worker(server, { retentionDays: 30 });
    await eventually(async () => (await deliveries(server, hook.id)).length === 2);
    const left = await deliveries(server, hook.id);
    expect(left.map((d) => d.id).sort()).toEqual([recent, pending].sort());
    const attempts = await server.db
      .selectFrom('webhook_attempts')
      .select('delivery_id')
      .where('delivery_id', 'in', [oldA, oldB, oldFailed, recent])
      .execute();
    expect(attempts.map((a) => a.delivery_id)).toEqual([recent]);
    expect(await prunedTotal()).toBe(before + 3);
  });

  it('repeats full batches within one sweep, up to its bound, so old deliveries do not pile up', async () => {
    receiver = await startReceiver();
    const hook = await register(server, world.keys.branch, receiver.url);
    for (let i = 0; i < 7; i++)
      await emit(server, {
        branchId: world.branches.b1,
        exchangeId: world.exchanges.A,
        data: { id: 200 + i, status: 'ORDERINIT' },
      });
    await server.db
      .updateTable('webhook_deliveries')
      .set({ status: 'succeeded', updated_at: sql`now() - make_interval(days => 40)` })
      .where('webhook_id', '=', hook.id)
      .execute();

    // Batches of 2, at most 2 a sweep: 4 of the 7 go, then the next sweep takes the other 3 (2 + 1).
    expect(await pruneDeliveries(server.db, 30, 2, 2)).toBe(4);
    expect(await deliveries(server, hook.id)).toHaveLength(3);
    expect(await pruneDeliveries(server.db, 30, 2, 2)).toBe(3);
    expect(await deliveries(server, hook.id)).toHaveLength(0);
    expect(await pruneDeliveries(server.db, 30, 2, 2)).toBe(0);
  });
});
