import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';

/**
 * Global setup: every test file's embedded database starts from one migrated dump, because a new PGlite cluster
 * runs initdb in WASM (about 4 s a file on this machine) where loading a dump takes about 1 s.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (process.env.DATABASE_URL) {
    project.provide('pgliteTemplate', '');
    return async () => undefined;
  }
  const dir = await mkdtemp(join(tmpdir(), 'pxs-test-'));
  const file = join(dir, 'migrated.tar');
  const handle = await openDatabase({ dataDir: 'memory://' });
  try {
    await migrateToLatest(handle.db);
    await writeFile(file, Buffer.from(await (await handle.dump!()).arrayBuffer()));
  } finally {
    await handle.close();
  }
  project.provide('pgliteTemplate', file);
  return () => rm(dir, { recursive: true, force: true });
}
