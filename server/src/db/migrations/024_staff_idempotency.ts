import type { Kysely } from 'kysely';
import { runScript } from '../script.js';

/**
 * Stored answers of staff users' idempotent requests (counter orders and their clients), keyed per staff user as
 * partners' are per API key. A table beside idempotency_keys rather than a second, nullable owner column in it:
 * the partners' table, its primary key and its queries stay exactly as they are (no rebuilt key on a table of a
 * day's keys, no owner that may be either), and each table's primary key is its natural one. The price is a second
 * delete in the retention sweep. Its columns mean what idempotency_keys' mean (006_integration).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
create table staff_idempotency_keys (
  staff_user_id integer not null references staff_users(id) on delete cascade,
  key text not null,
  request_hash text not null,
  status integer,
  response text,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  primary key (staff_user_id, key)
);
create index staff_idempotency_keys_expires_idx on staff_idempotency_keys (expires_at);
`,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(db, `drop table staff_idempotency_keys;`);
}
