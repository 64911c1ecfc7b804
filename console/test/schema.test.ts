import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const CONSOLE = fileURLToPath(new URL('..', import.meta.url));

/**
 * src/api/schema.d.ts is generated from sdk/openapi.json (which the server's tests hold to what it serves). A
 * stale copy would let the console typecheck against an API that no longer exists: `npm run openapi` at the root.
 */
describe('src/api/schema.d.ts', () => {
  it('is what openapi-typescript generates from sdk/openapi.json', () => {
    const out = mkdtempSync(join(tmpdir(), 'pxs-schema-'));
    try {
      // The package's bin, found from its package.json (its exports map would turn bin/cli.js into a missing .mjs).
      const pkg = createRequire(import.meta.url).resolve('openapi-typescript/package.json');
      const cli = join(dirname(pkg), JSON.parse(readFileSync(pkg, 'utf8')).bin['openapi-typescript']);
      execFileSync(process.execPath, [cli, '../sdk/openapi.json', '-o', join(out, 'schema.d.ts')], { cwd: CONSOLE, stdio: 'pipe' });
      const generated = readFileSync(join(out, 'schema.d.ts'), 'utf8');
      const committed = readFileSync(join(CONSOLE, 'src/api/schema.d.ts'), 'utf8');
      expect(committed === generated, 'src/api/schema.d.ts is stale: run `npm run openapi` at the repository root').toBe(true);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
