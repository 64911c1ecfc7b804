import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/db/database.js';
import { migrateToLatest } from '../../../src/db/migrate.js';
import { cliDatabase, listeningAt, spawnPxs, type CliDatabase } from '../../cli/run.js';
import { call } from '../../helpers/server.js';
import { createWorld, type World } from '../../helpers/world.js';
import { orderBody } from '../orders/support.js';

/**
 * The service killed between the commit of an idempotent request and its answer: a real `pxs serve` process
 * started with the test-only preload kill-after-commit.mjs SIGKILLs itself right after the commit; a second
 * process, started on the same database, must answer the retry with the stored answer.
 */
const KILL_AFTER_COMMIT = `--import=${new URL('./kill-after-commit.mjs', import.meta.url).href}`;
let cli: CliDatabase;
let world: World;
let child: ChildProcessWithoutNullStreams | undefined;
beforeAll(async () => {
  cli = await cliDatabase();
  if (cli.pg) {
    world = await createWorld(cli.pg.db);
  } else {
    const handle = await openDatabase({ dataDir: cli.dataDir });
    await migrateToLatest(handle.db);
    world = await createWorld(handle.db);
    await handle.close();
  }
}, 120_000);
afterEach(() => {
  child?.kill('SIGKILL');
  child = undefined;
});
afterAll(() => cli?.close());

function serve(
  env: Record<string, string>,
): Promise<{ url: string; exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }> }> {
  const started = spawnPxs(['serve', '--no-worker'], {
    ...cli.env,
    LOG_LEVEL: 'info',
    PORT: '0',
    HOST: '127.0.0.1',
    ...env,
  });
  child = started;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    started.on('close', (code, signal) => resolve({ code, signal })),
  );
  return listeningAt(started).url.then((url) => ({ url, exited }));
}

// Two process starts and a PGlite data directory opened three times: longer than STARTS_PROCESSES on a busy machine.
describe('an idempotent order when the service dies between commit and answer', { timeout: 240_000 }, () => {
  it('the retry gets the stored answer, and one order exists', async () => {
    const body = orderBody(world);
    const headers = { 'idempotency-key': 'crash-test-order-1' };
    const dying = await serve({ NODE_OPTIONS: [cli.env.NODE_OPTIONS, KILL_AFTER_COMMIT].filter(Boolean).join(' ') });
    const lost = await call(dying, 'POST', '/partner/orders', { key: world.keys.branch, body, headers }).then(
      () => 'answered',
      () => 'connection lost',
    );
    expect(lost).toBe('connection lost');
    expect((await dying.exited).signal).toBe('SIGKILL');

    const alive = await serve({});
    const retry = await call(alive, 'POST', '/partner/orders', { key: world.keys.branch, body, headers });
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body.id).toEqual(expect.any(Number));
    const list = await call(alive, 'GET', '/partner/orders', { key: world.keys.branch });
    expect(list.body.meta.total).toBe(1);
    expect(list.body.data[0].id).toBe(retry.body.id);
  });
});
