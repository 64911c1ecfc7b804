import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usingPostgres } from '../../helpers/database.js';
import { startWorld } from '../../helpers/fixture.js';
import { STARTS_PROCESSES } from '../../helpers/processes.js';
import { call, type TestServer } from '../../helpers/server.js';
import type { StaffName } from '../../helpers/staff.js';
import type { World } from '../../helpers/world.js';
import { register, sleep, startReceiver, type Receiver } from '../webhooks/support.js';
import { expiredOnce, setWindow, type Placed } from './expiry-support.js';
import { orderBody, placeOrder } from './support.js';
import { PXS_MAIN } from '../../helpers/built-cli.js';

// Real `pxs worker` processes racing over the same due orders. A second process cannot open an embedded PGlite
// database, so this runs on PostgreSQL only (DATABASE_URL set); expiry.test.ts runs two jobs in one process on both.
describe.skipIf(!usingPostgres)('the payment window with two `pxs worker` processes', STARTS_PROCESSES, () => {
  let server: TestServer;
  let world: World;
  let tokens: Record<StaffName, string>;
  let receiver: Receiver;
  let hooks: string[];
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    ({ server, world, tokens } = await startWorld());
    receiver = await startReceiver();
    hooks = [
      (await register(server, world.keys.branch, receiver.url)).id,
      (await register(server, world.keys.admin1, receiver.url)).id,
    ];
    await setWindow(server, tokens.admin1, world.exchanges.A, 3);
  });
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    await receiver?.close();
    await server?.close();
  });

  function spawnWorker(): { child: ChildProcess; ready: Promise<void> } {
    const child = spawn(process.execPath, [PXS_MAIN, 'worker'], {
      cwd: new URL('../../..', import.meta.url).pathname,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        NODE_ENV: 'test',
        LOG_LEVEL: 'info',
        DATABASE_URL: server.database.url!,
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
        WEBHOOK_POLL_MS: '100',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(child);
    let output = '';
    const ready = new Promise<void>((resolve, reject) => {
      child.stdout!.on('data', (d) => {
        output += d;
        if (output.includes('webhook worker started')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`worker exited with ${code}: ${output.slice(-2000)}`)));
    });
    return { child, ready };
  }
  const stop = (child: ChildProcess) =>
    new Promise<number | null>((resolve) => {
      child.once('exit', (code) => resolve(code));
      child.kill('SIGTERM');
    });

  const place = async () => (await placeOrder(server, world.keys.branch, orderBody(world))) as Placed;
  const move = async (id: number, status: string) => {
    const res = await call(server, 'POST', `/admin/orders/${id}/status`, { token: tokens.admin1, body: { status } });
    expect(res.status, res.text).toBe(200);
  };

  it('cancels an unpaid order once, within 5 s of expiresAt; a paid one stays; and after a restart', async () => {
    const workers = [spawnWorker(), spawnWorker()];
    await Promise.all(workers.map((w) => w.ready));
    const unpaid = await place();
    const paid = await place();
    await move(paid.id, 'CLIENTPAYMENTWAIT');
    await move(paid.id, 'EXCHANGEPAYMENTWAIT');
    await expiredOnce(server, unpaid, hooks, receiver);
    const still = await call(server, 'GET', `/partner/orders/${paid.id}`, { key: world.keys.branch });
    expect(still.body).toMatchObject({ status: 'EXCHANGEPAYMENTWAIT', expiresAt: null });

    // No worker runs while the next order's window runs out; the first one to start cancels it.
    for (const w of workers) expect(await stop(w.child)).toBe(0);
    const orphan = await place();
    await sleep(4000);
    const waiting = await call(server, 'GET', `/partner/orders/${orphan.id}`, { key: world.keys.branch });
    expect(waiting.body.status).toBe('ORDERINIT');
    const restarted = spawnWorker();
    await restarted.ready;
    await expiredOnce(server, orphan, hooks, receiver, { startedAt: Date.now() });
    expect(await stop(restarted.child)).toBe(0);
  });
});
