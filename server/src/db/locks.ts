import { sql } from 'kysely';
import type { Database, Executor, Tx } from './database.js';

/** Runs `fn` in the caller's transaction, or in a new one when given the database. */
export function inTransaction<T>(db: Executor, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db as Tx) : (db as Database).transaction().execute(fn);
}

/**
 * Serialises the transactions that name the same `key` until they end (a transaction-level advisory lock), so
 * that "count, then insert if under the limit" cannot let two concurrent inserts past one limit.
 */
export async function lockFor(tx: Tx, key: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${key}))`.execute(tx);
}
