import type { Kysely } from 'kysely';
import { runScript } from '../script.js';

/**
 * The payment window (docs/decisions.md, "Payment window"): how long an exchange's orders wait for the client's
 * payment, and when each open order runs out of it. Orders placed before this migration keep no deadline: giving
 * them one would cancel every old unpaid order at the first poll after the upgrade.
 *
 * The expiry job reads only the orders that can still expire, soonest first; the partial index holds just those,
 * so it stays as small as the open orders however long the history grows.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
alter table exchanges add column payment_window_seconds integer not null default 3600
  check (payment_window_seconds between 0 and 604800);
alter table orders add column expires_at timestamptz;
create index orders_expiry_idx on orders (expires_at)
  where expires_at is not null and status in ('ORDERINIT', 'CLIENTPAYMENTWAIT');
`,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
drop index orders_expiry_idx;
alter table orders drop column expires_at;
alter table exchanges drop column payment_window_seconds;
`,
  );
}
