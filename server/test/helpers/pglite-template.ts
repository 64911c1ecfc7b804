import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { adminQuery, waitForSessionsToEnd, withDatabase } from './postgres.js';

/**
 * Global setup: every test file's database starts from one migrated once per run (database.ts copies it).
 * On PGlite a new cluster runs initdb in WASM (about 4 s a file on this machine) where loading a dump takes
 * about 1 s. On PostgreSQL, CREATE DATABASE … TEMPLATE copies the migrated files instead of running 15 migrations
 * a file, as immich's medium tests do.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const adminUrl = process.env.DATABASE_URL;
  if (adminUrl) {
    project.provide('pgliteTemplate', '');
    const name = `pxs_template_${randomBytes(6).toString('hex')}`;
    await adminQuery(adminUrl, `create database ${name}`);
    const handle = await openDatabase({ databaseUrl: withDatabase(adminUrl, name), dataDir: 'memory://' });
    try {
      await migrateToLatest(handle.db);
    } finally {
      await handle.close();
    }
    await waitForSessionsToEnd(adminUrl, name);
    project.provide('postgresTemplate', name);
    return () => adminQuery(adminUrl, `drop database if exists ${name} with (force)`);
  }
  project.provide('postgresTemplate', '');
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
