import { sql, type RawBuilder } from 'kysely';
import type { Executor, Tx } from '../../db/database.js';

/** Whose keys: a partner's API key, or a staff user (a key string of one owner is a different key of another). */
export type Owner = { apiKeyId: string } | { staffUserId: number };

export interface StoredRow {
  request_hash: string;
  status: number | null;
  response: string | null;
}

interface Place {
  table: RawBuilder<unknown>;
  column: RawBuilder<unknown>;
  id: RawBuilder<unknown>;
}

/** API keys' keys are in idempotency_keys (006), staff users' in staff_idempotency_keys (024), with the same columns. */
function placeOf(owner: Owner): Place {
  return 'apiKeyId' in owner
    ? { table: sql.table('idempotency_keys'), column: sql.ref('api_key_id'), id: sql`${owner.apiKeyId}::uuid` }
    : {
        table: sql.table('staff_idempotency_keys'),
        column: sql.ref('staff_user_id'),
        id: sql`${owner.staffUserId}::integer`,
      };
}

/**
 * Takes the key for this request: inserts its row, or takes over an expired one. A row of a transaction still
 * running makes this wait (the unique index) until that transaction ends, up to the lock timeout. Returns
 * false when the key is held by a committed, unexpired row.
 */
export async function claim(tx: Tx, owner: Owner, key: string, hash: string, ttlHours: number): Promise<boolean> {
  const { table, column, id } = placeOf(owner);
  const { rows } = await sql<{ one: number }>`
    insert into ${table} (${column}, key, request_hash, expires_at)
    values (${id}, ${key}, ${hash}, now() + make_interval(hours => ${ttlHours}))
    on conflict (${column}, key) do update
      set request_hash = excluded.request_hash, status = null, response = null, created_at = now(), expires_at = excluded.expires_at
      where ${table}.expires_at <= now()
    returning 1 as one`.execute(tx);
  return rows.length === 1;
}

export async function findStored(tx: Tx, owner: Owner, key: string): Promise<StoredRow | undefined> {
  const { table, column, id } = placeOf(owner);
  const { rows } = await sql<StoredRow>`
    select request_hash, status, response from ${table} where ${column} = ${id} and key = ${key}`.execute(tx);
  return rows[0];
}

export async function store(tx: Tx, owner: Owner, key: string, status: number, response: string): Promise<void> {
  const { table, column, id } = placeOf(owner);
  await sql`update ${table} set status = ${status}, response = ${response} where ${column} = ${id} and key = ${key}`.execute(
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

/** Deletes expired keys, at most `batch` a call from each owner's table (the retention sweep calls it). */
export async function pruneExpired(db: Executor, batch = 1000): Promise<number> {
  const partners = await sql`
    delete from idempotency_keys where (api_key_id, key) in (
      select api_key_id, key from idempotency_keys where expires_at < now() order by expires_at limit ${batch} for update skip locked)`.execute(
    db,
  );
  const staff = await sql`
    delete from staff_idempotency_keys where (staff_user_id, key) in (
      select staff_user_id, key from staff_idempotency_keys where expires_at < now() order by expires_at limit ${batch} for update skip locked)`.execute(
    db,
  );
  return Number(partners.numAffectedRows ?? 0) + Number(staff.numAffectedRows ?? 0);
}
