import { sql } from 'kysely';
import type { Executor, Tx } from '../../db/database.js';

export interface StoredRow {
  request_hash: string;
  status: number | null;
  response: string | null;
}

/**
 * Takes the key for this request: inserts its row, or takes over an expired one. A row of a transaction still
 * running makes this wait (the unique index) until that transaction ends, up to the lock timeout. Returns
 * false when the key is held by a committed, unexpired row.
 */
export async function claim(tx: Tx, apiKeyId: string, key: string, hash: string, ttlHours: number): Promise<boolean> {
  const { rows } = await sql<{ one: number }>`
    insert into idempotency_keys (api_key_id, key, request_hash, expires_at)
    values (${apiKeyId}::uuid, ${key}, ${hash}, now() + make_interval(hours => ${ttlHours}))
    on conflict (api_key_id, key) do update
      set request_hash = excluded.request_hash, status = null, response = null, created_at = now(), expires_at = excluded.expires_at
      where idempotency_keys.expires_at <= now()
    returning 1 as one`.execute(tx);
  return rows.length === 1;
}

export async function findStored(tx: Tx, apiKeyId: string, key: string): Promise<StoredRow | undefined> {
  const { rows } = await sql<StoredRow>`
    select request_hash, status, response from idempotency_keys where api_key_id = ${apiKeyId}::uuid and key = ${key}`.execute(
    tx,
  );
  return rows[0];
}

export async function store(tx: Tx, apiKeyId: string, key: string, status: number, response: string): Promise<void> {
  await sql`update idempotency_keys set status = ${status}, response = ${response} where api_key_id = ${apiKeyId}::uuid and key = ${key}`.execute(
    tx,
  );
}

/**
 * How long a request waits for another one holding its key before it gives up (409). PostgreSQL reads a
 * lock_timeout of 0 as no limit at all, where IDEMPOTENCY_LOCK_WAIT_MS=0 means not to wait: the shortest it takes.
 */
export async function setLockTimeout(tx: Tx, ms: number): Promise<void> {
  await sql`select set_config('lock_timeout', ${`${Math.max(1, ms)}ms`}, true)`.execute(tx);
}

export async function clearLockTimeout(tx: Tx): Promise<void> {
  await sql`select set_config('lock_timeout', '0', true)`.execute(tx);
}

/** Deletes expired keys, at most `batch` a call (the retention sweep calls it). */
export async function pruneExpired(db: Executor, batch = 1000): Promise<number> {
  const result = await sql`
    delete from idempotency_keys where (api_key_id, key) in (
      select api_key_id, key from idempotency_keys where expires_at < now() order by expires_at limit ${batch} for update skip locked)`.execute(
    db,
  );
  return Number(result.numAffectedRows ?? 0);
}
