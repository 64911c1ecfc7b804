import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorld } from '../../helpers/fixture.js';
import { call, type TestServer } from '../../helpers/server.js';
import type { StaffName } from '../../helpers/staff.js';
import type { World } from '../../helpers/world.js';
import { emit, eventually, register, startReceiver, worker, type Receiver } from './support.js';

/** The back office's view of a webhook in trouble: one delivery's attempts, a retry, a secret rotation. */
let server: TestServer;
let world: World;
let tokens: Record<StaffName, string>;
let receiver: Receiver;
let failing = true;
let stopWorker: () => Promise<void>;

beforeAll(async () => {
  ({ server, world, tokens } = await startWorld());
  receiver = await startReceiver(() =>
    failing ? { status: 503, body: 'down for maintenance' } : { status: 200, body: 'ok' },
  );
  const w = await worker(server, { maxRetries: 1, retryBaseMs: 50 });
  stopWorker = () => w.stop();
});
afterAll(async () => {
  await stopWorker?.();
  await receiver?.close();
  await server?.close();
});

const get = (who: StaffName, path: string) => call(server, 'GET', path, { token: tokens[who] });

describe('a failing webhook in the back office', () => {
  it('shows each failed attempt, retries after the receiver recovers, and shows the success', async () => {
    const hook = await register(server, world.keys.operatorA, receiver.url);
    await emit(server, {
      branchId: world.branches.b1,
      exchangeId: world.exchanges.A,
      data: { id: 4242, status: 'ORDERINIT' },
    });
    await receiver.waitFor(2);
    const log = await eventually(async () => {
      const res = await get('admin1', `/admin/webhooks/${hook.id}/deliveries`);
      return res.body.data[0]?.status === 'failed' && res;
    });
    const delivery = log.body.data[0];
    // The row names the order it is about, so a log of many order.created rows can be told apart.
    expect(delivery).toMatchObject({ status: 'failed', attempts: 2, lastResponseStatus: 503, subjectId: 4242 });

    const detail = await get('admin1', `/admin/webhooks/${hook.id}/deliveries/${delivery.id}`);
    expect(detail.status).toBe(200);
    expect(detail.body.payload).toMatchObject({ event: 'order.created' });
    expect(
      detail.body.attemptLog.map((a: { attempt: number; responseStatus: number }) => [a.attempt, a.responseStatus]),
    ).toEqual([
      [1, 503],
      [2, 503],
    ]);
    expect(detail.body.attemptLog[0]).toMatchObject({ responseBody: 'down for maintenance', error: null });
    expect(detail.body.attemptLog[0].durationMs).toBeGreaterThanOrEqual(0);
    expect((await get('admin1', `/admin/webhooks/${hook.id}`)).body).toMatchObject({
      id: hook.id,
      failCount: 2,
      isActive: true,
      staffUserId: world.staff.operatorA.id,
    });

    failing = false;
    const retry = await call(server, 'POST', `/admin/webhooks/${hook.id}/deliveries/${delivery.id}/retry`, {
      token: tokens.operatorA,
    });
    expect(retry.status).toBe(202);
    expect(retry.body).toMatchObject({ id: delivery.id, status: 'pending', subjectId: 4242 });
    await receiver.waitFor(3);
    const after = await eventually(async () => {
      const res = await get('operatorA', `/admin/webhooks/${hook.id}/deliveries/${delivery.id}`);
      return res.body.status === 'succeeded' && res;
    });
    expect(after.body).toMatchObject({ status: 'succeeded', attempts: 3, lastResponseStatus: 200 });
    expect(after.body.attemptLog.map((a: { responseStatus: number }) => a.responseStatus)).toEqual([503, 503, 200]);
    expect((await get('admin1', `/admin/webhooks/${hook.id}`)).body.failCount).toBe(0);
  });

  it('keeps each webhook to those who may see it: 404 across branches and owners, 403 without webhooks:manage', async () => {
    const hook = await register(server, world.keys.operatorA, receiver.url);
    await emit(server, { branchId: world.branches.b1, exchangeId: world.exchanges.A });
    const delivery = (await get('admin1', `/admin/webhooks/${hook.id}/deliveries`)).body.data[0];
    const paths = [
      ['GET', `/admin/webhooks/${hook.id}`],
      ['GET', `/admin/webhooks/${hook.id}/deliveries/${delivery.id}`],
      ['POST', `/admin/webhooks/${hook.id}/deliveries/${delivery.id}/retry`],
      ['POST', `/admin/webhooks/${hook.id}/rotate-secret`],
    ];
    for (const [method, path] of paths) {
      expect((await call(server, method, path, { token: tokens.admin2 })).status, `admin2 ${method} ${path}`).toBe(404);
      expect(
        (await call(server, method, path, { token: tokens.operatorB })).status,
        `operatorB ${method} ${path}`,
      ).toBe(404);
      expect((await call(server, method, path, { token: tokens.readOnlyA })).status).toBe(403);
      expect((await call(server, method, path)).status).toBe(401);
    }
    expect(
      (await get('admin1', `/admin/webhooks/${hook.id}/deliveries/00000000-0000-4000-8000-000000000000`)).status,
    ).toBe(404);
    expect((await get('admin1', `/admin/webhooks/${hook.id}/deliveries/nope`)).status).toBe(400);
    expect((await get('superadmin', `/admin/webhooks/${hook.id}`)).status).toBe(200);
  });

  it('refuses to retry for an inactive webhook (422), and rotates a secret once shown', async () => {
    const hook = await register(server, world.keys.branch, receiver.url);
    await emit(server, { branchId: world.branches.b1, exchangeId: world.exchanges.B });
    const delivery = (await get('admin1', `/admin/webhooks/${hook.id}/deliveries`)).body.data[0];
    await server.db
      .updateTable('webhooks')
      .set({ is_active: false, deactivated_at: new Date() })
      .where('id', '=', hook.id)
      .execute();
    const refused = await call(server, 'POST', `/admin/webhooks/${hook.id}/deliveries/${delivery.id}/retry`, {
      token: tokens.admin1,
    });
    expect(refused.status).toBe(422);
    expect(refused.body.message).toMatch(/reactivate it/);

    const rotated = await call(server, 'POST', `/admin/webhooks/${hook.id}/rotate-secret`, { token: tokens.admin1 });
    expect(rotated.status).toBe(200);
    expect(rotated.headers.get('cache-control')).toBe('no-store');
    expect(rotated.body.secretKey).toMatch(/^[0-9a-f]{64}$/);
    expect(rotated.body.secretKey).not.toBe(hook.secretKey);
    const row = await server.db
      .selectFrom('webhooks')
      .select('secret_key')
      .where('id', '=', hook.id)
      .executeTakeFirstOrThrow();
    expect(row.secret_key).toBe(rotated.body.secretKey);
    expect((await get('admin1', `/admin/webhooks/${hook.id}`)).text).not.toContain(rotated.body.secretKey);
  });
});
