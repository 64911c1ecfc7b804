import type { ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/server.js';
import { STARTS_PROCESSES } from '../helpers/processes.js';
import { cliDatabase, listeningAt, runPxs, spawnPxs, type CliDatabase } from './run.js';

/** `pxs serve` on an empty database: the bootstrap superadmin from the environment. */
let cli: CliDatabase;
let child: ChildProcess | undefined;
beforeAll(async () => {
  cli = await cliDatabase();
});
// A test that fails before its own clean-up must not leave a server running.
afterEach(() => {
  child?.kill('SIGKILL');
  child = undefined;
});
afterAll(() => cli?.close());

describe('pxs serve', STARTS_PROCESSES, () => {
  it('creates the bootstrap superadmin at start, who can log in', async () => {
    const started = spawnPxs(['serve', '--no-worker'], {
      ...cli.env,
      LOG_LEVEL: 'info',
      PORT: '0',
      HOST: '127.0.0.1',
      BOOTSTRAP_ADMIN_EMAIL: 'root@boot.test',
      BOOTSTRAP_ADMIN_PASSWORD: 'bootstrap-pass-123',
    });
    child = started;
    const { url: listening, output } = listeningAt(started);
    const url = await listening;
    try {
      expect(output()).toContain('bootstrap superadmin created');
      expect(output()).not.toContain('bootstrap-pass-123');
      const res = await call({ url }, 'POST', '/auth/login', {
        body: { email: 'root@boot.test', password: 'bootstrap-pass-123' },
      });
      expect(res.status).toBe(200);
    } finally {
      const exited = new Promise((resolve) => started.on('close', resolve));
      started.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  });

  it('exits 1 when it cannot listen, after closing what it opened, instead of running on unseen', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = taken.address() as AddressInfo;
      // With the worker: its timers and the database are what kept a failed start alive.
      const res = await runPxs(['serve'], { ...cli.env, LOG_LEVEL: 'info', PORT: String(port), HOST: '127.0.0.1' });
      // The setting to change, and how, not only Node's "listen EADDRINUSE: address already in use".
      expect(res.stderr).toContain(`PORT: 127.0.0.1:${port} is already in use (EADDRINUSE)`);
      expect(res.stderr).toContain('set PORT to a free port');
      // The port is bound before any work starts: no delivery is claimed by a start that then fails.
      expect(res.stdout).not.toContain('webhook worker started');
      expect(res.code).toBe(1);
    } finally {
      taken.close();
    }
  }, 60_000);
});

describe('pxs worker', STARTS_PROCESSES, () => {
  it('serves its health, readiness and its own metrics on WORKER_PORT, and stops on SIGTERM', async () => {
    const started = spawnPxs(['worker'], { ...cli.env, LOG_LEVEL: 'info', WORKER_PORT: '0', HOST: '127.0.0.1' });
    child = started;
    let output = '';
    const url = await new Promise<string>((resolve, reject) => {
      started.stdout.on('data', (d) => {
        output += d;
        const match = /"url":"(http:\/\/127\.0\.0\.1:\d+)".*worker health and metrics listening/.exec(output);
        if (match) resolve(match[1]);
      });
      started.on('close', (code) => reject(new Error(`worker exited with ${code}: ${output}`)));
    });
    try {
      const health = await fetch(`${url}/health`);
      expect([health.status, await health.json()]).toEqual([200, { status: 'ok' }]);
      const ready = await fetch(`${url}/ready`);
      // Redis too when the tests run with one.
      expect([ready.status, await ready.json()]).toEqual([
        200,
        process.env.REDIS_URL ? { status: 'ready', redis: 'ok' } : { status: 'ready' },
      ]);
      const metrics = await fetch(`${url}/metrics`);
      expect(metrics.headers.get('content-type')).toContain('text/plain');
      // The webhook figures an API started with --no-worker cannot have: the worker counts them.
      const text = await metrics.text();
      for (const name of [
        'pxs_webhook_deliveries_total',
        'pxs_webhook_queue_depth',
        'pxs_process_resident_memory_bytes',
      ])
        expect(text).toContain(name);
      expect((await fetch(`${url}/nothing`)).status).toBe(404);
    } finally {
      const exited = new Promise((resolve) => started.on('close', resolve));
      started.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  }, 60_000);

  it('exits 1 when WORKER_PORT is taken, saying so', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = taken.address() as AddressInfo;
      const res = await runPxs(['worker'], {
        ...cli.env,
        LOG_LEVEL: 'info',
        WORKER_PORT: String(port),
        HOST: '127.0.0.1',
      });
      expect(res.stderr).toContain(`WORKER_PORT: 127.0.0.1:${port} is already in use (EADDRINUSE)`);
      expect(res.stderr).toContain('set WORKER_PORT to a free port');
      expect(res.stdout).not.toContain('webhook worker started');
      expect(res.code).toBe(1);
    } finally {
      taken.close();
    }
  }, 60_000);
});
