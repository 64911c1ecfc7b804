import { sql, type Kysely } from 'kysely';
import { runScript } from '../script.js';

/**
 * Lists whose cost does not grow with the history (docs/scaling.md; docs/decisions.md, "Lists at scale"):
 * - an index per allowed sort of the orders list within a branch (the sort's column, then the id for the
 *   keyset), and for the filters that lead a query (status, operation type, user); test/db/list-indexes.test.ts checks with
 *   EXPLAIN on 200,000 orders that no allowed query scans the table;
 * - the delivery log of a webhook in id order (its default keyset);
 * - exact counts kept in the same transaction as the change, by statement triggers over transition tables
 *   (one upsert per statement, whatever the rows): orders per (branch, exchange, status), deliveries per
 *   webhook. Triggers keep the count right whoever writes the rows (the service, a script, a bench seed).
 */
const INDEXES = `
drop index orders_branch_created_idx;
create index orders_branch_created_idx on orders (branch_id, created_at, id);
create index orders_branch_updated_idx on orders (branch_id, updated_at, id);
create index orders_branch_status_idx on orders (branch_id, status, id);
create index orders_branch_client_amount_idx on orders (branch_id, client_amount, id);
create index orders_branch_exchange_amount_idx on orders (branch_id, exchange_amount, id);
create index orders_branch_operation_idx on orders (branch_id, operation_type, id);
drop index orders_user_idx;
create index orders_user_idx on orders (user_id, id) where user_id is not null;
create index webhook_deliveries_webhook_id_idx on webhook_deliveries (webhook_id, id);
create table order_counts (
  branch_id integer not null,
  cashbox_id integer not null,
  status text not null,
  n bigint not null,
  primary key (branch_id, cashbox_id, status)
);
create table webhook_delivery_counts (
  webhook_id uuid primary key,
  n bigint not null
);
insert into order_counts (branch_id, cashbox_id, status, n) select branch_id, cashbox_id, status, count(*) from orders group by 1, 2, 3;
insert into webhook_delivery_counts (webhook_id, n) select webhook_id, count(*) from webhook_deliveries group by 1;
`;

/**
 * A trigger function adding one statement's rows (`sign` 1, its new rows) or removing them (-1, its old rows).
 * Counter rows are upserted in key order, so that two statements touching the same rows (one event's
 * deliveries to several webhooks) lock them in the same order and cannot deadlock.
 */
const countFunction = (name: string, table: string, columns: string, rows: string, sign: number) => `
create function ${name}() returns trigger language plpgsql as $$
begin
  insert into ${table} (${columns}, n)
  select ${columns}, ${sign} * count(*) from ${rows} group by ${columns} order by ${columns}
  on conflict (${columns}) do update set n = ${table}.n + excluded.n;
  return null;
end $$`;

// Function bodies hold semicolons that end lines, so they are run one statement each, not through runScript.
const FUNCTIONS = [
  countFunction('order_counts_insert', 'order_counts', 'branch_id, cashbox_id, status', 'new_rows', 1),
  countFunction('order_counts_delete', 'order_counts', 'branch_id, cashbox_id, status', 'old_rows', -1),
  // An update moves the rows whose status (or exchange) changed from their old group to their new one.
  `create function order_counts_update() returns trigger language plpgsql as $$
begin
  insert into order_counts (branch_id, cashbox_id, status, n)
  select branch_id, cashbox_id, status, sum(d) from (
    select branch_id, cashbox_id, status, 1 as d from new_rows
    union all
    select branch_id, cashbox_id, status, -1 from old_rows
  ) as delta group by 1, 2, 3 having sum(d) <> 0 order by 1, 2, 3
  on conflict (branch_id, cashbox_id, status) do update set n = order_counts.n + excluded.n;
  return null;
end $$`,
  countFunction('webhook_delivery_counts_insert', 'webhook_delivery_counts', 'webhook_id', 'new_rows', 1),
  countFunction('webhook_delivery_counts_delete', 'webhook_delivery_counts', 'webhook_id', 'old_rows', -1),
];

// A transition table exists only for its trigger's event, so each event has a function of its own.
const TRIGGERS = `
create trigger order_counts_insert after insert on orders referencing new table as new_rows for each statement execute function order_counts_insert();
create trigger order_counts_update after update on orders referencing old table as old_rows new table as new_rows for each statement execute function order_counts_update();
create trigger order_counts_delete after delete on orders referencing old table as old_rows for each statement execute function order_counts_delete();
create trigger webhook_delivery_counts_insert after insert on webhook_deliveries referencing new table as new_rows for each statement execute function webhook_delivery_counts_insert();
create trigger webhook_delivery_counts_delete after delete on webhook_deliveries referencing old table as old_rows for each statement execute function webhook_delivery_counts_delete();
`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, INDEXES);
  for (const f of FUNCTIONS) await sql.raw(f).execute(db);
  await runScript(db, TRIGGERS);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
drop trigger order_counts_insert on orders;
drop trigger order_counts_update on orders;
drop trigger order_counts_delete on orders;
drop trigger webhook_delivery_counts_insert on webhook_deliveries;
drop trigger webhook_delivery_counts_delete on webhook_deliveries;
drop function order_counts_insert();
drop function order_counts_update();
drop function order_counts_delete();
drop function webhook_delivery_counts_insert();
drop function webhook_delivery_counts_delete();
drop table order_counts;
drop table webhook_delivery_counts;
drop index webhook_deliveries_webhook_id_idx;
drop index orders_user_idx;
create index orders_user_idx on orders (user_id) where user_id is not null;
drop index orders_branch_exchange_amount_idx;
drop index orders_branch_operation_idx;
drop index orders_branch_client_amount_idx;
drop index orders_branch_status_idx;
drop index orders_branch_updated_idx;
drop index orders_branch_created_idx;
create index orders_branch_created_idx on orders (branch_id, created_at);
`,
  );
}
