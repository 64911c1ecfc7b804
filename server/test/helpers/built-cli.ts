import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SERVER = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The built CLI (`npm run build`, which `npm ci` runs), as `bin/pxs.js` loads it. Tests that start `pxs` as a process
 * run this rather than `node --import tsx src/cli/main.ts`: tsx compiled the whole program at every start, about 3 s
 * of CPU of each start's 4, and the CLI files started some 150 processes a pass.
 */
export const PXS_MAIN = join(SERVER, 'dist/src/cli/main.js');

function newest(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newest(join(path, name))));
}

/**
 * vitest's global setup of the integration tests: builds the server when a source is newer than the build, so that
 * a process started by a test runs the code under test, never an earlier build. tsc rewrites every output, so the
 * entry's time is the build's. On a fresh build (CI, after `npm ci`) this costs a walk of src/.
 */
export default function setup(): void {
  const sources = Math.max(
    newest(join(SERVER, 'src')),
    ...['tsconfig.json', 'tsconfig.build.json'].map((f) => statSync(join(SERVER, f)).mtimeMs),
  );
  if (existsSync(PXS_MAIN) && statSync(PXS_MAIN).mtimeMs >= sources) return;
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], {
    cwd: SERVER,
    stdio: 'inherit',
  });
}
