import { execFile } from 'node:child_process';
import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorld } from '../../server/test/helpers/fixture.js';
import type { TestServer } from '../../server/test/helpers/server.js';
import type { World } from '../../server/test/helpers/world.js';
import { worker } from '../../server/test/features/webhooks/support.js';

/**
 * The install steps of docs/sdk.md and sdk/README.md, as written, in a copy of sdk/ alone (outside the monorepo,
 * so nothing comes from the workspace's node_modules): `npm install`, `npm pack` (its prepack builds with the
 * copy's own TypeScript), and the quickstart with `npx tsx`, which must find tsx among the SDK's own
 * devDependencies (--no-install: npx may not fetch it), against the real server and its webhook worker.
 */
const run = promisify(execFile);
const sdkDir = fileURLToPath(new URL('..', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

let server: TestServer;
let world: World;
let stopWorker: (() => Promise<void>) | undefined;
let dir: string;
beforeAll(async () => {
  ({ server, world } = await startWorld());
  const w = await worker(server);
  stopWorker = () => w.stop();
  dir = await mkdtemp(join(tmpdir(), 'pxs-sdk-standalone-'));
});
afterAll(async () => {
  await stopWorker?.();
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('a copy of sdk/ on its own', () => {
  it('installs, packs with `npm pack` and runs the quickstart with `npx tsx examples/quickstart.ts`', async () => {
    const copy = join(dir, 'sdk');
    const skip = new Set(['node_modules', 'dist']);
    await cp(sdkDir, copy, { recursive: true, filter: (from) => !skip.has(basename(from)) && !from.endsWith('.tgz') });

    // The dependencies come from the npm cache when they are there (they are, after the workspace's install).
    await run(npm, ['install', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: copy, timeout: 240_000 });
    const packed = await run(npm, ['pack', '--json'], { cwd: copy, timeout: 120_000 });
    const [{ filename, files }] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('[')));
    expect(await readdir(copy)).toContain(filename);
    expect(files.map((f: { path: string }) => f.path)).toEqual(
      expect.arrayContaining(['dist/index.js', 'dist/index.d.ts']),
    );

    const { stdout } = await run(npx, ['--no-install', 'tsx', 'examples/quickstart.ts'], {
      cwd: copy,
      timeout: 90_000,
      env: { ...process.env, PXS_BASE_URL: server.url, PXS_API_KEY: world.keys.branch },
    });
    expect(stdout).toMatch(/^100 USD → [\d.]+ EUR at exchange \d+$/m);
    expect(stdout).toMatch(/^order \d+ \(ORDERINIT\): 100 → [\d.]+$/m);
    expect(stdout).toMatch(/^webhook verified: order.created for order \d+, [\d.]+ to pay out$/m);
  }, 480_000);
});
