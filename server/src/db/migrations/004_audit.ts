import type { Kysely } from 'kysely';
import { runScript } from '../script.js';

/**
 * The audit log: one row per change made through the staff API or the CLI, written in the transaction of the
 * change. branch_id is the branch the changed thing belongs to (null: network-wide, such as a currency), so a
 * branch admin's reads carry it as their scope. Rows are never updated or deleted by the service.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
create table audit_log (
  id bigint generated always as identity primary key,
  actor text not null check (actor in ('staff', 'cli')),
  staff_user_id integer references staff_users(id) on delete set null,
  role text not null,
  action text not null,
  entity_type text not null,
  entity_id text not null,
  branch_id integer references branches(id) on delete set null,
  before jsonb,
  after jsonb,
  ip text,
  request_id text,
  created_at timestamptz not null default now(),
  check (actor = 'cli' or staff_user_id is not null)
);
create index audit_log_branch_idx on audit_log (branch_id, id);
create index audit_log_entity_idx on audit_log (entity_type, entity_id, id);
create index audit_log_staff_idx on audit_log (staff_user_id, id);
create index audit_log_created_idx on audit_log (created_at);
`,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(db, 'drop table audit_log;');
}
