import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function newest(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((f) => newest(join(path, f))));
}

/**
 * vitest's global setup: the tests drive the built console, so build it when its sources are newer than the build
 * (a production build: vitest's NODE_ENV=test would make Vite build React's development variant).
 */
export default function setup(): void {
  const built = join(ROOT, 'dist', 'index.html');
  const sources = Math.max(...['src', 'public', 'index.html', 'vite.config.ts'].map((p) => newest(join(ROOT, p))));
  if (!existsSync(built) || statSync(built).mtimeMs < sources)
    execFileSync('npx', ['vite', 'build', '--logLevel', 'warn'], {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...process.env, NODE_ENV: 'production' },
    });
  if (!existsSync(fileURLToPath(new URL('../../../server/dist/src/cli/main.js', import.meta.url)))) {
    throw new Error(
      'The server is not built: run `npm ci` (or `npm run build --workspace server`) at the repository root',
    );
  }
}
