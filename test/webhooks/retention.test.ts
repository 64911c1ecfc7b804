import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookWorker } from '../../src/features/webhooks/worker.js';
import { startWorld } from '../helpers/fixture.js';
import type { TestServer } from '../helpers/server.js';
import type { World } from '../helpers/world.js';
import { deliveries, emit, eventually, register, startReceiver, worker, type Receiver } from './support.js';

let server: TestServer;
let world: World;
let receiver: Receiver;
let running: WebhookWorker | undefined;

beforeAll(async () => ({ server, world } = await startWorld()));
afterAll(async () => {
  await running?.stop();
  await receiver?.close();
  await server?.close();
});

const prunedTotal = async () => (await server.ctx.metrics.webhookDeliveriesPruned.get()).values[0]?.value ?? 0;

describe('delivery retention', () => {
  it('deletes finished deliveries and their attempts after WEBHOOK_RETENTION_DAYS, and keeps pending and recent ones', async () => {
    receiver = await startReceiver();
    const hook = await register(server, world.keys.branch, receiver.url);
    for (let i = 0; i < 4; i++) await emit(server, { branchId: world.branches.b1, exchangeId: world.exchanges.A, data: { id: i, status: 'ORDERINIT' } });
    running = await worker(server);
    await receiver.waitFor(4);
    await eventually(async () => (await deliveries(server, hook.id)).every((d) => d.status === 'succeeded'));
    await running.stop();
    running = undefined;

    // Two finished long ago, one failed long ago, one still pending though old, one recent.
    const [oldA, oldB, oldFailed, recent] = (await deliveries(server, hook.id)).map((d) => d.id);
    await emit(server, { branchId: world.branches.b1, exchangeId: world.exchanges.A, data: { id: 99, status: 'ORDERINIT' } });
    const pending = (await deliveries(server, hook.id)).find((d) => d.status === 'pending')!.id;
    const age = (ids: string[], days: number) => server.db.updateTable('webhook_deliveries')
      .set({ updated_at: sql`now() - make_interval(days => ${days})` }).where('id', 'in', ids).execute();
    await age([oldA, oldB, oldFailed, pending], 31);
    await age([recent], 29);
    await server.db.updateTable('webhook_deliveries').set({ status: 'failed' }).where('id', '=', oldFailed).execute();
    await server.db.updateTable('webhook_deliveries').set({ next_attempt_at: sql`now() + interval '1 day'` }).where('id', '=', pending).execute();
    const before = await prunedTotal();

    running = await worker(server, { retentionDays: 30 });
    await eventually(async () => (await deliveries(server, hook.id)).length === 2);
    const left = await deliveries(server, hook.id);
    expect(left.map((d) => d.id).sort()).toEqual([recent, pending].sort());
    const attempts = await server.db.selectFrom('webhook_attempts').select('delivery_id').where('delivery_id', 'in', [oldA, oldB, oldFailed, recent]).execute();
    expect(attempts.map((a) => a.delivery_id)).toEqual([recent]);
    expect(await prunedTotal()).toBe(before + 3);
  });
});
