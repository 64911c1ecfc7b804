import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { cliDatabase, runPxs, spawnPxs, type CliDatabase } from '../cli/run.js';
import { PXS_MAIN } from '../helpers/built-cli.js';
import { usingPostgres } from '../helpers/database.js';
import { call } from '../helpers/server.js';

/**
 * One process at a time opens an embedded data directory (src/db/data-dir-lock.ts): real `pxs` processes, as an
 * operator would start them. PGlite takes no lock of its own, and without this both started and one's writes were lost.
 */
let cli: CliDatabase;
let env: Record<string, string>;
const children: ChildProcessWithoutNullStreams[] = [];
beforeAll(async () => {
  cli = await cliDatabase();
  env = { ...cli.env, BOOTSTRAP_ADMIN_EMAIL: 'root@lock.test', BOOTSTRAP_ADMIN_PASSWORD: 'lock-password-123' };
});
// A test that fails before its own clean-up must not leave a server holding the directory.
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});
afterAll(() => cli?.close());

interface Started {
  child: ChildProcessWithoutNullStreams;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}
interface Serving extends Started {
  url: string;
}

/** `pxs serve` until it listens or exits, whichever comes first. */
function start(): Promise<Started & { url?: string }> {
  const child = spawnPxs(['serve', '--no-worker'], { ...env, LOG_LEVEL: 'info', PORT: '0', HOST: '127.0.0.1' });
  children.push(child);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal })),
  );
  let output = '';
  child.stderr.on('data', (d) => {
    output += d;
  });
  const started = { child, exited, output: () => output };
  return new Promise((resolve) => {
    child.stdout.on('data', (d) => {
      output += d;
      const match = /listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match) resolve({ ...started, url: match[1]! });
    });
    void exited.then(() => resolve(started));
  });
}

async function serve(): Promise<Serving> {
  const started = await start();
  if (!started.url) throw new Error(`serve exited with ${(await started.exited).code}: ${started.output()}`);
  return { ...started, url: started.url };
}

const inUse = (pid: number) => `DATA_DIR ${cli.dataDir}: in use by process ${pid} (pxs.pid)`;
const lockFile = () => join(cli.dataDir, 'pxs.pid');
const login = (server: { url: string }) =>
  call(server, 'POST', '/auth/login', { body: { email: 'root@lock.test', password: 'lock-password-123' } });

// Embedded only: with DATABASE_URL set there is no data directory to hold.
describe.skipIf(usingPostgres)('one process per embedded data directory', { timeout: 240_000 }, () => {
  it('refuses a second server and a CLI command while one serves, naming DATA_DIR and the holder', async () => {
    const first = await serve();
    const pid = first.child.pid!;

    const second = await start();
    expect(second.url).toBeUndefined();
    expect((await second.exited).code).toBe(1);
    expect(second.output()).toContain(`pxs serve: ${inUse(pid)}`);

    const created = await runPxs(
      ['staff', 'create', '--email', 'behind@lock.test', '--password', 'behind-password-123', '--role', 'superadmin'],
      env,
    );
    expect(created.code).toBe(1);
    expect(created.stderr).toContain(`pxs staff: ${inUse(pid)}`);

    // The holder kept serving, from the database it alone writes.
    expect((await fetch(`${first.url}/ready`)).status).toBe(200);
    expect((await login(first)).status).toBe(200);

    first.child.kill('SIGTERM');
    expect((await first.exited).code).toBe(0);
    expect(existsSync(lockFile())).toBe(false);
    const list = await runPxs(['staff', 'list', '--json'], env);
    expect(list.code).toBe(0);
    expect(list.json.map((s: { email: string }) => s.email)).toEqual(['root@lock.test']);
  });

  it('opens a directory again after its holder was killed with SIGKILL, with no manual step', async () => {
    const killed = await serve();
    killed.child.kill('SIGKILL');
    expect((await killed.exited).signal).toBe('SIGKILL');
    expect(readFileSync(lockFile(), 'utf8').trim()).toBe(String(killed.child.pid));

    const next = await serve();
    expect(readFileSync(lockFile(), 'utf8').trim()).toBe(String(next.child.pid));
    expect((await login(next)).status).toBe(200);
    next.child.kill('SIGTERM');
    expect((await next.exited).code).toBe(0);
  });

  it('takes over a file with its own pid left by an earlier life (pid 1 in a container), and refuses a second open in the same process', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pxs-lock-'));
    try {
      writeFileSync(join(dataDir, 'pxs.pid'), `${process.pid}\n`);
      const handle = await openDatabase({ dataDir });
      try {
        await expect(openDatabase({ dataDir })).rejects.toThrow(
          `DATA_DIR ${dataDir}: in use by this process (pxs.pid)`,
        );
      } finally {
        await handle.close();
      }
      expect(existsSync(join(dataDir, 'pxs.pid'))).toBe(false);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('names DATA_DIR when it is a regular file', async () => {
    const root = mkdtempSync(join(tmpdir(), 'pxs-lock-'));
    try {
      const file = join(root, 'data');
      writeFileSync(file, 'not a database');
      const res = await runPxs(['staff', 'list'], { ...env, DATA_DIR: file });
      expect(res.code).toBe(1);
      expect(res.stderr).toContain(`pxs staff: DATA_DIR ${file}: not a directory`);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('names DATA_DIR when this process cannot write it', async () => {
    // The directory holds a database by now (the tests above). Root writes whatever the mode bits say: as root,
    // the command runs as nobody, for whom the root-owned directory is read-only.
    expect(existsSync(join(cli.dataDir, 'PG_VERSION'))).toBe(true);
    const asRoot = process.getuid?.() === 0;
    chmodSync(cli.dataDir, asRoot ? 0o755 : 0o555);
    try {
      const child = spawn(process.execPath, [PXS_MAIN, 'staff', 'list'], {
        env: { ...env, HOME: tmpdir() },
        stdio: 'pipe',
        ...(asRoot && { uid: NOBODY, gid: NOBODY }),
      });
      let stderr = '';
      child.stderr.on('data', (d) => {
        stderr += d;
      });
      const code = await new Promise((resolve) => child.on('close', resolve));
      expect(stderr).toContain(`pxs staff: DATA_DIR ${cli.dataDir}: not writable by this process`);
      expect(code).toBe(1);
    } finally {
      chmodSync(cli.dataDir, 0o700);
    }
  });
});

const NOBODY = 65534;
