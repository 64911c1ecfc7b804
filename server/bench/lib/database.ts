import { sql } from 'kysely';
import pg from 'pg';
import { openDatabase, type Database } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { seedBench, type BenchData } from './seed.js';

const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** The first column of the first row of one statement, run on the server's admin database. */
export async function admin(statement: string): Promise<string> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    const res = await client.query<Record<string, unknown>>(statement);
    return String(res.rows[0] ? Object.values(res.rows[0])[0] : '');
  } finally {
    await client.end();
  }
}

export interface BenchDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

/** A database of the bench's own on the PostgreSQL server of DATABASE_URL, dropped afterwards. */
export async function createBenchDatabase(prefix = 'pxs_bench'): Promise<BenchDatabase> {
  const name = `${prefix}_${Date.now()}`;
  await admin(`create database ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: async () => {
      await admin(`drop database if exists ${name} with (force)`);
    },
  };
}

/** Migrates and seeds the database; returns what the scenarios' requests need. */
export async function prepareDatabase(url: string): Promise<BenchData> {
  const handle = await openDatabase({ databaseUrl: url, dataDir: 'memory://' });
  try {
    await migrateToLatest(handle.db);
    const data = await seedBench(handle.db);
    await settle(handle.db);
    return data;
  } finally {
    await handle.close();
  }
}

/** Removes what a write slice created, so that every slice of every process sees the same data. */
export async function removeCreatedOrders(db: Database): Promise<void> {
  await db.deleteFrom('webhook_deliveries').execute();
  await db.deleteFrom('order_status_history').execute();
  await db.deleteFrom('orders').where('comment', '<>', 'seed').execute();
  await settle(db);
}

/**
 * As pgbench does before a run: vacuum and analyze, so that autovacuum does not start on the changed tables in the
 * middle of the next slice, then a checkpoint, so that the next slice's commits do not queue behind the vacuum's writes.
 */
async function settle(db: Database): Promise<void> {
  await sql`vacuum analyze`.execute(db);
  await sql`checkpoint`.execute(db);
}
