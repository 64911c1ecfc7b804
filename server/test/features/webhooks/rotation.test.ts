import { createHmac } from 'node:crypto';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookWorker } from '../../../src/features/delivery/worker.js';
import { call, type TestServer } from '../../helpers/server.js';
import type { StaffName } from '../../helpers/staff.js';
import type { World } from '../../helpers/world.js';
import { startWorld } from '../../helpers/fixture.js';
import { emit, register, sleep, startReceiver, worker, type Received, type Receiver } from './support.js';

let server: TestServer;
let world: World;
let tokens: Record<StaffName, string>;
let receiver: Receiver;
let running: WebhookWorker | undefined;

beforeAll(async () => ({ server, world, tokens } = await startWorld()));
afterEach(async () => {
  await receiver?.close();
  await running?.stop();
  running = undefined;
  await server.db.deleteFrom('webhooks').execute();
});
afterAll(() => server?.close());

const rotate = (id: string, body?: unknown) =>
  call(server, 'POST', `/partner/webhooks/${id}/rotate-secret`, { key: world.keys.branch, body });
/** A Standard Webhooks library's verdict on a delivery, with the secret as the library takes it (base64 of its UTF-8 bytes). */
const verifies = (secret: string, r: Received) => {
  try {
    new StandardWebhook(Buffer.from(secret, 'utf8').toString('base64')).verify(
      r.body,
      r.headers as Record<string, string>,
    );
    return true;
  } catch {
    return false;
  }
};
const contract = (secret: string, body: string) =>
  `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
const deliverOne = async () => {
  const before = receiver.received.length;
  await emit(server, { branchId: world.branches.b1, exchangeId: world.exchanges.A });
  return (await receiver.waitFor(before + 1))[before];
};

describe('rotating a webhook secret with an overlap', () => {
  it('signs with both secrets during the overlap, X-Webhook-Signature with the new one only, and with the new one only after', async () => {
    receiver = await startReceiver();
    const hook = await register(server, world.keys.branch, receiver.url);
    running = await worker(server);
    // The delivery below must be signed within the overlap: 5 s leave a loaded machine room to send it.
    const rotatedFrom = Date.now();
    const res = await rotate(hook.id, { overlapSeconds: 5 });
    const rotatedBy = Date.now();
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const rotated = res.body;
    expect(rotated.secretKey).toMatch(/^[0-9a-f]{64}$/);
    expect(rotated.secretKey).not.toBe(hook.secretKey);
    const overlapEnds = Date.parse(rotated.previousSecretExpiresAt);
    // 5 s after a moment between sending the request and reading its answer, by the database's clock (within 1 s).
    expect(overlapEnds).toBeGreaterThanOrEqual(rotatedFrom + 5_000 - 1_000);
    expect(overlapEnds).toBeLessThanOrEqual(rotatedBy + 5_000 + 1_000);

    const during = await deliverOne();
    expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verifies(hook.secretKey, during)).toBe(true);
    expect(verifies(rotated.secretKey, during)).toBe(true);
    expect(during.headers['x-webhook-signature']).toBe(contract(rotated.secretKey, during.body));

    await sleep(Math.max(0, overlapEnds - Date.now()) + 100);
    const after = await deliverOne();
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verifies(rotated.secretKey, after)).toBe(true);
    expect(verifies(hook.secretKey, after)).toBe(false);
    expect(after.headers['x-webhook-signature']).toBe(contract(rotated.secretKey, after.body));
  });

  it('keeps the old secret 24 hours by default, with no body or an empty one', async () => {
    receiver = await startReceiver();
    const hook = await register(server, world.keys.branch, receiver.url);
    for (const body of [undefined, {}]) {
      const res = await rotate(hook.id, body);
      expect(res.status).toBe(200);
      expect(Math.abs(Date.parse(res.body.previousSecretExpiresAt) - (Date.now() + 86_400_000))).toBeLessThan(60_000);
    }
  });

  it('stops the old secret at once with overlapSeconds 0', async () => {
    receiver = await startReceiver();
    const hook = await register(server, world.keys.branch, receiver.url);
    running = await worker(server);
    const res = await rotate(hook.id, { overlapSeconds: 0 });
    expect(res.body.previousSecretExpiresAt).toBeNull();
    const r = await deliverOne();
    expect(verifies(res.body.secretKey, r)).toBe(true);
    expect(verifies(hook.secretKey, r)).toBe(false);
  });

  it('keeps only the secret being replaced when rotated again during an overlap', async () => {
    receiver = await startReceiver();
    const hook = await register(server, world.keys.branch, receiver.url);
    running = await worker(server);
    const second = (await rotate(hook.id)).body;
    const third = (await rotate(hook.id, { overlapSeconds: 3600 })).body;
    const r = await deliverOne();
    expect(verifies(third.secretKey, r)).toBe(true);
    expect(verifies(second.secretKey, r)).toBe(true);
    expect(verifies(hook.secretKey, r)).toBe(false);
  });

  it.each([
    [{ overlapSeconds: 604_801 }, 'tooLarge'],
    [{ overlapSeconds: -1 }, 'tooSmall'],
    [{ overlapSeconds: 1.5 }, 'invalidType'],
    [{ overlapSeconds: '60' }, 'invalidType'],
  ])('refuses %j with 400 and keeps the secret', async (body, code) => {
    receiver = await startReceiver();
    const hook = await register(server, world.keys.branch, receiver.url);
    const res = await rotate(hook.id, body);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ overlapSeconds: code });
    const row = await server.db
      .selectFrom('webhooks')
      .select(['secret_key', 'previous_secret_key'])
      .where('id', '=', hook.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ secret_key: hook.secretKey, previous_secret_key: null });
  });

  it("accepts 7 days, and the back office's rotation takes the same overlap", async () => {
    receiver = await startReceiver();
    const hook = await register(server, world.keys.branch, receiver.url);
    running = await worker(server);
    expect((await rotate(hook.id, { overlapSeconds: 604_800 })).status).toBe(200);
    const res = await call(server, 'POST', `/admin/webhooks/${hook.id}/rotate-secret`, {
      token: tokens.admin1,
      body: { overlapSeconds: 600 },
    });
    expect(res.status).toBe(200);
    expect(Math.abs(Date.parse(res.body.previousSecretExpiresAt) - (Date.now() + 600_000))).toBeLessThan(60_000);
    const r = await deliverOne();
    expect(String(r.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verifies(res.body.secretKey, r)).toBe(true);
    expect(
      (await call(server, 'POST', `/admin/webhooks/${hook.id}/rotate-secret`, { token: tokens.admin2 })).status,
    ).toBe(404);
  });
});
