import type { Kysely } from 'kysely';
import { runScript } from '../script.js';

/**
 * One payment method per name (case aside) for the same branch, exchange and currency: two "Cash at the desk" rows
 * with the same reach left staff and partners unable to tell which to pick. Rows made before keep their first; the
 * later ones are renamed after their id, which orders reference them by, so nothing else changes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    drop index if exists payment_methods_name_key;
    update payment_methods p set name = left(p.name, 85) || ' (' || p.id || ')', updated_at = now()
    where exists (
      select 1 from payment_methods q
      where q.branch_id = p.branch_id and lower(trim(q.name)) = lower(trim(p.name))
        and q.exchange_id is not distinct from p.exchange_id and q.currency_id is not distinct from p.currency_id and q.id < p.id);
    create unique index payment_methods_name_key
      on payment_methods (branch_id, lower(trim(name)), coalesce(exchange_id, 0), coalesce(currency_id, 0));`,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(db, 'drop index if exists payment_methods_name_key;');
}
