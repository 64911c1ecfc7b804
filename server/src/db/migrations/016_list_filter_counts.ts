import { sql, type Kysely } from 'kysely';
import { runScript } from '../script.js';

/**
 * Counters for the filters of the lists that grow with history, so that a filtered page does not count up to
 * 10,001 rows each time (docs/scaling.md): at a million rows that count cost as much as the rest of the page.
 *
 * - Equality filters count exactly: `order_counts` gains the operation type, `webhook_delivery_counts` the
 *   status and the event (a delivery's status changes: an update trigger moves it between groups), `audit_counts`
 *   the actor, action and entity type.
 * - A window of `createdAt` reads per-day counters (`order_days`, `webhook_delivery_days`, `audit_days`, by the
 *   UTC day): the days wholly inside the window are a lower bound of its matches, and once that bound passes the
 *   cap the count stops there without reading a row (the total means what it meant: 10,000 and capped).
 * - `order_days` also keeps the smallest and largest order id of each day: a window in id order starts its walk of
 *   the primary key at the window's first day instead of walking every earlier order. Ids only ever widen the
 *   range (a deleted order leaves it as it was), so the bound stays a bound.
 *
 * The orders' counters are upserted in key order, as before: an order is written by one statement per transaction.
 * The deliveries' and the audit log's may be written by several statements of one transaction (the worker records
 * successes and failures in two, each over several webhooks; a change may log several actions), and an upsert
 * in each would lock counter rows in an order that two such transactions can cross (a deadlock). Their counters
 * therefore take no lock that anyone waits for: a statement adds its change as new rows, and folds the rows of
 * the groups it touched into one, deleting only rows no other transaction holds (`for update skip locked`). A
 * group has as many rows as transactions folding it at once; a count is their sum.
 *
 * The counted tables are locked while their counters are rebuilt here, so no write is counted twice or missed.
 *
 * The audit log also gets the index of a branch's changes to one entity in time order: through (entity_type,
 * entity_id) the page read every change to the entity from the table and sorted it, and its count read them again
 * (200 rows of a million at 0.49 of the small branch's rate).
 */
const DAY = (column: string) => `(${column} at time zone 'UTC')::date`;

const REKEY = `
lock table orders, webhook_deliveries, audit_log in share mode;
truncate order_counts, webhook_delivery_counts, audit_counts;
alter table order_counts drop constraint order_counts_pkey, add column operation_type text not null;
alter table order_counts add primary key (branch_id, cashbox_id, status, operation_type);
alter table webhook_delivery_counts drop constraint webhook_delivery_counts_pkey, add column status text not null, add column event text not null;
create index webhook_delivery_counts_idx on webhook_delivery_counts (webhook_id, status, event);
alter table audit_counts drop constraint audit_counts_pkey, add column actor text not null, add column action text not null, add column entity_type text not null;
create index audit_counts_idx on audit_counts (branch_key, actor, action, entity_type);
create index audit_log_branch_entity_idx on audit_log (branch_id, entity_type, entity_id, created_at, id);
insert into order_counts (branch_id, cashbox_id, status, operation_type, n) select branch_id, cashbox_id, status, operation_type, count(*) from orders group by 1, 2, 3, 4;
insert into webhook_delivery_counts (webhook_id, status, event, n) select webhook_id, status, event, count(*) from webhook_deliveries group by 1, 2, 3;
insert into audit_counts (branch_key, actor, action, entity_type, n) select coalesce(branch_id, 0), actor, action, entity_type, count(*) from audit_log group by 1, 2, 3, 4;
create table order_days (
  branch_id integer not null,
  day date not null,
  n bigint not null,
  min_id integer not null,
  max_id integer not null,
  primary key (branch_id, day)
);
create table webhook_delivery_days (
  webhook_id uuid not null,
  day date not null,
  n bigint not null
);
create index webhook_delivery_days_idx on webhook_delivery_days (webhook_id, day);
create table audit_days (
  branch_key integer not null,
  day date not null,
  n bigint not null
);
create index audit_days_idx on audit_days (branch_key, day);
insert into order_days (branch_id, day, n, min_id, max_id) select branch_id, ${DAY('created_at')}, count(*), min(id), max(id) from orders group by 1, 2;
insert into webhook_delivery_days (webhook_id, day, n) select webhook_id, ${DAY('created_at')}, count(*) from webhook_deliveries group by 1, 2;
insert into audit_days (branch_key, day, n) select coalesce(branch_id, 0), ${DAY('created_at')}, count(*) from audit_log group by 1, 2;
`;

type Source = 'new_rows' | 'old_rows';

/** One statement's change per group: its new rows added, its old rows taken away (an update has both). */
const delta = (keys: string[], values: string[], sources: Source[]) => {
  const rows = sources
    .map((s) => `select ${values.join(', ')}, ${s === 'new_rows' ? 1 : -1} from ${s}`)
    .join(' union all ');
  return `select ${keys.join(', ')}, sum(d) from (${rows}) as delta (${keys.join(', ')}, d)
    group by ${keys.map((_, i) => i + 1).join(', ')} having sum(d) <> 0`;
};

/** The change upserted, groups in key order (the orders' counters). */
const upsert = (table: string, keys: string[], values: string[], sources: Source[]) => `
  insert into ${table} (${keys.join(', ')}, n)
  ${delta(keys, values, sources)} order by ${keys.map((_, i) => i + 1).join(', ')}
  on conflict (${keys.join(', ')}) do update set n = ${table}.n + excluded.n;`;

/** The change added and the touched groups folded, without waiting for any lock (the deliveries' and the audit log's). */
const fold = (table: string, keys: string[], values: string[], sources: Source[]) => {
  const cols = keys.join(', ');
  const positions = keys.map((_, i) => i + 1).join(', ');
  return `
  with change (${cols}, n) as (${delta(keys, values, sources)}),
  folded as (
    delete from ${table} c where c.ctid = any(array(
      select t.ctid from ${table} t where (${keys.map((k) => `t.${k}`).join(', ')}) in (select ${cols} from change) for update skip locked))
    returning ${keys.map((k) => `c.${k}`).join(', ')}, c.n)
  insert into ${table} (${cols}, n)
  select ${cols}, sum(n) from (select * from change union all select * from folded) as f (${cols}, n)
  group by ${positions} having sum(n) <> 0;`;
};

/**
 * The days of orders: their counts, and an id range that only ever widens (a deleted order leaves it as it was;
 * a range too wide is still a bound).
 */
const orderDays = (sources: Source[]) => `
  insert into order_days (branch_id, day, n, min_id, max_id)
  select branch_id, day, sum(d), min(id), max(id) from (${sources.map((s) => `select branch_id, ${DAY('created_at')} as day, id, ${s === 'new_rows' ? 1 : -1} as d from ${s}`).join(' union all ')}) as change
  group by 1, 2 having sum(d) <> 0 order by 1, 2
  on conflict (branch_id, day) do update
  set n = order_days.n + excluded.n, min_id = least(order_days.min_id, excluded.min_id), max_id = greatest(order_days.max_id, excluded.max_id);`;

const COUNTERS = {
  orders: (s: Source[]) =>
    upsert(
      'order_counts',
      ['branch_id', 'cashbox_id', 'status', 'operation_type'],
      ['branch_id', 'cashbox_id', 'status', 'operation_type'],
      s,
    ) + orderDays(s),
  deliveries: (s: Source[]) =>
    fold('webhook_delivery_counts', ['webhook_id', 'status', 'event'], ['webhook_id', 'status', 'event'], s) +
    fold('webhook_delivery_days', ['webhook_id', 'day'], ['webhook_id', DAY('created_at')], s),
  audit: (s: Source[]) =>
    fold(
      'audit_counts',
      ['branch_key', 'actor', 'action', 'entity_type'],
      ['coalesce(branch_id, 0)', 'actor', 'action', 'entity_type'],
      s,
    ) + fold('audit_days', ['branch_key', 'day'], [`coalesce(branch_id, 0)`, DAY('created_at')], s),
};

const fn = (name: string, body: string) => `
create or replace function ${name}() returns trigger language plpgsql as $$
begin${body}
  return null;
end $$`;

// The insert and delete functions keep their names (the triggers of migrations 005 and 015 call them); the
// deliveries and the audit log gain an update trigger.
const FUNCTIONS = [
  fn('order_counts_insert', COUNTERS.orders(['new_rows'])),
  fn('order_counts_update', COUNTERS.orders(['new_rows', 'old_rows'])),
  fn('order_counts_delete', COUNTERS.orders(['old_rows'])),
  fn('webhook_delivery_counts_insert', COUNTERS.deliveries(['new_rows'])),
  fn('webhook_delivery_counts_update', COUNTERS.deliveries(['new_rows', 'old_rows'])),
  fn('webhook_delivery_counts_delete', COUNTERS.deliveries(['old_rows'])),
  fn('audit_counts_insert', COUNTERS.audit(['new_rows'])),
  fn('audit_counts_update', COUNTERS.audit(['new_rows', 'old_rows'])),
  fn('audit_counts_delete', COUNTERS.audit(['old_rows'])),
];

const TRIGGERS = `
create trigger webhook_delivery_counts_update after update on webhook_deliveries referencing old table as old_rows new table as new_rows for each statement execute function webhook_delivery_counts_update();
create trigger audit_counts_update after update on audit_log referencing old table as old_rows new table as new_rows for each statement execute function audit_counts_update();
`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, REKEY);
  // Function bodies hold semicolons that end lines, so they are run one statement each, not through runScript.
  for (const f of FUNCTIONS) await sql.raw(f).execute(db);
  await runScript(db, TRIGGERS);
}

/** Back to migrations 005 and 015's counters: per (branch, exchange, status), per webhook, per branch. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
drop trigger webhook_delivery_counts_update on webhook_deliveries;
drop trigger audit_counts_update on audit_log;
drop function webhook_delivery_counts_update();
drop function audit_counts_update();
drop index audit_log_branch_entity_idx;
drop table order_days;
drop table webhook_delivery_days;
drop table audit_days;
lock table orders, webhook_deliveries, audit_log in share mode;
truncate order_counts, webhook_delivery_counts, audit_counts;
alter table order_counts drop constraint order_counts_pkey, drop column operation_type;
alter table order_counts add primary key (branch_id, cashbox_id, status);
drop index webhook_delivery_counts_idx;
drop index audit_counts_idx;
alter table webhook_delivery_counts drop column status, drop column event;
alter table webhook_delivery_counts add primary key (webhook_id);
alter table audit_counts drop column actor, drop column action, drop column entity_type;
alter table audit_counts add primary key (branch_key);
insert into order_counts (branch_id, cashbox_id, status, n) select branch_id, cashbox_id, status, count(*) from orders group by 1, 2, 3;
insert into webhook_delivery_counts (webhook_id, n) select webhook_id, count(*) from webhook_deliveries group by 1;
insert into audit_counts (branch_key, n) select coalesce(branch_id, 0), count(*) from audit_log group by 1;
`,
  );
  const old = (name: string, table: string, cols: string, values: string, rows: string, sign: number) =>
    fn(
      name,
      `
  insert into ${table} (${cols}, n)
  select ${values}, ${sign} * count(*) from ${rows} group by ${cols
    .split(',')
    .map((_, i) => i + 1)
    .join(', ')} order by ${cols
    .split(',')
    .map((_, i) => i + 1)
    .join(', ')}
  on conflict (${cols}) do update set n = ${table}.n + excluded.n;`,
    );
  for (const f of [
    old(
      'order_counts_insert',
      'order_counts',
      'branch_id, cashbox_id, status',
      'branch_id, cashbox_id, status',
      'new_rows',
      1,
    ),
    old(
      'order_counts_delete',
      'order_counts',
      'branch_id, cashbox_id, status',
      'branch_id, cashbox_id, status',
      'old_rows',
      -1,
    ),
    fn(
      'order_counts_update',
      upsert(
        'order_counts',
        ['branch_id', 'cashbox_id', 'status'],
        ['branch_id', 'cashbox_id', 'status'],
        ['new_rows', 'old_rows'],
      ),
    ),
    old('webhook_delivery_counts_insert', 'webhook_delivery_counts', 'webhook_id', 'webhook_id', 'new_rows', 1),
    old('webhook_delivery_counts_delete', 'webhook_delivery_counts', 'webhook_id', 'webhook_id', 'old_rows', -1),
    old('audit_counts_insert', 'audit_counts', 'branch_key', 'coalesce(branch_id, 0)', 'new_rows', 1),
    old('audit_counts_delete', 'audit_counts', 'branch_key', 'coalesce(branch_id, 0)', 'old_rows', -1),
  ])
    await sql.raw(f).execute(db);
}
