import type { Kysely } from 'kysely';
import { runScript } from '../script.js';

/**
 * The counter's orders of a branch, for the lists filtered on `source: counter` (docs/reports.md): counter orders may
 * be few among a branch's million partner orders, and without it the list's capped count and its first page would
 * read the whole branch to find them. Partial: partner orders, the many, are not in it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, `create index orders_counter_idx on orders (branch_id, id) where source = 'counter';`);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(db, `drop index orders_counter_idx;`);
}
