import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { inject } from 'vitest';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated embedded database dumped once per run (pglite-template.ts); empty on the PostgreSQL pass, absent in
     * the other workspaces' runs. */
    pgliteTemplate: string | undefined;
  }
}

/** The suite runs on embedded PGlite, or on PostgreSQL when DATABASE_URL is set (a fresh database per test file). */
export const usingPostgres = Boolean(process.env.DATABASE_URL);

export interface TestDatabase extends DatabaseHandle {
  url?: string;
}

export async function openTestDatabase(): Promise<TestDatabase> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    const file = inject('pgliteTemplate');
    const handle = await openDatabase({ dataDir: 'memory://', template: file ? new Blob([await readFile(file)]) : undefined });
    await migrateToLatest(handle.db);
    return handle;
  }
  const name = `pxs_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(adminUrl, `create database ${name}`);
  const url = withDatabase(adminUrl, name);
  const handle = await openDatabase({ databaseUrl: url, dataDir: 'memory://', poolSize: 20 });
  await migrateToLatest(handle.db);
  return {
    ...handle,
    url,
    close: async () => {
      await handle.close();
      // pg's pool.end() resolves before its sockets close; a forced drop would then kill them mid-goodbye
      // (FATAL 57P01 surfacing as an unhandled error), so wait for the sessions to leave first.
      await waitForSessionsToEnd(adminUrl, name);
      await adminQuery(adminUrl, `drop database if exists ${name} with (force)`);
    },
  };
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function adminQuery(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

async function waitForSessionsToEnd(url: string, database: string, timeoutMs = 2000): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const deadline = Date.now() + timeoutMs; Date.now() < deadline;) {
      const { rows } = await client.query('select count(*)::int as n from pg_stat_activity where datname = $1', [database]);
      if (rows[0].n === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    await client.end();
  }
}
