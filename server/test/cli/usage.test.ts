import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { PXS_MAIN } from '../helpers/built-cli.js';
import { STARTS_PROCESSES } from '../helpers/processes.js';

/** `pxs` help and usage errors: answered before any database is opened. */
const ENV = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_ENV: 'test', DATA_DIR: 'memory://' };

function pxs(args: string[], env: Record<string, string> = {}) {
  const res = spawnSync(process.execPath, [PXS_MAIN, ...args], {
    env: { ...ENV, ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: res.status, stdout: res.stdout, stderr: res.stderr };
}

describe('pxs without a database', STARTS_PROCESSES, () => {
  it('prints help with every command, and each command its usage', () => {
    const help = pxs(['--help']);
    expect(help.code).toBe(0);
    for (const command of ['serve', 'migrate', 'seed', 'staff', 'keys']) expect(help.stdout).toContain(command);
    const staff = pxs(['staff', 'create', '--help']);
    expect(staff.code).toBe(0);
    expect(staff.stdout).toContain('pxs staff create --email');
  });

  it('exits 2 on usage errors, with a message on stderr', () => {
    const cases = [
      ['staff', 'promote'],
      ['keys', 'create', '--bogus'],
      ['staff', 'create', '--email', 'a@b.test', '--role', 'admin'],
      [],
      // A word past what a command takes: `deactivate 5 6` acted on 5 alone and reported success.
      ['staff', 'deactivate', '5', '6'],
      ['staff', 'list', 'extra'],
      ['keys', 'list', 'extra'],
      ['migrate', 'extra'],
      ['openapi', 'extra'],
      ['keys', 'revoke', '00000000-0000-0000-0000-000000000000', 'extra'],
      ['openapi', '--out='],
      ['staff', 'list', '--branch', '0'],
    ];
    for (const args of cases) {
      const res = pxs(args);
      expect({ args, code: res.code }).toEqual({ args, code: 2 });
      expect(res.stderr).toMatch(/pxs/);
      expect(res.stdout).toBe('');
    }
  });

  it('exits 3 on settings that cannot work, naming them, before opening anything', () => {
    const url = pxs(['migrate'], { DATABASE_URL: 'postgres://user@bad host:5432/x' });
    expect(url.code).toBe(3);
    expect(url.stderr).toContain('DATABASE_URL: is not a valid URL');
    // The demo's passwords are in the README: it is never seeded in production, by `serve` or by `seed`.
    const demo = pxs(['seed', '--demo'], {
      NODE_ENV: 'production',
      JWT_SECRET: 'p'.repeat(40),
      DATABASE_URL: 'postgres://127.0.0.1:1/none',
    });
    expect(demo.code).toBe(3);
    expect(demo.stderr).toContain('never seeded in production');
  });

  it('ends quietly when its reader stops reading (pxs openapi | head)', async () => {
    const child = spawn(process.execPath, [PXS_MAIN, 'openapi'], { env: ENV });
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    await once(child.stdout, 'data');
    child.stdout.destroy();
    const [code] = await once(child, 'close');
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  }, 60_000);
});
