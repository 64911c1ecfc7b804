import { sql, type Kysely } from 'kysely';
import { runScript } from '../script.js';

/**
 * Exact totals of the unfiltered clients list and audit log, kept by statement triggers as `order_counts` is
 * (migration 005): counting up to the cap on every page of a branch with a long history cost as much as the rest of
 * the page (docs/scaling.md), and an unfiltered list's total is to be exact, not capped.
 * - `client_counts`: per branch (a client's branch never changes).
 * - `audit_counts`: per branch, with 0 for the network-wide rows that have none (an audit row is never changed).
 * Counter rows are upserted in key order, so that concurrent statements cannot deadlock on them.
 */
const TABLES = `
create table client_counts (
  branch_id integer primary key,
  n bigint not null
);
create table audit_counts (
  branch_key integer primary key,
  n bigint not null
);
insert into client_counts (branch_id, n) select branch_id, count(*) from clients group by 1;
insert into audit_counts (branch_key, n) select coalesce(branch_id, 0), count(*) from audit_log group by 1;
`;

const countFunction = (name: string, table: string, key: string, expression: string, rows: string, sign: number) => `
create function ${name}() returns trigger language plpgsql as $$
begin
  insert into ${table} (${key}, n)
  select ${expression}, ${sign} * count(*) from ${rows} group by 1 order by 1
  on conflict (${key}) do update set n = ${table}.n + excluded.n;
  return null;
end $$`;

const FUNCTIONS = [
  countFunction('client_counts_insert', 'client_counts', 'branch_id', 'branch_id', 'new_rows', 1),
  countFunction('client_counts_delete', 'client_counts', 'branch_id', 'branch_id', 'old_rows', -1),
  countFunction('audit_counts_insert', 'audit_counts', 'branch_key', 'coalesce(branch_id, 0)', 'new_rows', 1),
  countFunction('audit_counts_delete', 'audit_counts', 'branch_key', 'coalesce(branch_id, 0)', 'old_rows', -1),
];

const TRIGGERS = `
create trigger client_counts_insert after insert on clients referencing new table as new_rows for each statement execute function client_counts_insert();
create trigger client_counts_delete after delete on clients referencing old table as old_rows for each statement execute function client_counts_delete();
create trigger audit_counts_insert after insert on audit_log referencing new table as new_rows for each statement execute function audit_counts_insert();
create trigger audit_counts_delete after delete on audit_log referencing old table as old_rows for each statement execute function audit_counts_delete();
`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, TABLES);
  // Function bodies hold semicolons that end lines, so they are run one statement each, not through runScript.
  for (const f of FUNCTIONS) await sql.raw(f).execute(db);
  await runScript(db, TRIGGERS);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
drop trigger client_counts_insert on clients;
drop trigger client_counts_delete on clients;
drop trigger audit_counts_insert on audit_log;
drop trigger audit_counts_delete on audit_log;
drop function client_counts_insert();
drop function client_counts_delete();
drop function audit_counts_insert();
drop function audit_counts_delete();
drop table client_counts;
drop table audit_counts;
`,
  );
}
