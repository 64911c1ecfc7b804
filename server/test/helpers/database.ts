import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { inject } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { adminQuery, waitForSessionsToEnd, withDatabase } from './postgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated embedded database dumped once per run (pglite-template.ts); empty on the PostgreSQL pass, absent in
     * the other workspaces' runs. */
    pgliteTemplate: string | undefined;
    /** The PostgreSQL pass's migrated database (pglite-template.ts), which each file's database is created from. */
    postgresTemplate: string | undefined;
  }
}

/**
 * The suite runs on embedded PGlite, or on PostgreSQL when DATABASE_URL is set. Either way a database is a copy of
 * one migrated per run, so migrating costs once per run rather than once per file: PGlite loads the template's
 * dump, PostgreSQL creates the database `TEMPLATE` it (a file copy on the server).
 */
export const usingPostgres = Boolean(process.env.DATABASE_URL);

export interface TestDatabase extends DatabaseHandle {
  url?: string;
}

export async function openTestDatabase(): Promise<TestDatabase> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    const file = inject('pgliteTemplate');
    const handle = await openDatabase({
      dataDir: 'memory://',
      template: file ? new Blob([await readFile(file)]) : undefined,
    });
    await migrateToLatest(handle.db);
    return handle;
  }
  const name = `pxs_test_${randomBytes(6).toString('hex')}`;
  // Without a template (a run whose config has no pglite-template.ts global setup) the database is migrated here.
  const template = inject('postgresTemplate');
  await adminQuery(adminUrl, template ? `create database ${name} template ${template}` : `create database ${name}`);
  const url = withDatabase(adminUrl, name);
  const handle = await openDatabase({ databaseUrl: url, dataDir: 'memory://', poolSize: 20 });
  await migrateToLatest(handle.db);
  return {
    ...handle,
    url,
    close: async () => {
      await handle.close();
      await waitForSessionsToEnd(adminUrl, name);
      await adminQuery(adminUrl, `drop database if exists ${name} with (force)`);
    },
  };
}
