import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/server.js';
import { cliDatabase, spawnPxs, type CliDatabase } from './run.js';

/** `pxs serve` on an empty database: the bootstrap superadmin from the environment. */
let cli: CliDatabase;
beforeAll(async () => { cli = await cliDatabase(); });
afterAll(() => cli?.close());

describe('pxs serve', () => {
  it('creates the bootstrap superadmin at start, who can log in', async () => {
    const child = spawnPxs(['serve', '--no-worker'], {
      ...cli.env, LOG_LEVEL: 'info', PORT: '0', HOST: '127.0.0.1', BOOTSTRAP_ADMIN_EMAIL: 'root@boot.test', BOOTSTRAP_ADMIN_PASSWORD: 'bootstrap-pass-123',
    });
    let output = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (d) => {
        output += d;
        const match = /listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
        if (match) resolve(match[1]);
      });
      child.on('close', (code) => reject(new Error(`serve exited with ${code}: ${output}`)));
    });
    try {
      expect(output).toContain('bootstrap superadmin created');
      expect(output).not.toContain('bootstrap-pass-123');
      const res = await call({ url }, 'POST', '/auth/login', { body: { email: 'root@boot.test', password: 'bootstrap-pass-123' } });
      expect(res.status).toBe(200);
    } finally {
      const exited = new Promise((resolve) => child.on('close', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  });
});
