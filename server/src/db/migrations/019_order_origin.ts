import type { Kysely } from 'kysely';
import { runScript } from '../script.js';

/**
 * Where an order came from and what it was priced against (docs/reports.md, docs/rates.md):
 * - `source`: `partner` (placed through the partner API) or `counter` (a walk-in client served by a cashier);
 * - `created_by_staff_id`: the cashier who placed a counter order (null for partner orders, and once the staff user
 *   is deleted: the order stays, the name on its receipt comes from the audit log);
 * - `reference_rate`: the market reference the offer's rate was made from when the order was priced, so the spread
 *   it earned is known for ever; null for orders of fixed-rate offers, which earn no measured spread.
 * Every order placed before this migration was a partner order of a fixed offer, which the defaults say.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
alter table orders add column source text not null default 'partner' check (source in ('partner', 'counter'));
alter table orders add column created_by_staff_id integer references staff_users(id) on delete set null;
alter table orders add column reference_rate numeric;
`,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
alter table orders drop column reference_rate;
alter table orders drop column created_by_staff_id;
alter table orders drop column source;
`,
  );
}
