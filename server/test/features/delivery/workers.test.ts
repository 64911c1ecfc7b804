import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../../src/db/database.js';
import { Metrics } from '../../../src/http/metrics.js';
import { startWorker, type WebhookWorker } from '../../../src/features/delivery/worker.js';
import { usingPostgres } from '../../helpers/database.js';
import { PXS_MAIN } from '../../helpers/built-cli.js';
import { STARTS_PROCESSES } from '../../helpers/processes.js';
import type { TestServer } from '../../helpers/server.js';
import type { World } from '../../helpers/world.js';
import { startWorld } from '../../helpers/fixture.js';
import { emit, eventually, register, startReceiver } from '../webhooks/support.js';

// A second process cannot open an embedded PGlite database, so these run on PostgreSQL only (DATABASE_URL set).
describe.skipIf(!usingPostgres)('workers on PostgreSQL', STARTS_PROCESSES, () => {
  let server: TestServer;
  let world: World;

  beforeAll(async () => {
    ({ server, world } = await startWorld());
  });
  afterAll(() => server?.close());

  function spawnWorker(env: Record<string, string>): ChildProcess {
    return spawn(process.execPath, [PXS_MAIN, 'worker'], {
      cwd: new URL('../../..', import.meta.url).pathname,
      env: {
        ...process.env,
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        DATABASE_URL: server.database.url!,
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
        REDIS_URL: '',
        ...env,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
  const exited = (child: ChildProcess) =>
    new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  it('delivers every event after a worker is killed mid-send, repeating the lost attempt under the same delivery id', async () => {
    const receiver = await startReceiver((_, i) => (i === 0 ? 'hang' : { status: 200 }));
    const hook = await register(server, world.keys.branch, receiver.url, ['order.created']);
    for (let i = 0; i < 20; i++)
      await emit(server, {
        branchId: world.branches.b1,
        exchangeId: world.exchanges.A,
        data: { id: i, status: 'ORDERINIT' },
      });
    const ids = (
      await server.db.selectFrom('webhook_deliveries').select('id').where('webhook_id', '=', hook.id).execute()
    ).map((r) => r.id);
    expect(ids).toHaveLength(20);

    const settings = { WEBHOOK_LEASE_MS: '1000', WEBHOOK_TIMEOUT_MS: '2000', WEBHOOK_POLL_MS: '100' };
    const first = spawnWorker(settings);
    let stalled;
    try {
      [stalled] = await receiver.waitFor(1, 20_000);
    } finally {
      first.kill('SIGKILL');
    }
    await exited(first);

    const second = spawnWorker(settings);
    try {
      await eventually(
        async () => {
          const rows = await server.db
            .selectFrom('webhook_deliveries')
            .select('status')
            .where('webhook_id', '=', hook.id)
            .execute();
          return rows.every((r) => r.status === 'succeeded');
        },
        25_000,
        100,
      );
      const seen = receiver.received.map((r) => r.headers['x-webhook-delivery']);
      expect(new Set(seen)).toEqual(new Set(ids));
      const stalledId = stalled.headers['x-webhook-delivery'] as string;
      const repeats = receiver.received.filter((r) => r.headers['x-webhook-delivery'] === stalledId);
      expect(repeats.length).toBeGreaterThanOrEqual(2);
      expect(repeats[1].body).toBe(stalled.body);
      const log = await server.db
        .selectFrom('webhook_attempts')
        .selectAll()
        .where('delivery_id', '=', stalledId)
        .orderBy('attempt_number')
        .execute();
      expect(log[0].error).toMatch(/^no outcome recorded: the worker making this attempt stopped/);
      expect(log.at(-1)).toMatchObject({ response_status: 200 });
    } finally {
      second.kill('SIGTERM');
      expect(await exited(second)).toBe(0);
      await receiver.close();
    }
  });

  it('sends each attempt exactly once with three workers racing over a few hundred events', async () => {
    const failOnce = (id: string) => createHash('sha1').update(id).digest()[0] % 4 === 0;
    const receiver = await startReceiver((r) => ({
      status: r.headers['x-webhook-attempt'] === '1' && failOnce(r.headers['x-webhook-delivery'] as string) ? 503 : 200,
    }));
    const hooks = [
      await register(server, world.keys.branch, receiver.url, ['offer.updated']),
      await register(server, world.keys.admin1, receiver.url, ['offer.updated']),
    ];
    const handles: DatabaseHandle[] = [];
    const workers: WebhookWorker[] = [];
    const metrics: Metrics[] = [];
    for (let i = 0; i < 3; i++) {
      const database = await openDatabase({ databaseUrl: server.database.url, dataDir: 'memory://', poolSize: 4 });
      handles.push(database);
      metrics.push(new Metrics());
      workers.push(
        startWorker(
          { db: database.db, metrics: metrics[i], log: server.ctx.log, config: server.config },
          {
            id: `racer-${i}`,
            listenUrl: server.database.url,
            settings: { retryBaseMs: 50, pollMs: 50, concurrency: 16 },
          },
        ),
      );
    }
    try {
      const events = 150;
      for (let i = 0; i < events; i += 10) {
        await Promise.all(
          Array.from({ length: 10 }, (_, j) =>
            emit(server, {
              event: 'offer.updated',
              branchId: world.branches.b1,
              exchangeId: world.exchanges.A,
              data: { id: i + j },
            }),
          ),
        );
      }
      const total = events * hooks.length;
      await eventually(
        async () => {
          const { n } = await server.db
            .selectFrom('webhook_deliveries')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('status', '=', 'succeeded')
            .where(
              'webhook_id',
              'in',
              hooks.map((h) => h.id),
            )
            .executeTakeFirstOrThrow();
          return Number(n) === total;
        },
        40_000,
        100,
      );
      const pairs = receiver.received.map(
        (r) => `${r.headers['x-webhook-delivery'] as string}#${r.headers['x-webhook-attempt'] as string}`,
      );
      expect(new Set(pairs).size).toBe(pairs.length);
      const retried = receiver.received.filter((r) => r.headers['x-webhook-attempt'] === '2').length;
      expect(retried).toBeGreaterThan(0);
      expect(pairs.length).toBe(total + retried);
      const attempts = await server.db
        .selectFrom('webhook_attempts')
        .innerJoin('webhook_deliveries as d', 'd.id', 'delivery_id')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where(
          'd.webhook_id',
          'in',
          hooks.map((h) => h.id),
        )
        .executeTakeFirstOrThrow();
      expect(Number(attempts.n)).toBe(total + retried);
      const by = await server.db
        .selectFrom('webhook_deliveries')
        .select('leased_by')
        .distinct()
        .where(
          'webhook_id',
          'in',
          hooks.map((h) => h.id),
        )
        .execute();
      expect(by.every((r) => r.leased_by === null)).toBe(true);
      const perWorker = await Promise.all(
        metrics.map(async (m) => (await m.webhookDeliveries.get()).values.reduce((n, v) => n + v.value, 0)),
      );
      expect(perWorker.reduce((a, b) => a + b)).toBe(total + retried);
      expect(
        perWorker.filter((n) => n > 0).length,
        `attempts per worker: ${perWorker.join(', ')}`,
      ).toBeGreaterThanOrEqual(2);
    } finally {
      await Promise.all(workers.map((w) => w.stop()));
      await Promise.all(handles.map((h) => h.close()));
      await receiver.close();
    }
  });
});
