import { sql, type Kysely } from 'kysely';
import { runScript } from '../script.js';

/**
 * The catalogue snapshot's invalidation (docs/scaling.md): a change to exchanges, their schedules, offers or currencies
 * sends `pg_notify('pxs_catalog', <branch id>)` for each branch it touches, or `'*'` when it touches every branch
 * (currencies are shared, a truncate names no rows). Statement triggers over transition tables, so whoever writes
 * (the API, the CLI, a seed, psql) is heard, once per statement and branch; NOTIFY is delivered only when the
 * transaction commits, and identical notifications of one transaction are sent once.
 */
export const CATALOG_CHANNEL = 'pxs_catalog';

/** Notifies the branches of the statement's rows; `branches` selects them from `rows` (new_rows or old_rows). */
const notifyFunction = (name: string, branches: (rows: string) => string) => `
create function ${name}() returns trigger language plpgsql as $$
declare b integer;
begin
  if TG_OP in ('INSERT', 'UPDATE') then
    for b in ${branches('new_rows')} loop perform pg_notify('${CATALOG_CHANNEL}', b::text); end loop;
  end if;
  if TG_OP in ('UPDATE', 'DELETE') then
    for b in ${branches('old_rows')} loop perform pg_notify('${CATALOG_CHANNEL}', b::text); end loop;
  end if;
  return null;
end $$`;

const viaExchange = (rows: string) =>
  `select distinct e.branch_id from ${rows} r join exchanges e on e.id = r.exchange_id`;

const FUNCTIONS = [
  notifyFunction('catalog_notify_exchanges', (rows) => `select distinct branch_id from ${rows}`),
  notifyFunction('catalog_notify_by_exchange', viaExchange),
  `create function catalog_notify_all() returns trigger language plpgsql as $$
begin
  perform pg_notify('${CATALOG_CHANNEL}', '*');
  return null;
end $$`,
];

const TABLES: [table: string, fn: string][] = [
  ['exchanges', 'catalog_notify_exchanges'],
  ['exchange_schedule', 'catalog_notify_by_exchange'],
  ['offers', 'catalog_notify_by_exchange'],
];

// A transition table exists only for its trigger's event, so each event has a trigger of its own.
const TRIGGERS =
  TABLES.map(
    ([table, fn]) => `
create trigger ${table}_catalog_insert after insert on ${table} referencing new table as new_rows for each statement execute function ${fn}();
create trigger ${table}_catalog_update after update on ${table} referencing old table as old_rows new table as new_rows for each statement execute function ${fn}();
create trigger ${table}_catalog_delete after delete on ${table} referencing old table as old_rows for each statement execute function ${fn}();
create trigger ${table}_catalog_truncate after truncate on ${table} for each statement execute function catalog_notify_all();
`,
  ).join('') +
  `
create trigger currencies_catalog after insert or update or delete or truncate on currencies for each statement execute function catalog_notify_all();
`;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const f of FUNCTIONS) await sql.raw(f).execute(db);
  await runScript(db, TRIGGERS);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `${TABLES.map(([table]) => ['insert', 'update', 'delete', 'truncate'].map((e) => `drop trigger ${table}_catalog_${e} on ${table};\n`).join('')).join('')}
drop trigger currencies_catalog on currencies;
drop function catalog_notify_exchanges();
drop function catalog_notify_by_exchange();
drop function catalog_notify_all();
`,
  );
}
