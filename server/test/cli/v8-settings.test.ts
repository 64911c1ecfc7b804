import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain JavaScript module beside the CLI entry, without types
import { STARTUP_FLAGS } from '../../bin/v8-flags.js';

/**
 * The V8 settings V8 reads only when it creates the heap (bin/v8-flags.js) reach the service through the first line
 * of bin/pxs.js, run as an executable (as `npm start` and the installed `pxs` command run it).
 */
const entry = join(process.cwd(), 'bin/pxs.js');
const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_ENV: 'test', DATA_DIR: 'memory://' };

// Loaded with --require before the entry's own code: prints the young generation's size V8 was created with.
const dir = mkdtempSync(join(tmpdir(), 'pxs-v8-'));
const probe = join(dir, 'probe.cjs');
writeFileSync(
  probe,
  `const space = require('node:v8').getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
process.stdout.write(String(space.space_size)); process.exit(0);\n`,
);
// The same after a churn of short-lived objects, which grows the young generation as far as V8 lets it.
const grownProbe = join(dir, 'grown.cjs');
writeFileSync(
  grownProbe,
  `let keep = [];
for (let i = 0; i < 3e6; i++) { keep.push({ i, s: 'x' + i }); if (keep.length > 50000) keep = []; }
const space = require('node:v8').getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
process.stdout.write(String(space.space_size)); process.exit(0);\n`,
);
const argvProbe = join(dir, 'argv.cjs');
writeFileSync(argvProbe, 'process.stdout.write(JSON.stringify(process.execArgv)); process.exit(0);\n');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const newSpaceBytes = (command: string, args: string[], require = probe) => {
  const res = spawnSync(command, args, {
    env: { ...env, NODE_OPTIONS: `--require ${require}` },
    encoding: 'utf8',
    timeout: 30_000,
  });
  expect(res.status, res.stderr).toBe(0);
  return Number(res.stdout);
};

describe('V8 settings given on the command line', () => {
  it('are the first line of bin/pxs.js, and nothing else is', () => {
    const [first] = readFileSync(entry, 'utf8').split('\n');
    expect(first).toBe(`#!/usr/bin/env -S node ${(STARTUP_FLAGS as string[]).join(' ')}`);
    expect(STARTUP_FLAGS).toContain('--min-semi-space-size=16');
    expect(STARTUP_FLAGS).toContain('--max-semi-space-size=16');
    expect(STARTUP_FLAGS).toContain('--no-memory-reducer');
  });

  it('give the process a young generation of 16 MB from its start, where plain node has 1 MB', () => {
    expect(newSpaceBytes(entry, ['serve'])).toBe(16 * 1024 * 1024);
    expect(newSpaceBytes(process.execPath, [entry, 'serve'])).toBeLessThan(16 * 1024 * 1024);
  });

  it('keep it from growing past that under load, as Node 22 and later let it (to 64 MB here)', () => {
    expect(newSpaceBytes(entry, ['serve'], grownProbe)).toBeLessThanOrEqual(32 * 1024 * 1024);
  });

  it("reach node as its own options, the memory reducer's too", () => {
    const res = spawnSync(entry, ['serve'], {
      env: { ...env, NODE_OPTIONS: `--require ${argvProbe}` },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(res.status, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual(expect.arrayContaining(STARTUP_FLAGS as string[]));
  });

  it('are asked for, with a warning, when a long-running command starts without them', () => {
    const run = (command: string, args: string[]) =>
      spawnSync(command, args, { env, encoding: 'utf8', timeout: 30_000 });
    const bare = run(process.execPath, [entry, 'serve', '--help']);
    expect(bare.status).toBe(0);
    expect(bare.stderr).toContain('PxsStartupFlags');
    expect(bare.stderr).toContain('--min-semi-space-size=16');
    const direct = run(entry, ['serve', '--help']);
    expect(direct.status).toBe(0);
    expect(direct.stdout).toContain('pxs serve');
    expect(direct.stderr).toBe('');
    expect(run(process.execPath, [entry, 'migrate', '--help']).stderr).toBe('');
  });
});
