import { sql, type Kysely } from 'kysely';
import { runScript } from '../script.js';

/**
 * Cash positions (docs/cash.md): what each exchange holds of each currency it tracks, the part promised to open
 * orders, and the append-only ledger of every change to the balance.
 *
 * The hold of a new order is taken by a trigger on the order's own insert: order creation is one statement without
 * a transaction of its own (orders/repository.ts), and a hold taken by a statement of its own would need one (four
 * round trips instead of one). The trigger reads the position (one index probe: an untracked currency costs no
 * more), and takes the hold with one conditional update that PostgreSQL re-checks against the newest row version
 * when a concurrent order held first, so concurrent orders never hold more than the balance. A refusal is raised as
 * SQLSTATE PX001 with the available amount as its detail; the statement then writes nothing.
 *
 * Releases and settlements are made by the order's move (orders/service.ts moveOrder), in its transaction.
 *
 * A change to a position sends the catalogue's notification (009_catalog_notify), since partners' rates carry the
 * reserve.
 */
export const INSUFFICIENT_RESERVE = 'PX001';

const HOLD_FUNCTION = `
create function cash_hold() returns trigger language plpgsql as $$
declare avail numeric;
begin
  if new.status not in ('ORDERINIT', 'CLIENTPAYMENTWAIT', 'EXCHANGEPAYMENTWAIT', 'CASHOUT') then
    return new;
  end if;
  select balance - held into avail from cash_positions
    where exchange_id = new.cashbox_id and currency_id = new.currency2_id;
  if not found then
    return new;
  end if;
  update cash_positions set held = held + new.exchange_amount, updated_at = now()
    where exchange_id = new.cashbox_id and currency_id = new.currency2_id and balance - held >= new.exchange_amount;
  if found then
    return new;
  end if;
  select balance - held into avail from cash_positions
    where exchange_id = new.cashbox_id and currency_id = new.currency2_id;
  raise exception using errcode = '${INSUFFICIENT_RESERVE}', message = 'insufficient reserve', detail = avail::text;
end $$`;

const TABLES = `
create table cash_positions (
  exchange_id integer not null references exchanges(id) on delete cascade,
  currency_id integer not null references currencies(id),
  balance numeric(38,18) not null default 0,
  held numeric(38,18) not null default 0,
  low_watermark numeric(38,18) not null default 0 check (low_watermark >= 0),
  updated_at timestamptz not null default now(),
  primary key (exchange_id, currency_id)
);

create table cash_movements (
  id bigint generated always as identity primary key,
  exchange_id integer not null,
  currency_id integer not null,
  kind text not null check (kind in ('deposit', 'withdrawal', 'count', 'transferIn', 'transferOut', 'orderSettled')),
  amount numeric(38,18) not null,
  balance_after numeric(38,18) not null,
  order_id integer references orders(id) on delete set null,
  staff_user_id integer references staff_users(id) on delete set null,
  reason text,
  created_at timestamptz not null default now(),
  foreign key (exchange_id, currency_id) references cash_positions (exchange_id, currency_id) on delete cascade
);

create index cash_movements_position on cash_movements (exchange_id, currency_id, id);
`;

const SCRIPT = `

create trigger orders_cash_hold before insert on orders for each row execute function cash_hold();

create trigger cash_positions_catalog_insert after insert on cash_positions referencing new table as new_rows for each statement execute function catalog_notify_by_exchange();
create trigger cash_positions_catalog_update after update on cash_positions referencing old table as old_rows new table as new_rows for each statement execute function catalog_notify_by_exchange();

alter table staff_users drop constraint staff_users_permissions_check;
alter table staff_users add constraint staff_users_permissions_check
  check (permissions <@ array['orders:read','orders:write','clients:read','clients:write','webhooks:manage','cash:write']::text[]);
`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, TABLES);
  await sql.raw(HOLD_FUNCTION).execute(db);
  await runScript(db, SCRIPT);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `drop trigger orders_cash_hold on orders;
drop function cash_hold();
drop table cash_movements;
drop table cash_positions;
update staff_users set permissions = array_remove(permissions, 'cash:write');
alter table staff_users drop constraint staff_users_permissions_check;
alter table staff_users add constraint staff_users_permissions_check
  check (permissions <@ array['orders:read','orders:write','clients:read','clients:write','webhooks:manage']::text[]);
`,
  );
}
